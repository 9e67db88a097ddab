import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { wordIndexOf } from './word-index.ts';

describe('word index', () => {
  it('answers as a Map of word -> rank would, for any word', () => {
    const words = ['the', 'ça', "'s", 'naïve', '日本', 'the', 'a', 'zebra', 'ab', 'ba'];
    const map = new Map<string, number>();
    words.forEach((w, r) => map.set(w, r));
    const index = wordIndexOf(words);
    assert.equal(index.size, map.size);
    // A word given twice keeps its last rank; entries come in first-given order.
    assert.deepEqual([...index.entries()], [...map.entries()]);
    for (const w of [...words, 'th', 'thee', 'ca', 'naive', '日', '', 'zebras', 'x'.repeat(300)])
      assert.equal(index.get(w), map.get(w), w);
  });

  it('answers by the UTF-8 bytes of a word anywhere in a buffer as by the word', () => {
    const words = ['the', 'ça', "'s", 'naïve', '日本', 'the', 'a', 'zebra'];
    const index = wordIndexOf(words);
    const encoder = new TextEncoder();
    for (const w of [...words, 'th', 'thee', 'ca', '日', '', 'zebras']) {
      const buffer = encoder.encode(`xx ${w} yy`);
      const bytes = encoder.encode(w).length;
      assert.equal(index.rankOf(buffer, 3, 3 + bytes), index.get(w) ?? -1, w);
    }
  });

  it('finds every word of a vocabulary that fills most of its table', () => {
    const words = Array.from({ length: 5000 }, (_, i) => `w${i.toString(36)}`);
    const index = wordIndexOf(words);
    words.forEach((w, r) => assert.equal(index.get(w), r));
    assert.equal(index.get('w-1'), undefined);
  });
});
