import type { Db } from '../open-database.ts';

/**
 * The profile puts the self's health lines first (an allergy, a condition, medication: what an agent
 * must not miss), before the slot lines and the rest. Health is read from a statement's words
 * (contract/profile-group.ts), which SQL cannot: the repository marks each Memory it writes
 * (`health`, 1 or 0) and the profile reads the marked ones on an index of their own, a few lines where
 * the self may have 100,000. `meta.health_lines` says the Memories written before are not marked yet:
 * the store marks them when it opens (health-lines.ts), with the rule as it is then, which a migration
 * may not import.
 */
export const healthLines = {
  version: 40,
  name: 'health-lines',
  sql: `INSERT OR REPLACE INTO meta (key, value) VALUES ('health_lines', 'pending');`,
  after: (db: Db) => {
    // Once: a store set back to an older version (as tests do) has the column already.
    const columns = db.prepare('PRAGMA table_info(memories)').all() as { name: string }[];
    if (!columns.some((c) => c.name === 'health'))
      db.exec('ALTER TABLE memories ADD COLUMN health INTEGER NOT NULL DEFAULT 0');
    db.exec(`CREATE INDEX IF NOT EXISTS memories_self_health_from ON memories (brain_uid, valid_from_ms)
      WHERE owner_state = 'self' AND health = 1`);
  },
};
