import { after } from 'node:test';
import type { BrainRow, RecordRow } from '../../../ports/index.ts';
import type { PgClient, PgQueryable } from '../client.ts';
import { migrate } from '../migrate.ts';
import { migrations } from '../migrations/index.ts';
import { startCluster, type TestCluster } from './cluster.ts';
import { pglite } from './pglite.ts';

export const brainRow = (uid: string, id: string, over: Partial<BrainRow> = {}): Omit<BrainRow, 'seq'> => ({
  uid,
  project: 'p',
  env: 'test',
  id,
  name: null,
  self_type: null,
  self_name: null,
  created_at: '2026-01-01T00:00:00Z',
  ...over,
});

/** A message Record's row as rememberRecord would insert it, at `seq`. */
export const recordRow = (brainUid: string, id: string, seq = 1): Omit<RecordRow, 'n'> => ({
  id,
  brain_uid: brainUid,
  seq,
  kind: 'message',
  content: '{"kind":"message","text":"hi"}',
  text: `text of ${id}`,
  source_name: null,
  external_id: null,
  trust: 'medium',
  visibility: 'shareable',
  occurred_at: '2026-01-01T00:00:00.000Z',
  occurred_ms: Date.parse('2026-01-01T00:00:00.000Z'),
  created_at: '2026-01-01T00:00:00.000Z',
});

/** A Brain row as the repository would write it (tests that need one without the repository). */
export async function addBrain(db: PgQueryable, uid: string, id = uid): Promise<void> {
  await db.query(
    `WITH n AS (INSERT INTO brain_names (project, env, id, uid) VALUES ('p', 'test', $2, $1))
     INSERT INTO brains (uid, project, env, id, created_at) VALUES ($1, 'p', 'test', $2, '2026-01-01T00:00:00Z')`,
    [uid, id],
  );
}

export async function addRecord(
  db: PgQueryable,
  brainUid: string,
  id: string,
  seq = 1,
  text = 'hello there',
) {
  await db.query(
    `INSERT INTO records (brain_uid, id, seq, kind, content, text, trust, visibility, occurred_at, occurred_ms, created_at)
     VALUES ($1, $2, $3, 'message', '{}', $4, 'medium', 'shareable', '2026-01-01T00:00:00Z', 0, '2026-01-01T00:00:00Z')`,
    [brainUid, id, seq, text],
  );
}

/**
 * Migrates `db` through `version` and no further: the schema a later migration finds, or that migration
 * applied over data a test wrote before it. The versions it applied.
 */
export async function migrateThrough(db: PgClient, version: number): Promise<number[]> {
  return (
    await migrate(
      db,
      migrations.filter((m) => m.version <= version),
    )
  ).applied;
}

/** One migrated PGlite for the test file (tests keep apart by Brain). */
export function migratedPglite(): Promise<PgClient> {
  return pglite({ migrated: true });
}

/**
 * A real PostgreSQL server for the file's concurrency tests, or the reason to skip them. Pass the
 * result's `skip` to describe(); `cluster()` is valid inside it. Call it at the file's top level: the
 * server stops (or, shared, loses the file's databases) after the file, also when a name filter skips
 * every test that used it. `own`: see startCluster.
 */
export async function serverForTests(
  options: { own?: boolean } = {},
): Promise<{ skip: string | false; cluster: () => TestCluster }> {
  const started = await startCluster(options);
  let cluster: TestCluster | null = null;
  if ('cluster' in started) {
    const c = started.cluster;
    cluster = c;
    after(() => c.stop());
  }
  return {
    skip: 'skip' in started ? `no PostgreSQL server to test on: ${started.skip}` : false,
    cluster: () => cluster!,
  };
}

/** A fresh, migrated database on the server, and `count` pools on it (as many processes). */
export async function migratedDatabase(cluster: TestCluster, count: number, max = 4): Promise<PgClient[]> {
  const url = await cluster.freshDatabase();
  const clients = Array.from({ length: count }, () => cluster.connect(url, max));
  await migrate(clients[0]!);
  return clients;
}
