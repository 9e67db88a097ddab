import assert from 'node:assert/strict';
import { test } from 'node:test';
import { evidenceWindowed, textChars } from './text-window.ts';

const cited = <T extends string | null>(text: T, quote: string) => ({ record_id: 'rec_01', quote, text });

test("a cited Record's text that fits, or that the key may not read, is given as it is", () => {
  assert.deepEqual(evidenceWindowed(cited('Short.', 'Short.')), cited('Short.', 'Short.'));
  assert.deepEqual(evidenceWindowed(cited(null, 'Short.')), cited(null, 'Short.'));
});

test('a quote near the start is shown from the start, unmarked', () => {
  const text = `Quote here. ${'x'.repeat(5_000)}`;
  const w = evidenceWindowed(cited(text, 'Quote here.'));
  assert.equal(w.text, text.slice(0, textChars.listed));
  assert.deepEqual(w.text_window, { offset: 0, shown: 2_000, total: text.length, next_offset: 2_000 });
});

test('a quote not in the text is shown from the start, its window saying the quote was not found', () => {
  const text = `Quote here. ${'x'.repeat(5_000)}`;
  const w = evidenceWindowed(cited(text, 'not in it'));
  assert.equal(w.text, text.slice(0, textChars.listed));
  assert.deepEqual(w.text_window, {
    offset: 0,
    shown: 2_000,
    total: text.length,
    next_offset: 2_000,
    quote_found: false,
  });
});

test('a quote at the end is shown with what comes before it, never half a surrogate pair', () => {
  // Odd in length: the window's first place falls between the halves of a pair.
  const text = `${'🙂'.repeat(3_000)}The end!!`;
  const w = evidenceWindowed(cited(text, 'The end!!'));
  assert.ok(w.text.endsWith('The end!!'));
  assert.equal(w.text_window?.next_offset, null);
  assert.ok(w.text.length <= textChars.listed);
  assert.ok(!/^[\udc00-\udfff]/u.test(w.text), 'starts on a whole character');
  assert.equal(w.text, text.slice(w.text_window!.offset));
});
