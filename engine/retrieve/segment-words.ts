/**
 * Scripts written without spaces between words. FTS5's unicode61 tokenizer takes a run of their
 * letters for one token, so "京都に行きました" was one word and a question about 京都 found nothing.
 * (Thai and the others keep their vowel signs, which are combining marks, inside words only because
 * turn_fts counts marks as token characters: migration 013.)
 */
const scripts =
  '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Thai}\\p{Script=Lao}\\p{Script=Khmer}\\p{Script=Myanmar}';
const unspacedRun = new RegExp(`[${scripts}]+`, 'gu');
const unspacedChar = new RegExp(`[${scripts}]`, 'u');

const words = new Intl.Segmenter('und', { granularity: 'word' });

/** Whether the text holds any letter of a script written without spaces. */
export function hasUnspaced(text: string): boolean {
  return unspacedChar.test(text);
}

/**
 * The text with a space between the words of every unspaced run, found by ICU's dictionary word
 * breaking (" 京都 に 行き ま した "); other text is left as it is. Applied to what is indexed and to the
 * query alike, so both are cut into the same words.
 */
export function segmentWords(text: string): string {
  if (!hasUnspaced(text)) return text;
  // Spaced on both sides too: a run glued to Latin letters or digits ("iPhone京都") is words of its own.
  return text.replace(
    unspacedRun,
    (run) => ` ${Array.from(words.segment(run), (s) => s.segment).join(' ')} `,
  );
}
