/**
 * `sync_pairings.catching_up`: the pairing's last run stopped with more to do and kept what it did (the
 * feed's page limit, or its deadline after some progress), so the next run follows within seconds. Kept
 * with the run's end so that the status says so after a restart too, where `last_error` alone would
 * read as a failure.
 */
export const syncCatchingUp = {
  version: 24,
  name: 'sync-catching-up',
  sql: `
ALTER TABLE sync_pairings ADD COLUMN catching_up INTEGER NOT NULL DEFAULT 0;
`,
};
