import assert from 'node:assert/strict';
import { test } from 'node:test';
import { segmentInWindows } from './segment-in-windows.ts';

const sentences = new Intl.Segmenter('en', { granularity: 'sentence' });
const words = new Intl.Segmenter('und', { granularity: 'word' });

const texts = {
  abbreviations: 'Dr. Smith went to Washington D.C. on Jan. 5. He said: "Hi!" Then... he left? Yes. '.repeat(
    40,
  ),
  'one-letter sentences': 'A. '.repeat(900),
  lines: 'first line\nsecond line. And more\n\nnew paragraph!\r\n'.repeat(60),
  japanese: '京都に行きました。東京の天気は？ケ\u3099ームをした。'.repeat(80),
  thai: 'ฉันกินข้าวที่เชียงใหม่ '.repeat(100),
  emoji: 'I 🎉 love 👨‍👩‍👧 emoji 🇵🇹. '.repeat(120),
  'no breaks': 'x'.repeat(5000),
  empty: '',
};

test('segments found window by window are the whole text’s, and nothing is lost when a window is short', () => {
  for (const [name, text] of Object.entries(texts))
    for (const segmenter of [sentences, words])
      for (const window of [7, 64, 256, 2048]) {
        const what = `${name} / ${segmenter.resolvedOptions().granularity} / ${window}`;
        const whole = Array.from(segmenter.segment(text), (s) => [s.index, s.segment, s.isWordLike]);
        const windowed = Array.from(segmentInWindows(segmenter, text, window), (s) => [
          s.index,
          s.segment,
          s.isWordLike,
        ]);
        // Each segment starts where the one before it ended: the text, whole, in order.
        let at = 0;
        for (const [index, segment] of windowed as [number, string][]) {
          assert.equal(index, at, what);
          at += segment.length;
        }
        assert.equal(at, text.length, what);
        // With windows longer than any segment (and the text around it), they are the same segments.
        const longest = Math.max(0, ...whole.map((s) => (s[1] as string).length));
        if (window > 2 * longest) assert.deepEqual(windowed, whole, what);
      }
});

test('a window never ends between the halves of a surrogate pair', () => {
  const text = `a${'😀'.repeat(50)}`;
  const cut = Array.from(segmentInWindows(words, text, 4), (s) => s.segment);
  assert.equal(cut.join(''), text);
  for (const s of cut) assert.ok(!/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/.test(s), JSON.stringify(s));
});

test('a boundary decided by what follows it is decided with the text after it, at a window’s end too', () => {
  // ICU keeps "See e.g. (the list) for more." one sentence by looking past "e.g. " for a lower-case
  // letter; a window ending inside that look must not cut it in two.
  for (const pad of [2030, 2036, 2040, 2044]) {
    const text = `${'x'.repeat(pad)}. See e.g. (the list) for more. Next one.`;
    assert.deepEqual(
      Array.from(segmentInWindows(sentences, text), (s) => s.segment),
      Array.from(sentences.segment(text), (s) => s.segment),
      String(pad),
    );
  }
});

test('a sentence longer than a window is cut after a full stop or a space in it, not inside a word', () => {
  // ICU reads no break at a full stop before a lower-case letter: a chat in lower case is one "sentence".
  const text = 'the quick brown fox jumps over the lazy dog. '.repeat(300);
  const cut = Array.from(segmentInWindows(sentences, text), (s) => s.segment);
  assert.ok(cut.length > 1);
  assert.equal(cut.join(''), text);
  for (const s of cut) assert.match(s, /^the quick .* dog\. $/u);
  const spaced = 'word '.repeat(1000);
  for (const s of Array.from(segmentInWindows(sentences, spaced, 256), (x) => x.segment))
    assert.match(s, /^(?:word )+$/u);
  // One word longer than the window has no better place: its window's end.
  assert.deepEqual(
    Array.from(segmentInWindows(sentences, 'x'.repeat(5000)), (s) => s.segment.length),
    [2048, 2048, 904],
  );
});
