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
      const c = wrap(await db.clone());
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

const wrap = (d: PGliteInterface) => pgliteClient(d as unknown as PGliteLike);

const openFrom = (dataDir: Uint8Array, opts: PgliteOptions) =>
  PGlite.create({
    loadDataDir: new BytesBlob(dataDir),
    ...(opts.vector ? { extensions: { vector } } : {}),
  });

/**
 * A data directory as the Blob PGlite loads, which reads only its `arrayBuffer()` and `type` (its
 * `size` is 0 here): Node 20's own Blob hands its bytes over in chunks it then concatenates, ~0.6 CPU s
 * for the 40 MB directory at every open. Each open gets a copy of exactly these bytes (a few ms).
 */
class BytesBlob extends Blob {
  readonly #data: Uint8Array;
  constructor(data: Uint8Array) {
    super([]);
    this.#data = data;
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(new Uint8Array(this.#data).buffer);
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
