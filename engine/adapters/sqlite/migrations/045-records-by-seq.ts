/**
 * A Brain's Records in the order of their seq, again, as PostgreSQL's records_brain_seq orders them (010
 * dropped the index when nothing read it). Reads that go on from a seq read it now: the Records' changes
 * feed (a delta read), the speakers by first name (speakersByFirstName, in derivation and in every
 * Context's entity lane, on from the last message read) and the sync outbox (on from the push cursor; its
 * count is in every sync status the Sync panel polls). Without it the planner, having no table
 * statistics, read all of the Brain's Records by another index and sorted them, to find few or none:
 * the entity lane's lookup alone was ~11 ms a Context at 20,000 Records, ~70 at 100,000.
 */
export const recordsBySeq = {
  version: 45,
  name: 'records-by-seq',
  sql: `
CREATE INDEX IF NOT EXISTS records_brain_seq ON records (brain_uid, seq, id);
`,
};
