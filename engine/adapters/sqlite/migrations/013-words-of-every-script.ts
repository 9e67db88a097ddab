/**
 * Words of every script as FTS5 tokens (engine/core/retrieve/segment-words.ts and turn-table.ts):
 * - unicode61 split at combining marks (its default categories are L* N* Co), so a Thai, Hindi or Tamil
 *   word, whose vowel signs are marks, was indexed as loose letters, and a query in those scripts
 *   matched unrelated Records letter by letter. Marks now belong to tokens (`M*`); Latin diacritics are
 *   still removed, written precomposed or combining.
 * - Runs of scripts written without spaces (Japanese, Chinese, Thai, Lao, Khmer, Myanmar) are cut into
 *   words before they are indexed, so 京都 in "京都に行きました" is a word of its own.
 * turn_fts is rebuilt from the Records by the indexer, as migration 005 did; no vector is recomputed.
 * records_fts goes: nothing has read it since the retrieval index replaced it (migration 003), yet every
 * write indexed each text into it a second time.
 */
export const wordsOfEveryScript = {
  version: 13,
  name: 'words-of-every-script',
  sql: `
DROP TABLE records_fts;
DROP TABLE turn_fts;
CREATE VIRTUAL TABLE turn_fts USING fts5(text, speaker, before, after, scope, tokenize = 'porter unicode61 remove_diacritics 2 categories ''L* N* Co M*''');
INSERT INTO turn_fts (turn_fts, rank) VALUES ('secure-delete', 1);
INSERT OR REPLACE INTO index_queue (owner, owner_n, lexical) SELECT 'record', n, 0 FROM records;
`,
};
