import type { Db } from '../open-database.ts';

/**
 * `sync_pairings.warning`: what the pairing's last run found that did not stop it and that the person
 * should know, kept with the run's end as `last_error` is, so that the status says it after a restart
 * too: the hosted Brain's self differs from this Brain's, which sync does not overwrite (docs/sync.md,
 * "The self"), or the hosted Mnemo refused to take the self (an older version).
 */
export const syncWarning = {
  version: 38,
  name: 'sync-warning',
  sql: '',
  after: (db: Db) => {
    // Once: a store set back to an older version (as tests do) has the column already.
    const columns = db.prepare('PRAGMA table_info(sync_pairings)').all() as { name: string }[];
    if (!columns.some((c) => c.name === 'warning'))
      db.exec('ALTER TABLE sync_pairings ADD COLUMN warning TEXT');
  },
};
