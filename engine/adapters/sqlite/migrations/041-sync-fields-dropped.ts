import type { Db } from '../open-database.ts';

/**
 * `sync_pairings.fields_dropped`: Records the push sent without a content field the remote refused as
 * unknown (newerContentFields: a hub older than the device), so that the status warns of it after the
 * run and after a restart, until the remote takes such a field (docs/sync.md, "A hub older than the
 * device").
 */
export const syncFieldsDropped = {
  version: 41,
  name: 'sync-fields-dropped',
  sql: '',
  after: (db: Db) => {
    // Once: a store set back to an older version (as tests do) has the column already.
    const columns = db.prepare('PRAGMA table_info(sync_pairings)').all() as { name: string }[];
    if (!columns.some((c) => c.name === 'fields_dropped'))
      db.exec('ALTER TABLE sync_pairings ADD COLUMN fields_dropped INTEGER NOT NULL DEFAULT 0');
  },
};
