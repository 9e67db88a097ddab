import { foldText } from '../../core/shared/fold-text.ts';
import type { Db } from './open-database.ts';

/*
 * Every Memory with an owner's name holds it folded (`owner_folded`, migration 037), which the
 * Memories list's owner filter reads on its index. The repository writes it with each Memory; the
 * Memories written before the migration are folded here, when the store opens, in one transaction.
 */

const markerKey = 'owner_folds';

/** Folds the owners of the Memories written before migration 037, once; whether it did. */
export function foldOwners(db: Db): boolean {
  const held = db.prepare('SELECT value FROM meta WHERE key = ?').get(markerKey) as
    { value: string } | undefined;
  if (held === undefined) return false;
  db.transaction(() => {
    // The folds by name, then one pass over the Memories (an UPDATE per name would read them all each).
    const names = db
      .prepare('SELECT DISTINCT owner_entity AS name FROM memories WHERE owner_entity IS NOT NULL')
      .all() as { name: string }[];
    db.exec('CREATE TEMP TABLE owner_folds (name TEXT PRIMARY KEY, folded TEXT NOT NULL)');
    const add = db.prepare('INSERT INTO temp.owner_folds (name, folded) VALUES (?, ?)');
    for (const { name } of names) add.run(name, foldText(name));
    db.exec(`UPDATE memories
      SET owner_folded = (SELECT f.folded FROM temp.owner_folds f WHERE f.name = owner_entity)
      WHERE owner_entity IS NOT NULL;
      DROP TABLE temp.owner_folds;`);
    db.prepare('DELETE FROM meta WHERE key = ?').run(markerKey);
  })();
  return true;
}
