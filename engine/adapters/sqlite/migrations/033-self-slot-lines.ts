/**
 * The profile reads the self's lines that hold a slot first (home, job, partner, ...). On the index of
 * all the self's Memories, history included, a first page with fewer slot lines than it shows walked
 * every one of them; on this one it reads only those. (IF NOT EXISTS: tests that set a store back
 * to an older version keep the indexes they do not know of.)
 */
export const selfSlotLines = {
  version: 33,
  name: 'self-slot-lines',
  sql: `
CREATE INDEX IF NOT EXISTS memories_self_slot_from ON memories (brain_uid, valid_from_ms)
  WHERE owner_state = 'self' AND slot IS NOT NULL;
`,
};
