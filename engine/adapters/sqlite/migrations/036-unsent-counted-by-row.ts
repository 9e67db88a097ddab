import type { Db } from '../open-database.ts';

/**
 * A pairing's Records held back and skipped by its push are counted from their sync_records rows
 * (device-sync.ts, status), the way the status names them: those the push cursor of the pairing has
 * passed, whose Record is still here. Kept as sums, they counted Records forgotten since, and the names
 * were read from every row of the fate, of earlier pairings too, so the status named Records it did not
 * count and some that were gone. `held_back` goes; `skipped` keeps only what the pull skipped (Records
 * not taken, with no row here) as `pull_skipped`. A pairing's push skips of Records forgotten before
 * this migration cannot be told from its pull skips and stay in it until the pairing starts over.
 */
export const unsentCountedByRow = {
  version: 36,
  name: 'unsent-counted-by-row',
  sql: '',
  after: (db: Db) => {
    // Once: a store set back to an older version (as tests do) has them split already.
    const columns = db.prepare('PRAGMA table_info(sync_pairings)').all() as { name: string }[];
    if (!columns.some((c) => c.name === 'skipped')) return;
    db.exec(`
UPDATE sync_pairings SET skipped = max(0, skipped - (
  SELECT count(*) FROM sync_records s JOIN records r ON r.id = s.record_id AND r.brain_uid = s.brain_uid
  WHERE s.brain_uid = sync_pairings.brain_uid AND s.fate = 'skipped' AND r.seq <= sync_pairings.push_seq));
ALTER TABLE sync_pairings RENAME COLUMN skipped TO pull_skipped;
ALTER TABLE sync_pairings DROP COLUMN held_back;`);
  },
};
