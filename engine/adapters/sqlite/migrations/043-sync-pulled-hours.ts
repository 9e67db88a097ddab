import type { Db } from '../open-database.ts';

/**
 * `sync_pairings.pulled_hours`: what the pairing's pull read from its remote's feed, Records and bytes
 * by the hour, over the last day (JSON), so that its day's budget holds across restarts: a server that
 * restarts does not start a hostile hub's day again (docs/sync.md, "The pull's budget").
 */
export const syncPulledHours = {
  version: 43,
  name: 'sync-pulled-hours',
  sql: '',
  after: (db: Db) => {
    // Once: a store set back to an older version (as tests do) has the column already.
    const columns = db.prepare('PRAGMA table_info(sync_pairings)').all() as { name: string }[];
    if (!columns.some((c) => c.name === 'pulled_hours'))
      db.exec('ALTER TABLE sync_pairings ADD COLUMN pulled_hours TEXT');
  },
};
