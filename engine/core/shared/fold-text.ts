/**
 * Text as a search compares it: lower case in every script (SQLite's lower() folds ASCII only, so
 * "москве" missed "Москве"), accents off Latin, Greek and Cyrillic letters ("uber" finds "über", as
 * the full-text index's remove_diacritics does), compatibility forms made one ("ﬁ", full-width letters).
 * The marks of other scripts (Indic vowel signs, Hebrew points) are letters' parts and stay.
 */
export function foldText(text: string): string {
  // Most text is ASCII, where folding is lower case alone, ten times cheaper than normalizing.
  if (!/[^\u0020-\u007e\t\n\r]/.test(text)) return text.toLowerCase();
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFC');
}

/** The words of a search, folded; each must occur in what it finds (any order, within words too). */
export function searchWords(query: string): string[] {
  const folded = foldText(query);
  const words = [...new Set(folded.split(/[\s,;]+/u).filter(Boolean))];
  // A search of separators alone ("," or ";") looks for them, not for everything.
  return words.length > 0 || folded.trim() === '' ? words : [folded.trim()];
}
