import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { oneLine } from './run-sync.ts';

describe('text from a remote, made one line for the status and the log', () => {
  it('writes control, format and separator characters as escapes, and keeps the rest', () => {
    assert.equal(
      oneLine('a\nb\r\tc\u001b[31m\u0085\u2028\u202e\u200b d', 100),
      'a\\u{a}b\\u{d}\\u{9}c\\u{1b}[31m\\u{85}\\u{2028}\\u{202e}\\u{200b} d',
    );
    assert.equal(oneLine('Zoë à Łódź 🙂', 100), 'Zoë à Łódź 🙂');
    assert.equal(oneLine('half \ud83d of a pair', 100), 'half \\u{d83d} of a pair');
  });

  it('keeps at most the given length, saying how long the text was', () => {
    assert.equal(oneLine('x'.repeat(10_000), 5), 'xxxxx… (10000 characters)');
    assert.equal(oneLine('xxxxx', 5), 'xxxxx');
  });
});
