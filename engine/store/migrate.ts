import type { Db } from './open-database.ts';
import { migrations as allMigrations, type Migration } from './migrations/index.ts';

/**
 * Brings the database up to the newest schema, one migration per transaction, recording progress in
 * PRAGMA user_version. A file from a newer Mnemo is refused rather than half-understood.
 * Returns the versions applied.
 */
export function migrate(db: Db, migrations: readonly Migration[] = allMigrations): number[] {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1)
      throw new Error(`migration ${m.name} has version ${m.version}, expected ${i + 1}`);
  });
  const current = db.pragma('user_version', { simple: true }) as number;
  const latest = migrations.length;
  if (current > latest) {
    throw new Error(
      `the database has schema version ${current}, newer than this Mnemo understands (${latest}); upgrade Mnemo`,
    );
  }
  const applied: number[] = [];
  for (const m of migrations.slice(current)) {
    db.transaction(() => {
      db.exec(m.sql);
      m.after?.(db);
      db.pragma(`user_version = ${m.version}`);
    })();
    applied.push(m.version);
  }
  return applied;
}

/** The schema version this build writes. */
export const latestSchemaVersion = allMigrations.length;
