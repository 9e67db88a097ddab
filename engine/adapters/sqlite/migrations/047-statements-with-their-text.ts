/**
 * Migration 046's indexes again, each entry holding its statement (and the rowid, so the order they
 * began stays the index's own, ties by write order): a plan's words are tested on the index, and only
 * the statements that say one are read from the table. Tested on the table's rows, a lookup read every
 * statement of the owner until `limit` said a word; at 100,000 Records of the bench corpus (~6,400
 * statements a person), warm: 1.5-2.9 ms to find 50, 8-12 ms to find none, 0.4-0.5 and 1.2 ms now
 * (with sayingAny's LIKE). In a 30,000-Record ingest it was the costliest statement (2.2 s of SQLite's
 * time). The entries take ~7 MB more at 100,000 Memories.
 */
export const statementsWithTheirText = {
  version: 47,
  name: 'statements-with-their-text',
  sql: `
DROP INDEX IF EXISTS memories_owner_statements;
DROP INDEX IF EXISTS memories_source_statements;
CREATE INDEX memories_owner_statements ON memories (brain_uid, owner_state, owner_entity, valid_from_ms, n, statement)
  WHERE slot IS NULL AND status = 'active' AND pending = 0;
CREATE INDEX memories_source_statements ON memories (brain_uid, source_key, valid_from_ms, n, statement)
  WHERE owner_state = 'other' AND slot IS NULL AND status = 'active' AND pending = 0;
`,
};
