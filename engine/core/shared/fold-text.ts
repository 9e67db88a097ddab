import { matchesOf } from '../../contract/matches-of.ts';
/** A character that is not printable ASCII, a tab or a line end: text without one folds to its lower case. */
const notAscii = /[^\u0020-\u007e\t\n\r]/;

/**
 * Text as a search compares it: Unicode's full case folding (CaseFolding.txt, statuses C and F; not the
 * Turkic T: "I" is "i" whatever the language) with compatibility forms made one and accents off.
 * - Lower case in every script (SQLite's lower() folds ASCII only, so "москве" missed "Москве").
 * - Compatibility forms made one ("ﬁ" is "fi", "™" is "tm", full-width letters are ASCII), and made one
 *   before the case is folded, as Unicode's compatibility caseless match does: "℡" is "tel", not "TEL".
 * - Accents off Latin, Greek and Cyrillic letters ("uber" finds "über", as the full-text index's
 *   remove_diacritics does). Greek's iota subscript counts as one: "ᾳ" folds to "α" (full case folding
 *   alone makes it "αι"), so a word typed in monotonic Greek finds its polytonic spelling.
 * - What folding adds to lower case: "ß" and "ẞ" fold to "ss" ("strasse" finds "Straße"), final "ς" to
 *   "σ" (so does "Σ" wherever it stands), and the old Cyrillic letter forms to their letters.
 * The marks of other scripts (Indic vowel signs, Hebrew points) are letters' parts and stay.
 * PostgreSQL folds the same way in the SQL function mnemo_fold (its migration 018); a test holds the two
 * together. Stored folds depend on it (SQLite's memories.owner_folded, PostgreSQL's indexes on
 * mnemo_fold): a change here needs a migration that folds them again.
 */
export function foldText(text: string): string {
  // Most text is ASCII, where folding is lower case alone, ten times cheaper than normalizing.
  if (!notAscii.test(text)) return text.toLowerCase();
  const folded = text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFC');
  // Tested first: most text holds none of them, and a replace with a function costs more than a test
  // even when it finds nothing.
  return foldsFurther.test(folded) ? folded.replace(foldsFurtherAll, (c) => foldsTo[c]!) : folded;
}

/**
 * The letters case folding maps where lower case leaves them (after compatibility decomposition, which
 * takes care of the other multi-letter foldings: "ŉ", "ǰ", "ﬀ", "և"), from CaseFolding.txt.
 */
const foldsTo: Record<string, string> = {
  ß: 'ss',
  ς: 'σ',
  // Cyrillic's old letter forms: rounded ve, long-legged de, narrow o, wide es, tall te, three-legged
  // te, tall hard sign, tall yat, unblended uk.
  '\u1c80': 'в',
  '\u1c81': 'д',
  '\u1c82': 'о',
  '\u1c83': 'с',
  '\u1c84': 'т',
  '\u1c85': 'т',
  '\u1c86': 'ъ',
  '\u1c87': 'ѣ',
  '\u1c88': 'ꙋ',
};
const foldsFurther = new RegExp(`[${Object.keys(foldsTo).join('')}]`);
const foldsFurtherAll = new RegExp(foldsFurther.source, 'g');

/** The words of a search, folded; each must occur in what it finds (any order, within words too). */
export function searchWords(query: string): string[] {
  const folded = foldText(query);
  const words = [...new Set(folded.split(/[\s,;]+/u).filter(Boolean))];
  // A search of separators alone ("," or ";") looks for them, not for everything.
  return words.length > 0 || folded.trim() === '' ? words : [folded.trim()];
}

/**
 * foldText with the way back: `origin[i]` is the offset in `text` of the character that folded to
 * `folded[i]` (folding changes lengths: "ß" is "ss", "é" written as "e" and an accent is "e"). Folded a
 * character and its marks at a time, so what it finds can be quoted from the text as written.
 */
export function foldWithOffsets(text: string): { folded: string; origin: Int32Array } {
  if (!notAscii.test(text)) {
    const origin = new Int32Array(text.length + 1);
    for (let i = 0; i <= text.length; i++) origin[i] = i;
    return { folded: text.toLowerCase(), origin };
  }
  const parts: string[] = [];
  const starts: number[] = [];
  const cache = new Map<string, string>();
  let length = 0;
  for (const m of matchesOf(/[^\p{M}][\p{M}]*|[\p{M}]+/gsu, text)) {
    const piece = m[0];
    let f = cache.get(piece);
    if (f === undefined) {
      f = foldText(piece);
      if (cache.size < 4096) cache.set(piece, f);
    }
    parts.push(f);
    starts.push(m.index);
    length += f.length;
  }
  const origin = new Int32Array(length + 1);
  let k = 0;
  parts.forEach((f, p) => {
    for (let j = 0; j < f.length; j++) origin[k++] = starts[p]!;
  });
  origin[length] = text.length;
  return { folded: parts.join(''), origin };
}

/**
 * Normalised speaker name: how the entity lane matches a name in a query, and how every store keeps a
 * message's speaker beside it. Folded as search words are, so "Jose" names José and "zoe" Zoë.
 */
export const normName = (s: string): string => foldText(s.trim());
