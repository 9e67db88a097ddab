import type { PgClient, PgQueryable } from './client.ts';
import { migrations as shipped, vectorSchema, type PgMigration } from './migrations/index.ts';
import { statementKeys } from './migrations/023-statement-keys.ts';
import { compoundWords } from './migrations/030-compound-words.ts';
import { healthLines } from './migrations/034-health-lines.ts';
import { indexCompoundWords } from './compound-words.ts';
import { markHealthLines } from './health-lines.ts';
import { keyStatements } from './statement-keys.ts';
import { matchesOf } from '../../contract/matches-of.ts';

/** One key for every Mnemo process on a database: whoever holds it migrates, the others wait. */
const MIGRATION_LOCK = 0x6d6e656d6f; // 'mnemo'

export interface MigrationResult {
  /** Versions this call applied (empty when another process, or an earlier start, had). */
  applied: number[];
  /** Whether the vector lane's storage is in place (the `vector` extension is installed). */
  vector: boolean;
  /** Why not, when it is not. */
  vectorReason: string | null;
}

/**
 * What is wrong with a database whose migrations are `versions`, when one is newer than `list` (this
 * Mnemo's) knows, else null: its tables may hold what this version neither reads nor rewrites.
 */
export function newerSchema(
  versions: readonly number[],
  list: readonly PgMigration[] = shipped,
): string | null {
  const known = Math.max(0, ...list.map((m) => m.version));
  const newest = Math.max(0, ...versions);
  return newest > known
    ? `the database's schema is at version ${newest}, newer than this Mnemo knows (${known})`
    : null;
}

/**
 * Brings a database to the current schema, in one transaction under a transaction-level advisory
 * lock: processes starting together queue on the lock, the first applies what is missing and the
 * rest find it recorded. A transaction-level lock (not `pg_advisory_lock`) is released by COMMIT or
 * ROLLBACK on its own, so a process that dies mid-migration never leaves the lock held on a pooled
 * connection. PostgreSQL's DDL is transactional: a failed migration leaves nothing behind. Then, in
 * the same transaction, every Memory is keyed again if its keys are another version's
 * (statement-keys.ts), and marked for health again if its marks are another version's words'
 * (health-lines.ts).
 */
export async function migrate(
  client: PgClient,
  list: readonly PgMigration[] = shipped,
): Promise<MigrationResult> {
  return client.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    const schema = (await tx.query<{ s: string | null }>('SELECT current_schema() AS s')).rows[0]?.s;
    if (!schema)
      throw new Error(noSchema((await tx.query<{ search_path: string }>('SHOW search_path')).rows[0]));
    const fresh = (await tx.query("SELECT to_regclass('mnemo_migrations') IS NULL AS fresh")).rows[0] as {
      fresh: boolean;
    };
    if (fresh.fresh) {
      const taken = await tx.query<{ relname: string }>(
        `SELECT relname FROM pg_class
          WHERE relnamespace = current_schema()::regnamespace AND relname = ANY($1::text[])
          ORDER BY relname`,
        [tablesMade(list)],
      );
      if (taken.rows.length > 0)
        throw new Error(
          notOurs(
            schema,
            taken.rows.map((r) => r.relname),
          ),
        );
    }
    await tx.query(`CREATE TABLE IF NOT EXISTS mnemo_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const done = new Set(
      (await tx.query<{ version: number }>('SELECT version FROM mnemo_migrations')).rows.map(
        (r) => r.version,
      ),
    );
    const newer = newerSchema([...done], list);
    if (newer !== null) throw new Error(`${newer}: upgrade Mnemo`);
    const applied: number[] = [];
    for (const m of list) {
      if (done.has(m.version)) continue;
      await tx.exec(m.sql);
      await tx.query('INSERT INTO mnemo_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      applied.push(m.version);
    }
    // What the rules compute, which a migration may not: the Memories' keys, in the same transaction.
    if (list.includes(statementKeys)) await keyStatements(tx);
    if (applied.includes(compoundWords.version)) await indexCompoundWords(tx);
    if (list.includes(healthLines)) await markHealthLines(tx);
    return { applied, ...(await ensureVector(tx)) };
  });
}

/** The tables `list` creates (a plain CREATE TABLE fails on a name that is taken). */
export function tablesMade(list: readonly PgMigration[]): string[] {
  const made = new Set<string>();
  for (const m of list)
    for (const [, name] of matchesOf(
      /\bCREATE\s+(?:UNLOGGED\s+)?TABLE\s+(?!IF\s+NOT\s+EXISTS\b)"?(\w+)/giu,
      m.sql,
    ))
      made.add(name!.toLowerCase());
  return [...made].sort();
}

const ownSchema = 'CREATE SCHEMA mnemo, then add ?options=-c%20search_path%3Dmnemo to the URL';

/** A database that already holds another application's tables, named as Mnemo's are. */
function notOurs(schema: string, names: readonly string[]): string {
  const shown = names.slice(0, 5).join(', ') + (names.length > 5 ? ` and ${names.length - 5} more` : '');
  return (
    `schema "${schema}" already holds tables Mnemo did not make (${shown}); give Mnemo a database ` +
    `of its own, or a schema of its own: ${ownSchema}`
  );
}

/** What to do when no schema of the connection's search_path exists (nothing could be created). */
function noSchema(row: { search_path: string } | undefined): string {
  return `no schema on its search_path (${row?.search_path ?? 'empty'}) exists; create one (${ownSchema})`;
}

/**
 * The vector lane's storage when the `vector` extension can be had; recorded in mnemo_meta either way
 * ('on', or 'off' with the reason), so the server can say at start why the semantic lane does not run.
 */
async function ensureVector(tx: PgQueryable): Promise<Pick<MigrationResult, 'vector' | 'vectorReason'>> {
  const meta = async (key: string, value: string) =>
    tx.query(
      'INSERT INTO mnemo_meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value',
      [key, value],
    );
  const state = await tx.query<{ value: string }>("SELECT value FROM mnemo_meta WHERE key = 'vector'");
  if (state.rows[0]?.value === 'on') return { vector: true, vectorReason: null };
  const available = await tx.query("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'");
  let reason: string | null = null;
  if (available.rows.length === 0) {
    reason = 'the vector extension (pgvector) is not installed on this PostgreSQL server';
  } else {
    // Creating an extension may need rights this role lacks: the schema stays usable without it.
    await tx.query('SAVEPOINT vector');
    try {
      await tx.exec(vectorSchema);
      await tx.query('RELEASE SAVEPOINT vector');
    } catch (e) {
      await tx.query('ROLLBACK TO SAVEPOINT vector');
      reason = `the vector extension could not be created: ${(e as Error).message}`;
    }
  }
  await meta('vector', reason === null ? 'on' : 'off');
  await meta('vector_reason', reason ?? '');
  return { vector: reason === null, vectorReason: reason };
}
