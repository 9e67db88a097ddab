/**
 * Tombstones for delta reads: one row per Memory that left the served set (deleted, or hidden while
 * it waits for re-derivation), at the Brain sequence step that removed it, so `listMemories` with
 * `since_watermark` can report it in `removed`. Only opaque ids and the step: never a statement,
 * subject or quote (forgetting leaves no text). One row per Memory id (a later removal replaces the
 * earlier one); the rows go with their Brain.
 *
 * `shareable`: the Memory was served on a hosted deployment at some removal (it had a supporting
 * Record that is not local_only), so a hosted delta read reports only ids it could have served.
 */
export const memoryRemovals = {
  version: 8,
  name: 'memory-removals',
  sql: `
CREATE TABLE memory_removals (
  memory_id TEXT PRIMARY KEY,
  brain_uid TEXT NOT NULL REFERENCES brains(uid) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  reason TEXT NOT NULL CHECK (reason IN ('deleted', 'pending_rederivation')),
  shareable INTEGER NOT NULL CHECK (shareable IN (0, 1))
) STRICT, WITHOUT ROWID;
CREATE INDEX memory_removals_brain_seq ON memory_removals (brain_uid, seq);
`,
};
