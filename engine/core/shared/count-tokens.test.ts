import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type * as CountTokens from './count-tokens.ts';
import { countTokens, loadTokenizer, specialTokens as loadSpecialTokens } from './count-tokens.ts';

describe('countTokens', () => {
  let specialTokens: readonly string[] = [];
  before(async () => {
    specialTokens = await loadSpecialTokens();
  });

  it('refuses to count before the tokenizer is loaded, and counts once it is', async () => {
    // A fresh copy of the module: this file's own has been loaded by before().
    const fresh = (await import(`./count-tokens.ts?fresh=${Date.now()}`)) as typeof CountTokens;
    assert.throws(() => fresh.countTokens('hello'), /await loadTokenizer\(\) first/);
    await fresh.loadTokenizer();
    assert.equal(fresh.countTokens('hello world'), 2);
    assert.equal(await loadTokenizer(), await loadTokenizer(), 'loaded once');
  });

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
