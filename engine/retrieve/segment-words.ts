/**
 * Scripts written without spaces between words. FTS5's unicode61 tokenizer takes a run of their
 * letters for one token, so "京都に行きました" was one word and a question about 京都 found nothing.
 * Thai, Lao, Khmer and Myanmar are written without spaces too, but their vowel and tone signs are
 * combining marks, at which unicode61 (categories L* N* Co) already splits every word into letters:
 * segmenting them would not help until the tokenizer keeps marks, so they are left out.
 */
const scripts = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}';
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
