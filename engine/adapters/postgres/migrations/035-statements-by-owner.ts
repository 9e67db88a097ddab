/**
 * Active statements of no slot by whose they are, and others' by the source that wrote them, in the
 * order they began: what a claim that changes a plan looks up (statementsSaying, statementsToldFrom).
 * The SQLite adapter's migration 046, which says why.
 */
export const statementsByOwner = {
  version: 35,
  name: 'statements by owner',
  sql: `
CREATE INDEX IF NOT EXISTS memories_owner_statements
  ON memories (brain_uid, owner_state, owner_entity, valid_from_ms, n)
  WHERE slot IS NULL AND status = 'active' AND NOT pending;
CREATE INDEX IF NOT EXISTS memories_source_statements ON memories (brain_uid, source_key, valid_from_ms, n)
  WHERE owner_state = 'other' AND slot IS NULL AND status = 'active' AND NOT pending;
`,
};
