import { allKinds } from '../contract/index.ts';
import { assembleContext } from '../context/assemble-context.ts';
import type { Deriver } from '../core/derive/deriver.ts';
import { pendingWrites, writeOps } from '../core/shared/pending-writes.ts';
import { createRuleDeriver } from '../core/derive/rule-deriver.ts';
import { systemTimeZone, timeZone } from '../core/retrieve/time-zone.ts';
import { earlyClaimsFor } from '../derive/early-claims.ts';
import { createDerivation } from '../derive/derivation.ts';
import { createDerivationUpgrade } from '../derive/upgrade-derivation.ts';
import { MnemoError } from '../errors/mnemo-error.ts';
import { newId } from '../ids.ts';
import { embedderLoader, type EmbedderOption } from '../embed/index.ts';
import type { PostgresStorage } from '../adapters/postgres/storage.ts';
import { asStoreError, storeFailure } from '../adapters/postgres/store-failure.ts';
import { engineOperations } from '../local/engine-operations.ts';
import type { EngineCtx, Logger } from '../local/local-ctx.ts';
import { applyTombstones, replicateRecords } from '../local/sync/replicate.ts';
import { requireBrain } from '../local/local-ctx.ts';
import type { Lane } from '../retrieve/lane.ts';
import { defaultLanes } from '../retrieve/default-lanes.ts';
import { shippedReranker, type Reranker } from '../retrieve/reranker.ts';
import type { QueryRewriter } from '../ports/query-rewriter.ts';
import type { Deployment, Engine, EngineSync } from '../types.ts';
import { WatermarkCodec } from '../watermark.ts';
import { brainUids } from '../local/brain-uids.ts';

export interface PostgresEngineOptions {
  /** The database, opened by the caller (openPostgresStorage, or PGlite in tests); close() closes it. */
  storage: PostgresStorage;
  /** Default `hosted`: a server's, where `local_only` Records are refused. */
  deployment?: Deployment;
  /**
   * The semantic lane's embedder (loaded in the background), as for the local engine; it runs only
   * where the database has the `vector` extension.
   */
  embedder?: EmbedderOption;
  /**
   * Synchronous budget of a thorough Context: past it the request is answered 202 and kept in the
   * database, so its retry is answered by any process (thorough-contexts.ts).
   */
  thoroughSyncMs?: number;
  /**
   * How long a thorough assembly stays its process's without a renewal: one that dies leaves the
   * request to the next retry after this. Default 30 s.
   */
  thoroughLeaseMs?: number;
  rederiveDelayMs?: number;
  clock?: () => Date;
  logger?: Logger;
  lanes?: Lane[];
  timeZone?: string;
  reranker?: Reranker | null;
  /** The generative model of thorough Contexts' query rewrite; absent: none (the Trace says so). */
  queryRewriter?: QueryRewriter | null;
  deriver?: Deriver;
  /** Derive on the main thread only (early-claims.ts), as the local engine's option. */
  deriveInPlace?: boolean;
  deriveRetryDelaysMs?: readonly number[];
  /**
   * How often this process looks for derivation jobs it was not told of: other processes' writes wake
   * their own workers, but a process that died leaves its claimed jobs to the others once their
   * leases end. Default 5 s.
   */
  pollMs?: number;
  /**
   * How long a claimed derivation job is this process's: one that dies holding it leaves it to the
   * others after this. Default 60 s (derive-worker.ts).
   */
  deriveLeaseMs?: number;
  /**
   * How often this process looks again at the Records listed to be derived again once its own pass
   * has ended: another process may have listed some (a namesake's arrival) and died before deriving
   * them. Default 60 s.
   */
  upkeepRecheckMs?: number;
}

const silent: Logger = { info() {}, warn() {}, error() {} };

/** Device sync is the desktop's: a server keeps no pairings, outbox or pulls of its own. */
const onDeviceOnly = (): never => {
  throw new MnemoError(
    'not_implemented',
    'sync: pairing and pushing run on the desktop engine, not on a server',
  );
};

/** Longest stretch of one derive batch (derive-worker.ts's sliceMs). */
const postgresSliceMs = 100;

/**
 * The engine over PostgreSQL: the same operations, rules and derivation as the local engine, through
 * the storage's ports, so any number of processes can serve one database. Each process runs a derive
 * worker; the queue's leases keep a job to one of them.
 */
export async function createPostgresEngine(options: PostgresEngineOptions): Promise<Engine> {
  const { storage } = options;
  const clock = options.clock ?? (() => new Date());
  const logger = options.logger ?? silent;
  const zone = timeZone(options.timeZone ?? systemTimeZone());
  // The model trained on this store's own scores (ts_rank, pgvector); a broken install fails here.
  const reranker =
    options.reranker === undefined
      ? shippedReranker({ lexical: storage.lexical.backend, vector: storage.vectors.backend })
      : options.reranker;
  const deriver = options.deriver ?? createRuleDeriver();
  const deployment = options.deployment ?? 'hosted';
  // A new deriver reaches what was written before it, in the background, as on the local engine.
  // Every process works the one list; the Brain's row lock keeps a Record to one of them
  // (derivation-upgrade.ts). Listed before this process takes a write, as SQLite lists at open: a
  // Record it writes and derives itself is not listed with those an earlier deriver left.
  await storage.upgradeList.listFor(deriver.name);
  const early = earlyClaimsFor({
    given: options.deriver,
    deriver,
    read: storage.read,
    log: logger,
    off: options.deriveInPlace,
  });
  const upkeep = createDerivationUpgrade({
    list: storage.upgradeList,
    early,
    units: storage,
    storeFailure,
    deriver,
    now: () => clock().toISOString(),
    log: logger,
  });
  const worker = createDerivation({
    write: storage.write,
    queue: storage.jobs,
    deriver,
    ...(early ? { early } : {}),
    clock,
    log: logger,
    storeFailure,
    jobRetryDelaysMs: options.deriveRetryDelaysMs,
    worker: {
      // A unit here waits on the database, which leaves the event loop free: the slice bounds how long
      // a batch holds its Brain's row (writers of the Brain wait, and then commit together), and each
      // batch costs a claim, a commit and a release, so it is longer than SQLite's 20 ms.
      sliceMs: postgresSliceMs,
      ...(options.deriveLeaseMs ? { leaseMs: options.deriveLeaseMs } : {}),
      upkeep,
    },
  });
  const thorough =
    options.thoroughSyncMs !== undefined && options.thoroughSyncMs > 0
      ? storage.thoroughSync({
          syncMs: options.thoroughSyncMs,
          newId: () => newId('ctx'),
          ...(options.thoroughLeaseMs ? { leaseMs: options.thoroughLeaseMs } : {}),
        })
      : null;
  const ctx: EngineCtx = {
    brains: storage.brains,
    brainUids: brainUids(storage.brains),
    units: storage,
    codec: new WatermarkCodec(Buffer.from(await storage.watermarkSecret())),
    deployment,
    deriver,
    worker,
    lanes: defaultLanes(clock, zone, options.lanes),
    reranker,
    traces: storage.traces,
    thorough,
    clock,
    zone,
    logger,
    rederiveDelayMs: options.rederiveDelayMs ?? 0,
    // Rows are deleted in the forget's transaction; what PostgreSQL keeps until VACUUM is
    // `mnemo compact`'s (docs/hosted-postgres.md).
    emptyLog: async () => {},
    originalsOfPushedCopies: async () => [],
    fromRemote: async () => [],
    upkeep,
  };
  const embedding = storage.startEmbedding({ embedder: embedderLoader(options.embedder), logger });
  // Jobs queued before this process started, or left by one that died, are derived here too.
  worker.kick();
  const poll = setInterval(() => worker.kick(), options.pollMs ?? 5000);
  poll.unref();
  const recheck = setInterval(() => {
    if (upkeep.again()) worker.kick({ upkeep: true });
  }, options.upkeepRecheckMs ?? 60_000);
  recheck.unref();
  let closed = false;
  const op =
    <A extends unknown[], R>(fn: (...args: A) => R) =>
    async (...args: A): Promise<Awaited<R>> => {
      if (closed) throw new Error('the PostgreSQL engine is closed');
      try {
        return await fn(...args);
      } catch (e) {
        throw asStoreError(e);
      }
    };
  const writing = pendingWrites();
  // What a write queued for embedding (by trigger) is taken at once, not at the next poll.
  const write = writeOps(op, writing, () => {
    if (!closed) embedding.kick();
  });
  const sync: EngineSync = {
    replicate: write(async (t, id, records) => {
      const { created: _created, ...result } = await replicateRecords(
        ctx,
        await requireBrain(ctx, t, id),
        records,
      );
      return result;
    }),
    tombstones: write(async (t, id, ids) => applyTombstones(ctx, await requireBrain(ctx, t, id), ids)),
    status: onDeviceOnly,
    pair: onDeviceOnly,
    unpair: onDeviceOnly,
    takeSelf: onDeviceOnly,
    pairedBrains: async () => [],
    remoteOf: onDeviceOnly,
    outbox: onDeviceOnly,
    markPushed: onDeviceOnly,
    tombstonesToSend: onDeviceOnly,
    markTombstonesSent: onDeviceOnly,
    restart: onDeviceOnly,
    applyPulled: onDeviceOnly,
    acceptForgets: onDeviceOnly,
    beginReread: onDeviceOnly,
    keepPulledHours: onDeviceOnly,
    finishRun: onDeviceOnly,
  };
  return {
    info: {
      name: 'postgres',
      kinds: allKinds,
      unknownKindCode: 'unknown_kind',
      deployment,
      timeZone: zone.name,
      get embedder() {
        const e = embedding.embedder();
        return e ? `${e.provider}:${e.model}` : 'none';
      },
    },
    ...engineOperations(ctx, { op, write }, (b, body, o, id) =>
      assembleContext(
        {
          indexes: storage,
          units: storage,
          jobs: storage.jobs,
          codec: ctx.codec,
          deployment,
          lanes: ctx.lanes,
          reranker,
          rewriter: options.queryRewriter ?? null,
          indexer: embedding,
          traces: storage.traces,
          now: clock,
        },
        b,
        body,
        o,
        id,
      ),
    ),
    sync,
    idle: async () => {
      if (closed) return;
      await worker.idle();
      await embedding.idle();
    },
    ping: async () => {
      if (closed) throw new Error('the PostgreSQL engine is closed');
      await storage.ping();
    },
    close: async () => {
      if (closed) return;
      closed = true;
      clearInterval(poll);
      clearInterval(recheck);
      // Writes already accepted end (and their callers are answered) before the pool closes.
      await writing.settled();
      await worker.stop();
      await early?.close();
      await embedding.close();
      await storage.close();
    },
  };
}
