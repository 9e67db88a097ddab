import type { Db } from '../open-database.ts';

/**
 * Why the push kept a Record home: the redactor's reason for one held back ("it speaks of health
 * (…)", "an @ that is not part of an e-mail address"), which the sync status gives with the Records it
 * names, so the Sync panel says why each did not go. Null for a fate written before (its reason was not
 * kept) and for those that went.
 */
export const heldBackReasons = {
  version: 39,
  name: 'held-back-reasons',
  sql: '',
  after: (db: Db) => {
    // Once: a store set back to an older version (as tests do) has the column already.
    const columns = db.prepare('PRAGMA table_info(sync_records)').all() as { name: string }[];
    if (!columns.some((c) => c.name === 'reason')) db.exec('ALTER TABLE sync_records ADD COLUMN reason TEXT');
  },
};
