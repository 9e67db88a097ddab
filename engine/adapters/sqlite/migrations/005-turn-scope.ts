/**
 * turn_fts gains a `scope` column holding one token per Brain, so a lexical search restricts itself
 * to the Brain inside the full-text index (an intersection of posting lists) instead of joining every
 * matching row of every Brain to `records` first: at 100,000 Records that join cost more than the
 * BM25 ranking itself (35 ms vs 14 ms per query). Rebuilt from the Records by the indexer.
 */
export const turnScope = {
  version: 5,
  name: 'turn-scope',
  sql: `
DROP TABLE turn_fts;
CREATE VIRTUAL TABLE turn_fts USING fts5(text, speaker, before, after, scope, tokenize = 'porter unicode61 remove_diacritics 2');
INSERT INTO turn_fts (turn_fts, rank) VALUES ('secure-delete', 1);
INSERT OR REPLACE INTO index_queue (owner, owner_n, lexical) SELECT 'record', n, 0 FROM records;
`,
};
