import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MnemoError } from './mnemo-error.ts';
import { boundedMessage, quoted, shortened } from './shown-value.ts';

describe('values quoted in error messages', () => {
  it('keeps a short value whole', () => {
    assert.equal(shortened('rec_01ABC'), 'rec_01ABC');
    assert.equal(quoted('nope'), '"nope"');
    assert.equal(quoted(42), '42');
  });

  it('shows a long value by its first 200 characters and its length', () => {
    const kind = 'k'.repeat(700_000);
    assert.equal(quoted(kind), `"${'k'.repeat(200)}"… (700,000 characters)`);
    assert.equal(shortened(kind), `${'k'.repeat(200)}… (700,000 characters)`);
  });

  it('never cuts inside a surrogate pair', () => {
    const text = `${'a'.repeat(199)}😀${'b'.repeat(300)}`;
    assert.ok(shortened(text).startsWith(`${'a'.repeat(199)}…`));
  });

  it('bounds every MnemoError message, whatever built it', () => {
    const e = new MnemoError('invalid_request_body', `a: ${'x '.repeat(100_000)}`);
    assert.ok(e.message.length < 2_100, String(e.message.length));
    assert.match(e.message, /… \(message cut; 200,003 characters\)$/u);
    assert.equal(boundedMessage('short'), 'short');
  });
});
