import type { Db } from '../open-database.ts';

/**
 * What a pairing keeps of the forgets its remote asked for (docs/sync.md, "Forgets the remote asks
 * for"), and which Records came from a remote:
 *
 * - `sync_pairings.forgotten_by_remote`: Records of this device forgotten because the remote said so
 *   (a push answered `forgotten`, a feed page's `removed`), summed as `pulled` is, for the status.
 * - `sync_held_forgets`: the ids (as the remote names them) of forgets the guard held, kept until the
 *   person confirms them (acceptSyncForgets) or the pairing goes; each names the pairing that held it.
 * - `sync_records.from_remote`: 1 for a Record written from a remote's feed, kept when the pairing
 *   starts over and its fate changes: such a Record is no item of this device's own imports, and is
 *   erasable on its own (docs/sync.md, "Trust of a pulled Record"). Set for every Record pulled before.
 */
export const syncRemoteForgets = {
  version: 42,
  name: 'sync-remote-forgets',
  sql: `
CREATE TABLE IF NOT EXISTS sync_held_forgets (
  brain_uid TEXT NOT NULL REFERENCES brains(uid) ON DELETE CASCADE,
  remote_id TEXT NOT NULL,
  pairing_id TEXT NOT NULL,
  held_at TEXT NOT NULL,
  PRIMARY KEY (brain_uid, remote_id)
) STRICT, WITHOUT ROWID;
`,
  after: (db: Db) => {
    // Once: a store set back to an older version (as tests do) has the columns already.
    const has = (table: string, column: string) =>
      (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).some((c) => c.name === column);
    if (!has('sync_pairings', 'forgotten_by_remote'))
      db.exec('ALTER TABLE sync_pairings ADD COLUMN forgotten_by_remote INTEGER NOT NULL DEFAULT 0');
    if (!has('sync_records', 'from_remote')) {
      db.exec('ALTER TABLE sync_records ADD COLUMN from_remote INTEGER NOT NULL DEFAULT 0');
      db.exec("UPDATE sync_records SET from_remote = 1 WHERE fate = 'pulled'");
    }
  },
};
