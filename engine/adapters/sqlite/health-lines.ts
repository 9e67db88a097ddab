import { healthWordsVersion, saysHealth } from '../../contract/index.ts';
import type { Db } from './open-database.ts';

/*
 * Every Memory is marked `health` when its statement saysHealth (contract/profile-group.ts), which the
 * profile reads its first group by (migration 038). The repository marks each Memory it writes;
 * `meta.health_lines` names the version of the words the store's marks were made with (`pending`
 * since migration 038, for the Memories written before it). A store of other marks is marked again
 * whole when it opens, in one transaction, before the profile is read.
 */

const markerKey = 'health_lines';

/**
 * Marks every Memory again when the store's marks are another version's; whether it did. A store with
 * no version recorded (its schema is older than migration 038's) is left alone.
 */
export function markHealthLines(db: Db, pageSize = 5000): boolean {
  const held = db.prepare('SELECT value FROM meta WHERE key = ?').get(markerKey) as
    { value: string } | undefined;
  if (held === undefined || held.value === String(healthWordsVersion)) return false;
  db.transaction(() => {
    // In pages: better-sqlite3 runs no other statement while an iteration is open.
    const page = db.prepare(
      `SELECT n, statement, health FROM memories WHERE n > ? ORDER BY n LIMIT ${pageSize}`,
    );
    const set = db.prepare('UPDATE memories SET health = ? WHERE n = ?');
    type Row = { n: number; statement: string; health: number };
    for (let rows = page.all(0) as Row[]; rows.length > 0; rows = page.all(rows.at(-1)!.n) as Row[])
      for (const r of rows) {
        const health = saysHealth(r.statement) ? 1 : 0;
        if (health !== r.health) set.run(health, r.n);
      }
    db.prepare('UPDATE meta SET value = ? WHERE key = ?').run(String(healthWordsVersion), markerKey);
  })();
  return true;
}
