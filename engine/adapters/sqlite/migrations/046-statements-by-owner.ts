/**
 * Active statements of no slot by whose they are, and others' by the source that wrote them, each in
 * the order they began: what a claim that changes a plan looks up (statementsSaying: the owner's
 * statements holding the plan's words; statementsToldFrom: a booking mailed to the person). Without
 * them the planner, having no table statistics, read every Memory of the Brain and sorted them, for each
 * such claim and each mail source: ~80-140 ms at 100,000 Memories, inside a derivation's unit.
 */
export const statementsByOwner = {
  version: 46,
  name: 'statements-by-owner',
  sql: `
CREATE INDEX IF NOT EXISTS memories_owner_statements ON memories (brain_uid, owner_state, owner_entity, valid_from_ms)
  WHERE slot IS NULL AND status = 'active' AND pending = 0;
CREATE INDEX IF NOT EXISTS memories_source_statements ON memories (brain_uid, source_key, valid_from_ms)
  WHERE owner_state = 'other' AND slot IS NULL AND status = 'active' AND pending = 0;
`,
};
