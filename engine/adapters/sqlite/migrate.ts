import type { Db } from './open-database.ts';
import { migrations as allMigrations, type Migration } from './migrations/index.ts';
import { statementKeys } from './migrations/029-statement-keys.ts';
import { ownerFolded } from './migrations/037-owner-folded.ts';
import { healthLines } from './migrations/040-health-lines.ts';
import { markHealthLines } from './health-lines.ts';
import { foldOwners } from './owner-folds.ts';
import { keyStatements } from './statement-keys.ts';

/**
 * Brings the database up to the newest schema (a new one in one transaction, an existing one a migration
 * per transaction), recording progress in PRAGMA user_version. A file from a newer Mnemo is refused
 * rather than half-understood. Then every Memory is keyed again, in a transaction of its own, if its
 * keys are another version's (statement-keys.ts), the owners of those migration 037 left unfolded
 * are folded (owner-folds.ts), and every Memory's health mark is made again if the marks are another
 * version's words' (health-lines.ts).
 * Returns the versions applied.
 */
export function migrate(db: Db, migrations: readonly Migration[] = allMigrations): number[] {
  // Versions only increase. A number may be missing while the change it is reserved for is not merged
  // yet; a store migrated by such a build past the gap would never get that migration, so none is released.
  migrations.forEach((m, i) => {
    const before = i === 0 ? 0 : migrations[i - 1]!.version;
    if (m.version <= before)
      throw new Error(`migration ${m.name} has version ${m.version}, expected more than ${before}`);
  });
  const current = db.pragma('user_version', { simple: true }) as number;
  const latest = migrations.at(-1)?.version ?? 0;
  if (current > latest) {
    throw new Error(
      `the database has schema version ${current}, newer than this Mnemo understands (${latest}); upgrade Mnemo`,
    );
  }
  const pending = migrations.filter((x) => x.version > current);
  const apply = (m: Migration): void => {
    db.exec(m.sql);
    m.after?.(db);
    db.pragma(`user_version = ${m.version}`);
  };
  // A new store gets its whole schema in one commit: a file is either empty or complete, and its first
  // start does not wait on a commit (and its fsyncs) per migration. An existing store keeps each
  // migration's progress, as a later one may fail or take long on its data.
  if (current === 0) db.transaction(() => pending.forEach(apply))();
  else for (const m of pending) db.transaction(() => apply(m))();
  // What the rules compute, which a migration may not: the Memories' keys, before any is looked up.
  if (migrations.includes(statementKeys)) keyStatements(db);
  // And the owners' names of the Memories written before migration 037, folded.
  if (migrations.includes(ownerFolded)) foldOwners(db);
  // And the Memories' health marks, made with the words as they are now.
  if (migrations.includes(healthLines)) markHealthLines(db);
  return pending.map((m) => m.version);
}

/** The schema version this build writes. */
export const latestSchemaVersion = allMigrations.at(-1)?.version ?? 0;
