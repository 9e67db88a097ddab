import { connectPostgres, type PgClient } from './client.ts';
import { newerSchema } from './migrate.ts';
import { shownUrl } from './database-url.ts';

/**
 * The tables a forgotten Record's bytes can be in: its row (text, content), the turns that held its
 * words (its own, and the versions of its neighbours' from before the forget rewrote them), the
 * Memories derived from it and their citations' quotes, the Traces that named it, derivation
 * failures, its vectors, a thorough Context kept for its retry. Their TOAST tables and indexes are rewritten with them.
 */
export const forgottenBytesTables = [
  'records',
  'turns',
  'memories',
  'citations',
  'traces',
  'derive_failures',
  'embeddings',
  'thorough_contexts',
] as const;

export interface CompactionReport {
  tables: Array<{ table: string; bytesBefore: number; bytesAfter: number }>;
  /**
   * pg_statistic, where ANALYZE keeps sampled column values (a Record's text among a column's
   * histogram bounds): compacted, or why not (only a superuser may vacuum it).
   */
  statistics: { compacted: true } | { compacted: false; reason: string };
}

/**
 * Removes what a forget left in the database's files. A DELETE only marks a row dead; VACUUM makes its
 * space reusable but leaves the bytes in the page until something overwrites them; VACUUM FULL writes
 * each table (and its TOAST table and indexes) anew with the live rows only, and drops the old files
 * at commit. ANALYZE first replaces the statistics sampled from the forgotten rows, and pg_statistic is
 * then compacted the same way. Each VACUUM FULL holds an ACCESS EXCLUSIVE lock on its table while it
 * runs: requests that touch the table wait (docs/hosted-postgres.md, Forgetting on a server).
 *
 * VACUUM cannot run in a transaction: each statement here commits on its own.
 */
export async function compactForgotten(client: PgClient): Promise<CompactionReport> {
  const present = new Set(
    (
      await client.query<{ name: string }>(
        `SELECT c.relname AS name FROM pg_class c
         WHERE c.relkind = 'r' AND c.relname = ANY ($1::text[]) AND c.relnamespace = to_regnamespace(current_schema())`,
        [[...forgottenBytesTables]],
      )
    ).rows.map((r) => r.name),
  );
  const size = async (table: string) =>
    (await client.query<{ b: number }>('SELECT pg_total_relation_size($1::regclass) AS b', [table])).rows[0]!
      .b;
  // A finished thorough Context waits for its retry only for a while, and a forget whose clearing
  // failed after its commit (a crash between the two) would leave one quoting what it forgot: a retry
  // after this assembles the request again, which is all dropping them costs.
  if (present.has('thorough_contexts'))
    await client.query("DELETE FROM thorough_contexts WHERE state <> 'assembling'");
  const tables: CompactionReport['tables'] = [];
  for (const table of forgottenBytesTables) {
    if (!present.has(table)) continue;
    const bytesBefore = await size(table);
    // Names from the list above, not input.
    await client.query(`VACUUM (FULL, ANALYZE) ${table}`);
    tables.push({ table, bytesBefore, bytesAfter: await size(table) });
  }
  const su = await client.query<{ s: string }>("SELECT current_setting('is_superuser') AS s");
  if (su.rows[0]?.s !== 'on') {
    return {
      tables,
      statistics: {
        compacted: false,
        reason: 'pg_statistic can only be compacted by a superuser (VACUUM FULL pg_statistic)',
      },
    };
  }
  await client.query('VACUUM FULL pg_statistic');
  return { tables, statistics: { compacted: true } };
}

/**
 * `mnemo compact --database-url URL`: compacts a hosted Mnemo's database (compactForgotten). Refuses a
 * database no Mnemo has migrated: there is nothing of Mnemo's to compact, and the URL is likely wrong.
 */
export async function compactDatabase(url: string): Promise<CompactionReport> {
  const client = connectPostgres(url, { max: 1 });
  const failed = (e: unknown): never => {
    const err = new Error(`the database at ${shownUrl(url)} could not be compacted: ${(e as Error).message}`);
    err.cause = e;
    throw err;
  };
  try {
    const migrated = await client
      .query<{ m: boolean }>("SELECT to_regclass('mnemo_migrations') IS NOT NULL AS m")
      .catch(failed);
    if (migrated.rows[0]?.m !== true) {
      throw new Error(`the database at ${shownUrl(url)} holds no Mnemo schema: nothing to compact`);
    }
    // A newer schema may keep a forgotten Record's bytes in tables this Mnemo does not know to rewrite:
    // saying "compacted" then would be false.
    const versions = await client
      .query<{ version: number }>('SELECT version FROM mnemo_migrations')
      .catch(failed);
    const newer = newerSchema(versions.rows.map((r) => r.version));
    if (newer !== null)
      throw new Error(
        `the database at ${shownUrl(url)}: ${newer}: compact it with the Mnemo that migrated it`,
      );
    return await compactForgotten(client).catch(failed);
  } finally {
    await client.close();
  }
}
