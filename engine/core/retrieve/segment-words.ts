import { segmentInWindows } from '../shared/segment-in-windows.ts';

/**
 * Scripts written without spaces between words. FTS5's unicode61 tokenizer takes a run of their
 * letters for one token, so "京都に行きました" was one word and a question about 京都 found nothing.
 * (Thai and the others keep their vowel signs, which are combining marks, inside words only because
 * turn_fts counts marks as token characters: migration 013.)
 */
const scripts =
  '\\p{Script_Extensions=Han}\\p{Script_Extensions=Hiragana}\\p{Script_Extensions=Katakana}\\p{Script_Extensions=Thai}\\p{Script_Extensions=Lao}\\p{Script_Extensions=Khmer}\\p{Script_Extensions=Myanmar}';
// Marks ride along with their letters (a voicing mark written apart, "ケ\u3099", stays with its kana).
const unspacedRun = new RegExp(`(?:[${scripts}]\\p{M}*)+`, 'gu');
const unspacedChar = new RegExp(`[${scripts}]`, 'u');

const words = new Intl.Segmenter('und', { granularity: 'word' });

/** Whether the text holds any letter of a script written without spaces. */
export function hasUnspaced(text: string): boolean {
  return unspacedChar.test(text);
}

/**
 * Marks that follow no letter or digit: a lone accent, or the emoji presentation selector (U+FE0F in
 * "❤️"). With marks counted as token characters, each would be a token of its own, empty once
 * diacritics are removed (which the in-memory index copy cannot count) or meaningless ("️" matched
 * every Record with an emoji).
 */
const loneMarks = /(^|[^\p{L}\p{N}\p{M}])\p{M}+/gu;

/**
 * The text as the full-text index and the query read it: composed (NFC), without lone marks, and with
 * a space between the words of every unspaced run, found by ICU's dictionary word breaking
 * (" 京都 に 行き ま した "); other text is left as it is. Applied to what is indexed and to the query
 * alike, so both are cut into the same words.
 */
export function segmentWords(text: string): string {
  const clean = text.normalize('NFC').replace(loneMarks, '$1');
  if (!hasUnspaced(clean)) return clean;
  // Spaced on both sides too: a run glued to Latin letters or digits ("iPhone京都") is words of its own.
  return clean.replace(
    unspacedRun,
    (run) => ` ${Array.from(segmentInWindows(words, run), (s) => s.segment).join(' ')} `,
  );
}

/**
 * Words of the scripts whose compounds hold other words: Han and kana (a dictionary keeps 東京タワー
 * and 协和医院 whole, so 東京 and 医院 found nothing) and Hangul (spaced, but a word carries its
 * particles: 서울에 is Seoul and "in"). Not Thai and the others, whose vowel signs are marks.
 */
const compoundWord =
  /[\p{Script_Extensions=Han}\p{Script_Extensions=Hiragana}\p{Script_Extensions=Katakana}\p{Script=Hangul}]{3,}/gu;

/** The bigrams of a word (東京タワー: 東京 京タ タワ ワー). */
function bigrams(word: string): string[] {
  const chars = Array.from(word);
  const pairs: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) pairs.push(chars[i]! + chars[i + 1]!);
  return pairs;
}

/** Whether the text holds a letter of the scripts whose compounds the index cuts (indexedWords). */
export const mayHoldCompounds = (text: string): boolean =>
  hasUnspaced(text) || /\p{Script=Hangul}/u.test(text);

/**
 * The text as the full-text index holds it: segmentWords, then after each word of three characters or
 * more of those scripts its bigrams (東京タワー 東京 京タ タワ ワー), as CJK search indexes them, so a
 * word inside a compound is found. A compound asked for whole still matches the word itself, ranked
 * above a Record holding only its parts.
 */
export function indexedWords(text: string): string {
  const segmented = segmentWords(text);
  if (!mayHoldCompounds(segmented)) return segmented;
  return segmented.replace(compoundWord, (word) => `${word} ${bigrams(word).join(' ')}`);
}

/**
 * The bigrams a search looks up beside a word of segmented text (segmentWords) that may sit inside
 * another's compound: タワー in 東京タワー, 서울에서 against 서울에 (the index holds only the compound and
 * its bigrams). None for other words.
 */
export function searchBigrams(segmented: string): string[] {
  if (!mayHoldCompounds(segmented)) return [];
  return (segmented.match(compoundWord) ?? []).flatMap(bigrams);
}
