/**
 * Words folded by Unicode's full case folding, as the local engine now folds them
 * (core/shared/fold-text.ts): "ß" and "ẞ" fold to "ss", so "strasse" finds "Straße" and "straße" finds
 * "STRASSE"; final "ς" to "σ"; the old Cyrillic letter forms to their letters. Compatibility forms are
 * made one before the case is folded ("℡" is "tel", not "TEL"), and lower case is ICU's root locale's
 * ("und-x-icu", as the Memories' search already folded), not the database collation's, which may fold
 * less or differently.
 *
 * The turns written since migration 016 are written again, but only those holding a word that is not
 * ASCII: ASCII text folds as before (lower case, which to_tsvector applies anyway), and the folding of
 * any other character that changes leaves a character that is not ASCII among the lexemes.
 */
export const fullCaseFolding = {
  version: 18,
  name: 'full case folding',
  sql: `
CREATE OR REPLACE FUNCTION mnemo_fold(t text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN translate(
    replace(
      normalize(regexp_replace(lower(normalize(t, NFKD) COLLATE "und-x-icu"), '[\\u0300-\\u036f]', '', 'g'), NFC),
      'ß', 'ss'),
    'ς\u1c80\u1c81\u1c82\u1c83\u1c84\u1c85\u1c86\u1c87\u1c88', 'σвдосттъѣꙋ');

SELECT count(*) FROM (
  SELECT mnemo_write_turn(t.brain_uid, t.n) FROM turns t
  WHERE octet_length(t.tsv::text) <> length(t.tsv::text)) w;
`,
};
