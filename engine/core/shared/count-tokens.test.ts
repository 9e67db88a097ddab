import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import fc from 'fast-check';
import type * as CountTokens from './count-tokens.ts';
import {
  countTokens,
  countsPieceByPiece,
  loadTokenizer,
  specialTokens as loadSpecialTokens,
} from './count-tokens.ts';

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

  describe("gives the library's own count", () => {
    // The library's exact count, as countTokens asks for it (control-token strings as text).
    let exact: (text: string) => number = () => NaN;
    before(async () => {
      const t = await loadTokenizer();
      exact = (text) => t.countTokens(text, { disallowedSpecial: new Set<string>() });
    });

    it('counts piece by piece rather than through the library (else the checks below compare it to itself)', () => {
      assert.equal(countsPieceByPiece(), true);
    });

    it('on any text: random code units, lone surrogates and graphemes of every script', () => {
      const text = fc.oneof(
        fc.string({ unit: 'binary', maxLength: 300 }),
        fc.string({ unit: 'grapheme', maxLength: 200 }),
        fc.string({
          unit: fc.constantFrom('a', 'B', ' ', '\n', '\r', '\t', "'", '1', '.', '/', 'é', '東'),
          maxLength: 200,
        }),
      );
      fc.assert(
        fc.property(text, (t) => countTokens(t) === exact(t)),
        { numRuns: 1_000 },
      );
    });

    it('on text shaped like a Context: framed headers, quotes, control-token strings, separators', () => {
      const words = fc.constantFrom(
        'booked',
        'Lisbon',
        "they'll",
        "WE'RE",
        "O'Brien",
        '12345',
        '2024-03-12T09:15:00Z',
        '€1,299.50',
        '—',
        '東京で',
        'Ünïcødé',
        '#mnemo-123456789',
        '[12]',
        '·',
        '"Bob"',
        '(self)',
        '!!',
        '...',
        'https://a.example/x?y=1',
      );
      const gaps = fc.constantFrom(' ', '  ', '\n', '\n\n', ' \n', '\r\n', '\t', '   \n\n', '');
      const piece = fc.oneof(words, gaps, fc.constantFrom(...specialTokens));
      fc.assert(
        fc.property(fc.array(piece, { maxLength: 120 }), (parts) => {
          const t = parts.join('');
          return countTokens(t) === exact(t) && countTokens(`${t}\n\n`) === exact(`${t}\n\n`);
        }),
        { numRuns: 1_000 },
      );
    });
  });
});
