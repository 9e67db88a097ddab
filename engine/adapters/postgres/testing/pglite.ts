import { PGlite, type PGliteInterface } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after } from 'node:test';
import { pgliteClient, type PgClient, type PGliteLike } from '../client.ts';
import { migrate } from '../migrate.ts';
import { migrations, vectorSchema } from '../migrations/index.ts';

export interface PgliteOptions {
  /** Loads pgvector into it. */
  vector?: boolean;
  /** Starts at the current schema, as `migrate` leaves it. */
  migrated?: boolean;
}

/**
 * An embedded PostgreSQL in memory (PGlite), closed after the test file (call it at the file's top
 * level: `after` in a hook would close it when the hook ends): what tests run on when no
 * server is at hand. One connection only: concurrency is the real cluster's (cluster.ts). A file shares
 * one and keeps its tests apart by Brain, or clones it (`clone`, a copy of its current state) for a
 * database of its own.
 */
export async function pglite(opts: PgliteOptions = {}): Promise<PgClient & { clone(): Promise<PgClient> }> {
  const db = await openFrom(await initialDataDir(opts), opts);
  const opened: PgClient[] = [];
  after(async () => {
    await Promise.allSettled(opened.map((c) => c.close()));
    await db.close();
  });
  return {
    ...wrap(db),
    async clone() {
      // PGlite's own clone() would start the copy with the default shared buffers.
      const state = new Uint8Array(await (await db.dumpDataDir('none')).arrayBuffer());
      const c = wrap(await openFrom(state, opts));
      opened.push(c);
      return c;
    },
  };
}

/**
 * New databases in the state `opts` names, each its own PGlite, all closed after the test file: a
 * database per server, without copying one out of a running instance each time.
 */
export async function pgliteDatabases(opts: PgliteOptions = {}): Promise<() => Promise<PgClient>> {
  const dataDir = await initialDataDir(opts);
  const opened: PgClient[] = [];
  after(async () => {
    await Promise.allSettled(opened.map((c) => c.close()));
  });
  return async () => {
    const c = wrap(await openFrom(dataDir, opts));
    opened.push(c);
    return c;
  };
}

/**
 * Databases as pgliteDatabases makes them, for a file that uses one after another (a server per suite,
 * each closed before the next starts): a closed one is put back to the state it started in and handed
 * out again, instead of a new PGlite started (~1.5 CPU s each). Back means, for a migrated one: every
 * table emptied and refilled with the rows it started with, identities restarted, indexes made since
 * dropped, and the session's settings discarded; the schema is the migrations' and no test adds to
 * it. For a blank one, which its tests migrate: every schema dropped and `public` made anew, checked
 * against the catalog of the database as it was first opened.
 */
export async function reusedPgliteDatabases(opts: PgliteOptions = {}): Promise<() => Promise<PgClient>> {
  const fresh = await pgliteDatabases(opts);
  const free: ResettableDatabase[] = [];
  return async () => {
    const reused = free.pop();
    if (reused) await reused.reset();
    const db = reused ?? (opts.migrated ? await resettable(await fresh()) : await blankAgain(await fresh()));
    let closed = false;
    return {
      ...db.client,
      close: async () => {
        if (closed) return;
        closed = true;
        free.push(db);
      },
    };
  };
}

interface ResettableDatabase {
  client: PgClient;
  reset(): Promise<void>;
}

/** The rows of a database's tables as it is now, kept in a schema of their own to go back to. */
async function resettable(client: PgClient): Promise<ResettableDatabase> {
  const names = async (sql: string) => (await client.query<{ name: string }>(sql)).rows.map((r) => r.name);
  const tables = await names(
    "SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1",
  );
  const indexes = await names("SELECT indexname AS name FROM pg_indexes WHERE schemaname = 'public'");
  // The sequences used so far (a migration's rows): TRUNCATE restarts them, setval takes them back.
  const sequences = (
    await client.query<{ name: string; value: string }>(
      "SELECT quote_ident(sequencename) AS name, last_value::text AS value FROM pg_sequences WHERE schemaname = 'public' AND last_value IS NOT NULL",
    )
  ).rows;
  const kept: string[] = [];
  await client.exec(`CREATE SCHEMA ${snapshotSchema}`);
  for (const t of tables) {
    const any = await client.query(`SELECT 1 FROM public.${t} LIMIT 1`);
    if (any.rows.length === 0) continue;
    await client.exec(`CREATE TABLE ${snapshotSchema}.${t} AS TABLE public.${t}`);
    kept.push(t);
  }
  return {
    client,
    async reset() {
      const made = await client.query<{ name: string }>(
        "SELECT quote_ident(indexname) AS name FROM pg_indexes WHERE schemaname = 'public' AND NOT indexname = ANY($1)",
        [indexes],
      );
      // Its own statement: a script runs in one transaction, which DISCARD ALL refuses.
      await client.query('DISCARD ALL');
      // Triggers off while the rows go back: they are the rows the database started with, as they were.
      await client.exec(
        [
          ...made.rows.map((i) => `DROP INDEX public.${i.name}`),
          `TRUNCATE ${tables.map((t) => `public.${t}`).join(', ')} RESTART IDENTITY CASCADE`,
          'SET session_replication_role = replica',
          ...kept.map(
            (t) => `INSERT INTO public.${t} OVERRIDING SYSTEM VALUE SELECT * FROM ${snapshotSchema}.${t}`,
          ),
          'RESET session_replication_role',
          ...sequences.map((q) => `SELECT setval('public.${q.name}', ${q.value})`),
        ].join(';\n'),
      );
    },
  };
}

const snapshotSchema = 'pglite_test_snapshot';

/**
 * What a blank database's catalog holds, to tell one put back to blank from a new one: its schemas
 * (owners, privileges, comments), how many of each kind of object there are, its extensions, roles,
 * per-database settings and large objects, and the session's own settings.
 */
const catalogState = `SELECT json_build_object(
  'schemas', (SELECT json_agg(json_build_array(nspname, nspowner::regrole::text, nspacl::text,
      obj_description(oid, 'pg_namespace')) ORDER BY nspname) FROM pg_namespace),
  'objects', json_build_array(${[
    'pg_class',
    'pg_proc',
    'pg_type',
    'pg_operator',
    'pg_opclass',
    'pg_opfamily',
    'pg_am',
    'pg_cast',
    'pg_collation',
    'pg_conversion',
    'pg_constraint',
    'pg_trigger',
    'pg_event_trigger',
    'pg_policy',
    'pg_rewrite',
    'pg_ts_config',
    'pg_ts_dict',
    'pg_foreign_server',
    'pg_publication',
    'pg_statistic_ext',
    'pg_default_acl',
    'pg_largeobject_metadata',
    'pg_db_role_setting',
  ]
    .map((c) => `(SELECT count(*) FROM ${c})`)
    .join(', ')}),
  'extensions', (SELECT json_agg(extname ORDER BY extname) FROM pg_extension),
  'roles', (SELECT json_agg(rolname ORDER BY rolname) FROM pg_roles),
  'settings', (SELECT json_agg(name || '=' || setting ORDER BY name) FROM pg_settings WHERE source = 'session')
)::text AS state`;

/**
 * A never-migrated database handed out again once its test has migrated it (or made tables, schemas
 * or settings in it): ~0.1 CPU s against ~0.9 for a new PGlite. Its catalog must then be what it was
 * when first opened, or the reset throws rather than hand out a database that is not blank.
 */
async function blankAgain(client: PgClient): Promise<ResettableDatabase> {
  const state = async () => (await client.query<{ state: string }>(catalogState)).rows[0]!.state;
  const blank = await state();
  return {
    client,
    async reset() {
      // Out of a transaction a test left open (a warning when there is none), then the session's state.
      await client.query('ROLLBACK');
      await client.query('DISCARD ALL');
      const schemas = await client.query<{ name: string }>(
        "SELECT quote_ident(nspname) AS name FROM pg_namespace WHERE nspname NOT IN ('pg_catalog', 'information_schema') AND nspname NOT LIKE 'pg\\_%'",
      );
      await client.exec(
        [
          ...schemas.rows.map((n) => `DROP SCHEMA ${n.name} CASCADE`),
          // As initdb makes it (PostgreSQL 15 on): owned by the database's owner, usable by all.
          'CREATE SCHEMA public AUTHORIZATION pg_database_owner',
          'GRANT USAGE ON SCHEMA public TO PUBLIC',
          "COMMENT ON SCHEMA public IS 'standard public schema'",
        ].join(';\n'),
      );
      const now = await state();
      if (now !== blank)
        throw new Error(`a reused PGlite database is not blank again:\n${now}\nagainst\n${blank}`);
    },
  };
}

const wrap = (d: PGliteInterface) => pgliteClient(d as unknown as PGliteLike);

// PostgreSQL's default 128 MB of shared buffers is set up at every start, ~0.45 CPU s of an open's
// ~1.2; a test's databases hold a few hundred pages.
const startParams = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

const openFrom = (dataDir: Uint8Array, opts: PgliteOptions) =>
  PGlite.create({
    loadDataDir: new BytesBlob(dataDir),
    startParams,
    ...(opts.vector ? { extensions: { vector } } : {}),
  });

/**
 * A data directory as the Blob PGlite loads, which reads only its `arrayBuffer()` and `type` (its
 * `size` is 0 here): Node 20's own Blob hands its bytes over in chunks it then concatenates, ~0.6 CPU s
 * for the 40 MB directory at every open. PGlite only reads them (its file system copies each file's
 * bytes out of the archive), so every open is handed the same bytes; a copy per open cost ~0.17 CPU s,
 * most of it faulting in 40 MB of new pages.
 */
class BytesBlob extends Blob {
  readonly #data: ArrayBuffer;
  constructor(data: Uint8Array) {
    super([]);
    const whole = data.byteOffset === 0 && data.byteLength === data.buffer.byteLength;
    this.#data = whole && data.buffer instanceof ArrayBuffer ? data.buffer : new Uint8Array(data).buffer;
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(this.#data);
  }
}

/**
 * The data directory a new instance starts from, kept between test processes: PGlite's initdb costs
 * ~5 CPU seconds and loading a saved directory ~1.7 (and the migrations most files apply ~0.7 more),
 * with two dozen instances in a run. There is one initdb: a blank directory serves with or without
 * pgvector (an extension's files come with the instance, not its data directory), and a migrated one
 * is the blank one migrated. Named by what makes it: PGlite's and pgvector's versions and the SQL of
 * the migrations, so a changed migration makes a new one. Written whole (a rename), so test files
 * starting together at worst each make their own; `npm test` makes them before the first file starts.
 */
async function initialDataDir(opts: PgliteOptions): Promise<Uint8Array> {
  const file = join(cacheDir(), `pglite-${cacheKey(opts)}.tar`);
  try {
    return readFileSync(file);
  } catch {
    // Not made yet (or unreadable): make it.
  }
  const db = opts.migrated ? await openFrom(await initialDataDir({}), opts) : await PGlite.create();
  try {
    if (opts.migrated) await migrate(wrap(db));
    const dump = new Uint8Array(await (await db.dumpDataDir('none')).arrayBuffer());
    try {
      mkdirSync(dirname(file), { recursive: true });
      const tmp = `${file}.tmp-${process.pid}`;
      writeFileSync(tmp, dump);
      renameSync(tmp, file);
    } catch {
      // A cache that cannot be written only costs the next file the same start.
    }
    return dump;
  } finally {
    await db.close();
  }
}

/** Makes every kept data directory a test may start from (scripts/test.mjs, before the files run). */
export async function prepareDataDirs(): Promise<void> {
  await initialDataDir({});
  await initialDataDir({ migrated: true });
  await initialDataDir({ vector: true, migrated: true });
}

function cacheKey(opts: PgliteOptions): string {
  // Neither package exports its package.json.
  const versionOf = (pkg: string) =>
    (
      JSON.parse(readFileSync(join(checkout(), 'node_modules', pkg, 'package.json'), 'utf8')) as {
        version: string;
      }
    ).version;
  const hash = createHash('sha256');
  hash.update(`pglite ${versionOf('@electric-sql/pglite')}\n`);
  if (!opts.migrated) return `blank-${hash.digest('hex').slice(0, 16)}`;
  if (opts.vector) hash.update(`pgvector ${versionOf('@electric-sql/pglite-pgvector')}\n`);
  for (const m of migrations) hash.update(`${m.version} ${m.name}\n${m.sql}\n`);
  hash.update(vectorSchema);
  return `${opts.vector ? 'vector' : 'plain'}-migrated-${hash.digest('hex').slice(0, 16)}`;
}

const checkout = () => join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');

/** Inside the checkout, where `npm ci` starts it afresh. */
const cacheDir = () => join(checkout(), 'node_modules', '.cache', 'mnemo', 'pglite');
