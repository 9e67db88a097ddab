import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { countTokens, specialTokens } from './count-tokens.ts';

describe('countTokens', () => {
  it('knows the special tokens it is tested with', () => {
    assert.ok(specialTokens.includes('<|endoftext|>'));
    assert.ok(specialTokens.includes('<|im_start|>'));
    assert.ok(specialTokens.length >= 10, specialTokens.join(' '));
  });

  it('counts every special-token string as ordinary text instead of throwing', () => {
    for (const special of specialTokens) {
      assert.ok(countTokens(`an exported chat: ${special} and on`) > 5, special);
      // As ordinary text the string costs several tokens, never the single one of the control token.
      assert.ok(countTokens(special) > 1, special);
    }
  });
});
