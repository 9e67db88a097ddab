/**
 * A paired Brain's Records held back and skipped, indexed: the sync status names the newest of each
 * (device-sync.ts) on every read, which the Sync panel makes every few seconds, and a Brain's
 * sync_records are mostly pushed and pulled ones, which the primary key would read through.
 */
export const syncRecordsUnsent = {
  version: 34,
  name: 'sync-records-unsent',
  sql: `
CREATE INDEX IF NOT EXISTS sync_records_held_back ON sync_records (brain_uid, record_id) WHERE fate = 'held_back';
CREATE INDEX IF NOT EXISTS sync_records_skipped ON sync_records (brain_uid, record_id) WHERE fate = 'skipped';
`,
};
