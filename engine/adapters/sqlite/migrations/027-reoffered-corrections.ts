/**
 * `sync_records.skipped_under`: for a Record the outbox kept home (`skipped`, never sent), the version of
 * the rules of which corrections travel it was kept home under (engine/local/sync/device-sync.ts,
 * `correctionRules`); NULL: before this version, when every correction was kept home (it named a
 * Memory of this device alone) or kept by the rules of then. The outbox offers a correction kept home
 * under older rules again, behind the push cursor, so one this version can send goes up on the next run
 * after an upgrade instead of staying home for good. Indexed: `skipped` rows are few, and read every run.
 */
export const reofferedCorrections = {
  version: 27,
  name: 'reoffered-corrections',
  sql: `
ALTER TABLE sync_records ADD COLUMN skipped_under INTEGER;
CREATE INDEX sync_records_skipped ON sync_records (brain_uid) WHERE fate = 'skipped';
`,
};
