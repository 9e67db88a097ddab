/**
 * A derivation job that fails on its own is tried again a few times (derive_queue.attempts), and one
 * that still fails leaves a row here instead of vanishing: Census names its Record
 * (`derivation_failed`) until a later derivation of it succeeds or the Record is forgotten.
 */
export const deriveFailures = {
  version: 17,
  name: 'derive-failures',
  sql: `
ALTER TABLE derive_queue ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
CREATE TABLE derive_failures (
  n INTEGER PRIMARY KEY,
  brain_uid TEXT NOT NULL REFERENCES brains(uid) ON DELETE CASCADE,
  job TEXT NOT NULL CHECK (job IN ('derive', 'rederive')),
  record_id TEXT REFERENCES records(id) ON DELETE CASCADE,
  memory_id TEXT REFERENCES memories(id) ON DELETE CASCADE,
  error TEXT NOT NULL,
  attempts INTEGER NOT NULL,
  failed_at TEXT NOT NULL
) STRICT;
CREATE INDEX derive_failures_brain ON derive_failures (brain_uid, n);
CREATE INDEX derive_failures_record ON derive_failures (record_id) WHERE record_id IS NOT NULL;
CREATE INDEX derive_failures_memory ON derive_failures (memory_id) WHERE memory_id IS NOT NULL;
`,
};
