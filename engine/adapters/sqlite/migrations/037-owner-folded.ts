import type { Db } from '../open-database.ts';

/**
 * The Memories list's owner filter compares a name folded (foldText: "zoe" finds Zoë). Folded in SQL
 * by a function of the engine's, it folded every Memory of the Brain on each page: ~0.12-0.17 s at
 * 100,000 Memories for a name with few of them. The folded owner is kept beside it (`owner_folded`,
 * written with the Memory: an owner never changes) and indexed in id order, so a page, first or by
 * cursor, is a range read. A column, not an index on the function: every connection that writes
 * Memories, checks or copies the file (a backup's integrity_check, a tool's) would need the function.
 * `meta.owner_folds` says the Memories written before are not folded yet: the store folds them when it
 * opens (owner-folds.ts), with the rule as it is then, which a migration may not import.
 */
export const ownerFolded = {
  version: 37,
  name: 'owner-folded',
  sql: `INSERT OR REPLACE INTO meta (key, value) VALUES ('owner_folds', 'pending');`,
  after: (db: Db) => {
    // Once: a store set back to an older version (as tests do) has the column already.
    const columns = db.prepare('PRAGMA table_info(memories)').all() as { name: string }[];
    if (!columns.some((c) => c.name === 'owner_folded'))
      db.exec('ALTER TABLE memories ADD COLUMN owner_folded TEXT');
    db.exec(`CREATE INDEX IF NOT EXISTS memories_owner_folded ON memories (brain_uid, owner_folded, id)
      WHERE owner_folded IS NOT NULL`);
  },
};
