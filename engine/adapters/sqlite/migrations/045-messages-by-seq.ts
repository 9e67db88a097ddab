/**
 * A Brain's messages in the order of their seq (speakersByFirstName reads on from the last one it read,
 * in derivation and in every Context's entity lane). Without it the planner, having no table
 * statistics, read all of the Brain's Records by another index and sorted them, to find none new: ~11
 * ms a Context at 20,000 Records, growing with the Brain. Only messages, so other Records' writes do not
 * pay for it (010 dropped the whole `(brain_uid, seq)` index when nothing read it).
 */
export const messagesBySeq = {
  version: 45,
  name: 'messages-by-seq',
  sql: `
CREATE INDEX IF NOT EXISTS records_messages_seq ON records (brain_uid, seq) WHERE kind = 'message';
`,
};
