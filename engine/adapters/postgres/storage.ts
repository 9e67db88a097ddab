import { randomBytes } from 'node:crypto';
import type { ThoroughSync } from '../../core/context/thorough-sync.ts';
import { speakersByFirstName } from '../../core/derive/speakers-by-first-name.ts';
import type { KeyRegistryPort, Storage, TraceStore, UpgradeList } from '../../ports/index.ts';
import { pgBrains } from './brain-repository.ts';
import { pgUpgradeList } from './derivation-upgrade.ts';
import { connectPostgres, type PgClient } from './client.ts';
import { watchReachability, type ReachabilityHooks } from './reachability.ts';
import { pgJobQueue } from './job-queue.ts';
import { pgKeyRegistry } from './key-registry.ts';
import { pgKeyWatch } from './key-watch.ts';
import { pgSlotIndex } from './slot-index.ts';
import { pgLexicalIndex } from './lexical-index.ts';
import { migrate } from './migrate.ts';
import { shownUrl } from './database-url.ts';
import { pgThreadIndex } from './thread-index.ts';
import { pgTraceStore } from './trace-store.ts';
import { pgThoroughSync, type PgThoroughSyncOptions } from './thorough-contexts.ts';
import { pgUnitsOfWork } from './unit-of-work.ts';
import { plannerStats, type PlannerStatsOptions } from './planner-stats.ts';
import { pgVectorIndex, vectorSupport } from './vector-index.ts';
import { createPgEmbedWorker, type PgEmbedWorker, type PgEmbedWorkerOptions } from './embed-worker.ts';

/** A hosted Mnemo's storage: the engine's ports over one PostgreSQL database, shared by every process. */
export interface PostgresStorage extends Storage {
  /** Traces in the database, so any process lists what another assembled. */
  readonly traces: TraceStore;
  /** The key registry in the database: a revoke is seen by every process's next lookup. */
  readonly keys: KeyRegistryPort;
  /** Whether the semantic lane can run (the `vector` extension), and why not. */
  readonly semantic: { on: boolean; reason: string | null };
  /** Versions of the schema this open applied (none when another process had). */
  readonly migrated: readonly number[];
  /** The Records the derivation upgrade derives again, one list for every process (derivation-upgrade.ts). */
  readonly upgradeList: UpgradeList;
  /**
   * The thorough synchronous budget with the requests a 202 answered kept in the database, so any
   * process answers their retries (thorough-contexts.ts).
   */
  thoroughSync(o: PgThoroughSyncOptions): ThoroughSync;
  /** Starts this process's embedding worker over the database (embed-worker.ts). */
  startEmbedding(o: Pick<PgEmbedWorkerOptions, 'embedder' | 'logger'>): PgEmbedWorker;
  /** Resolves once the database answers a trivial query, else rejects (no answer within pingMs too). */
  ping(): Promise<void>;
}

/**
 * How long a ping waits for the database: a load balancer's health check must hear back before its own
 * timeout (often 5 s), where a query waits up to the pool's 15 s for a connection.
 */
const pingMs = 3_000;

export interface PostgresStorageOptions {
  /** Traces kept per Brain (oldest evicted). Default 500. */
  tracesPerBrain?: number;
  /** When this process analyses the Brain tables after writing many Records (planner-stats.ts). */
  plannerStats?: PlannerStatsOptions;
  /**
   * How long a derive job this process queued is left to it before another process may claim it
   * (job-queue.ts, JobAffinity). Default 2 s.
   */
  jobAffinityMs?: number;
}

const secretKey = 'watermark_secret';

/**
 * The secret every process signs watermarks with: made by whichever process opens the database first
 * (the insert that loses the race changes nothing) and read by all, so a watermark one process
 * issued is honoured by another.
 */
async function sharedWatermarkSecret(client: PgClient): Promise<Uint8Array> {
  await client.query('INSERT INTO mnemo_meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [
    secretKey,
    randomBytes(32).toString('hex'),
  ]);
  const row = (
    await client.query<{ value: string }>('SELECT value FROM mnemo_meta WHERE key = $1', [secretKey])
  ).rows[0];
  if (!row || !/^[0-9a-f]{64}$/.test(row.value))
    throw new Error(`the database's ${secretKey} is missing or malformed; it holds 32 bytes in hex`);
  return Buffer.from(row.value, 'hex');
}

/**
 * The ports over a database the caller connected (a pool, or PGlite in tests), its schema brought up
 * to date first under the migrations' lock. `close()` closes the client.
 */
export async function postgresStorageOver(
  client: PgClient,
  options: PostgresStorageOptions = {},
): Promise<PostgresStorage> {
  const { applied } = await migrate(client);
  const secret = await sharedWatermarkSecret(client);
  const stats = plannerStats(client, options.plannerStats);
  // Each open is a process of its own to the queue: it claims the jobs of its own writes first.
  const writer = randomBytes(8).toString('hex');
  // One list for derivation and the entity lane: each would read every message of a Brain once.
  const speakers = speakersByFirstName();
  const units = pgUnitsOfWork(client, { onCommitted: (records) => stats.wrote(records), writer, speakers });
  const jobs = pgJobQueue(client, { writer, othersAfterMs: options.jobAffinityMs ?? 2000 });
  const vectors = pgVectorIndex(client);
  const keyWatch = pgKeyWatch(client);
  const semantic = await vectorSupport(client);
  return {
    brains: pgBrains(client),
    lexical: pgLexicalIndex(client),
    slots: pgSlotIndex(client),
    vectors,
    threads: pgThreadIndex(client, speakers),
    jobs,
    traces: pgTraceStore(client, { perBrain: options.tracesPerBrain ?? 500 }),
    keys: pgKeyRegistry(client, { watch: keyWatch }),
    upgradeList: pgUpgradeList(client),
    semantic,
    thoroughSync: (o) => pgThoroughSync(client, o),
    startEmbedding: (o) => createPgEmbedWorker({ ...o, client, vectors, semantic }),
    migrated: applied,
    watermarkSecret: async () => secret,
    ping: () => client.ping(pingMs),
    write: (brainUid, work, opts) => units.write(brainUid, work, opts),
    read: (brainUid, work) => units.read(brainUid, work),
    close: async () => {
      await stats.stop();
      // What this process queued and will not derive now is the other processes' at once. A database
      // that cannot be reached keeps them this process's for othersAfterMs only: nothing is lost.
      await jobs.handOver().catch(() => {});
      await keyWatch.close();
      await client.close();
    },
  };
}

/**
 * Opens a hosted Mnemo's database at `url` (postgres://...). Fails with the URL (its password hidden)
 * and the cause when the server cannot be reached or the schema cannot be brought up to date.
 */
export async function openPostgresStorage(
  url: string,
  options: PostgresStorageOptions & {
    poolSize?: number;
    /** Statements prepared once a connection (default); off behind a pooler that keeps none. */
    preparedStatements?: boolean;
    reachability?: ReachabilityHooks;
  } = {},
): Promise<PostgresStorage> {
  const pool = connectPostgres(url, {
    max: options.poolSize ?? 10,
    prepare: options.preparedStatements ?? true,
  });
  const watched = options.reachability
    ? watchReachability(pool, options.reachability, { armed: false })
    : null;
  const client = watched ?? pool;
  try {
    const storage = await postgresStorageOver(client, options);
    watched?.arm();
    return storage;
  } catch (e) {
    await client.close();
    const err = new Error(`the database at ${shownUrl(url)} could not be used: ${(e as Error).message}`);
    err.cause = e;
    throw err;
  }
}
