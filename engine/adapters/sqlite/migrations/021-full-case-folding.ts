/**
 * turn_fts holds its words folded as every search folds them (core/shared/fold-text.ts, turnText):
 * Unicode's full case folding, so "strasse" finds "Straße" as PostgreSQL's turns do since its migration
 * 018, and the accents of Greek and Cyrillic letters off as well as Latin ones (unicode61 removes Latin
 * diacritics only). The rows holding a character that is not ASCII are indexed again by the indexer, as
 * migration 013 had every row indexed again (no vector is recomputed). The others stay: ASCII folds to
 * its lower case, which unicode61 had made of it already.
 */
export const fullCaseFolding = {
  version: 21,
  name: 'full-case-folding',
  sql: `
INSERT OR REPLACE INTO index_queue (owner, owner_n, lexical)
  SELECT 'record', rowid, 0 FROM (
    SELECT rowid, coalesce(text, '') || coalesce(speaker, '') || coalesce(before, '') || coalesce(after, '') AS t
    FROM turn_fts)
  WHERE length(CAST(t AS BLOB)) <> length(t);
`,
};
