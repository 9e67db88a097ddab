import type { Db } from '../open-database.ts';

/**
 * What the remote-forget guard reads (docs/sync.md, "Forgets the remote asks for"):
 *
 * - `sync_pairings.remote_forget_hours`: the Records the remote made this device forget, by the hour,
 *   over the last day (JSON of `[hour, count]`), so that the guard counts a rolling day, as the pull's
 *   budget does (043).
 * - `sync_records.first_refused`: 1 for a Record whose first send the remote answered `forgotten`, until
 *   a later send is taken: it never travelled, so the remote may not make this device forget it by the
 *   id it was sent under. Its remote id is kept for the tombstone of a forget made here.
 * - `sync_records.from_remote` set where 042 left it unset though the Record came from a remote: a
 *   redacted_summary Record the remote knows by its own id (this device pushes its own only as a copy
 *   under another id, redactedCopyId), pulled before 042 and pushed again when its pairing started over.
 *   A shareable Record so pulled and pushed again reads as this device's own: nothing kept tells them
 *   apart (both are known there by their own id, both `pushed`), so it is left unset (docs/sync.md).
 */
export const syncForgetGuard = {
  version: 44,
  name: 'sync-forget-guard',
  sql: `
UPDATE sync_records SET from_remote = 1
WHERE from_remote = 0 AND remote_id = record_id
  AND EXISTS (SELECT 1 FROM records r WHERE r.id = sync_records.record_id
                AND r.brain_uid = sync_records.brain_uid AND r.visibility = 'redacted_summary');
`,
  after: (db: Db) => {
    // Once: a store set back to an older version (as tests do) has the columns already.
    const has = (table: string, column: string) =>
      (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).some((c) => c.name === column);
    if (!has('sync_records', 'first_refused'))
      db.exec('ALTER TABLE sync_records ADD COLUMN first_refused INTEGER NOT NULL DEFAULT 0');
    if (!has('sync_pairings', 'remote_forget_hours'))
      db.exec('ALTER TABLE sync_pairings ADD COLUMN remote_forget_hours TEXT');
  },
};
