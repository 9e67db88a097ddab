/**
 * The sync change feed reads a Brain's Records and forgotten ids by step, then id: an index in that
 * order serves each page without a sort (the Records had no index on their step at all).
 */
export const feedOrder = {
  version: 4,
  name: 'feed order',
  sql: `
CREATE INDEX records_brain_seq ON records (brain_uid, seq, id);
DROP INDEX record_tombstones_seq;
CREATE INDEX record_tombstones_seq ON record_tombstones (brain_uid, seq, record_id);
`,
};
