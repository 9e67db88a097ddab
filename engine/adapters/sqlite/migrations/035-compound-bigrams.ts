/**
 * turn_fts holds the bigrams of CJK and Hangul compounds beside the compounds (turnIndexText), so a word
 * inside one is found (東京 in 東京タワー, 医院 in 协和医院, 서울 in 서울에). The rows holding a
 * character of those scripts are indexed again by the indexer, as migration 021 had the rows it changed
 * (no vector is recomputed); the others hold no such word.
 */
export const compoundBigrams = {
  version: 35,
  name: 'compound-bigrams',
  sql: `
INSERT OR REPLACE INTO index_queue (owner, owner_n, lexical)
  SELECT 'record', rowid, 0 FROM (
    SELECT rowid, coalesce(text, '') || coalesce(before, '') || coalesce(after, '') AS t
    FROM turn_fts)
  WHERE t GLOB '*[぀-ヿ㐀-䶿一-鿿豈-﫿가-힯ᄀ-ᇿ㄰-㆏ｦ-ﾟ𠀀-𲎯]*';
`,
};
