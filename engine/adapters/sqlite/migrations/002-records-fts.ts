/**
 * Full-text index over Record text: porter stemming on top of unicode61 (so "running" finds "run"),
 * with FTS5 secure-delete switched on so a forgotten Record's tokens are overwritten, not just
 * unlinked. rowid = records.n. Existing Records are indexed on upgrade.
 */
export const recordsFts = {
  version: 2,
  name: 'records-fts',
  sql: `
CREATE VIRTUAL TABLE records_fts USING fts5(text, tokenize = 'porter unicode61 remove_diacritics 2');
INSERT INTO records_fts (records_fts, rank) VALUES ('secure-delete', 1);
INSERT INTO records_fts (rowid, text) SELECT n, text FROM records;
`,
};
