import { quietRepeats } from '../core/shared/quiet-repeats.ts';
import { allKinds } from '../contract/index.ts';
import { assembleContext } from '../context/assemble-context.ts';
import { createThoroughSync } from '../core/context/thorough-sync.ts';
import { createTraceBuffer } from '../context/trace-buffer.ts';
import type { TraceStore } from '../ports/trace-store.ts';
import type { QueryRewriter } from '../ports/query-rewriter.ts';
import { earlyClaimsFor } from '../derive/early-claims.ts';
import { createDerivation } from '../derive/derivation.ts';
import type { Deriver } from '../core/derive/deriver.ts';
import { createRuleDeriver } from '../core/derive/rule-deriver.ts';
import { pendingWrites, writeOps } from '../core/shared/pending-writes.ts';
import { createDerivationUpgrade } from '../derive/upgrade-derivation.ts';
import { newId } from '../ids.ts';
import type { Lane } from '../retrieve/lane.ts';
import { defaultLanes } from '../retrieve/default-lanes.ts';
import { embedderLoader, type EmbedderOption } from '../embed/index.ts';
import { createRetrievalIndexer } from '../retrieve/retrieval-indexer.ts';
import { shippedReranker, type Reranker } from '../retrieve/reranker.ts';
import type { RetrievalIndexSet } from '../retrieve/retrieve.ts';
import { systemTimeZone, timeZone, type TimeZone } from '../core/retrieve/time-zone.ts';
import {
  asStoreError,
  damagedStoreReport,
  storeDamaged,
  storeFailure,
} from '../adapters/sqlite/store-failure.ts';
import { openLocalStorage, type SqliteLocalStorage } from '../adapters/sqlite/local-storage.ts';
import type { Deployment, Engine } from '../types.ts';
import { WatermarkCodec } from '../watermark.ts';
import { type LocalCtx, type Logger } from './local-ctx.ts';
import { createEngineSync } from './sync/local-engine-sync.ts';
import { engineOperations } from './engine-operations.ts';
import { brainUids } from './brain-uids.ts';

export type { Logger } from './local-ctx.ts';

export interface LocalEngineOptions {
  /** Directory of the store (mnemo.db and its WAL). The key never lives here. */
  dataDir: string;
  /** Database key (see locateDbKey). null = unencrypted, for diagnostics and secure-delete tests only. */
  dbKey: string | Buffer | null;
  deployment?: Deployment;
  /** Traces kept in memory (oldest evicted). Default 500. */
  traceBufferSize?: number;
  /** Where Traces are kept instead; absent: in memory, `traceBufferSize` of them. */
  traceStore?: TraceStore;
  /** Synchronous budget of thorough Context (thorough reuses fast for now). */
  thoroughSyncMs?: number;
  /** 'full' (default): every acknowledged write survives power loss; 'normal': process crashes only. */
  durability?: 'full' | 'normal';
  /** Delay before re-deriving Memories that lost some support. Default 0. */
  rederiveDelayMs?: number;
  clock?: () => Date;
  logger?: Logger;
  /**
   * The embedder of the semantic lane: a command-line choice (loaded in a worker thread in the
   * background), a ready Embedder, or null/absent for none (the lexical, entity and time lanes still run).
   */
  embedder?: EmbedderOption;
  /** Extra retrieval lanes, fused with the built-in ones. */
  lanes?: Lane[];
  /**
   * IANA time zone of the person whose memory this is: "yesterday" and "on 3 October" in a query are
   * days of this calendar. Default: this machine's zone (TZ, else the system's). An unknown name throws.
   */
  timeZone?: string;
  /**
   * Reorders each Context's best candidates after fusion. Default: the shipped learned reranker
   * (engine/retrieve/reranker-model.json); null: the fusion's order.
   */
  reranker?: Reranker | null;
  /**
   * The generative model of thorough Contexts' query rewrite (ports/query-rewriter.ts); absent: none,
   * and thorough Traces list the rewrite as not run.
   */
  queryRewriter?: QueryRewriter | null;
  deriver?: Deriver;
  /**
   * Derive on the main thread only: no derive thread for a stream of writes (early-claims.ts). The
   * Memories are the same; a test compares them.
   */
  deriveInPlace?: boolean;
  /** Pauses before each further attempt of a derivation job that failed (default 1 s, then 10 s). */
  deriveRetryDelaysMs?: readonly number[];
}

const silent: Logger = { info() {}, warn() {}, error() {} };

/**
 * The local engine: an encrypted SQLite store in dataDir that derives Memories in the background.
 * Opening fails with a clear error on a wrong key. Every operation of the Engine interface.
 */
export async function createLocalEngine(options: LocalEngineOptions): Promise<Engine> {
  const clock = options.clock ?? (() => new Date());
  const logger = options.logger ?? silent;
  // Checked before the store opens: a typo in a zone name must not leave a half-started engine.
  const zone = timeZone(options.timeZone ?? systemTimeZone());
  // So is the reranker's model file: a broken install fails here, holding nothing.
  const reranker = options.reranker === undefined ? shippedReranker() : options.reranker;
  // A second engine on this data dir is refused, not left to race this one.
  const storage = openLocalStorage({
    dataDir: options.dataDir,
    key: options.dbKey,
    durability: options.durability,
    now: () => clock().toISOString(),
    warn: (message, fields) => logger.warn(message, fields),
    info: (message) => logger.info(message),
  });
  try {
    return engineOver(storage, options, { clock, logger, zone, reranker });
  } catch (e) {
    // Whatever fails once the store is open (a lane, the indexer) must not keep it and the data dir's
    // lock in this process: the desktop app, or a test, would find the dir "in use" on the next try.
    storage.abandon();
    throw e;
  }
}

/** The engine over an open storage, which its close() closes. */
function engineOver(
  storage: SqliteLocalStorage,
  options: LocalEngineOptions,
  {
    clock,
    logger,
    zone,
    reranker,
  }: { clock: () => Date; logger: Logger; zone: TimeZone; reranker: Reranker | null },
): Engine {
  const deriver = options.deriver ?? createRuleDeriver();
  const nowIso = () => clock().toISOString();
  // This engine's retrieval indexes: their in-memory copies are its own, never another engine's.
  const { jobs, units, vectors, turns } = storage;
  // The rules run on a thread of their own while Records stream in, and through an upgrade's pass.
  const early = earlyClaimsFor({
    given: options.deriver,
    deriver,
    read: units.read,
    log: logger,
    off: options.deriveInPlace,
  });
  // A fix to the rules reaches what was written before it, in the background; so does a Brain's new self.
  const upkeep = createDerivationUpgrade({
    list: storage.upgradeList,
    early,
    units,
    storeFailure,
    deriver,
    now: nowIso,
    log: logger,
    onRestated: (u, n) => vectors.sync.drop('memory', n, u.brainUid),
  });
  const worker = createDerivation({
    write: units.write,
    queue: jobs,
    deriver,
    ...(early ? { early } : {}),
    clock,
    log: logger,
    storeFailure,
    // The vector's rows go in the unit's transaction: the store's calls inside a unit are its own.
    onRestated: (u, n) => vectors.sync.drop('memory', n, u.brainUid),
    jobRetryDelaysMs: options.deriveRetryDelaysMs,
    worker: {
      upkeep,
      // Derivation inserts Memories (queued for indexing by trigger): their vectors follow at once.
      onCommitted: () => indexer.kick(),
    },
  });
  const deployment = options.deployment ?? 'local';
  const thorough =
    options.thoroughSyncMs !== undefined && options.thoroughSyncMs > 0
      ? createThoroughSync({ syncMs: options.thoroughSyncMs, newId: () => newId('ctx') })
      : null;
  // The lanes' indexes, made once: the lexical one answers from the indexer's in-memory copy.
  const indexes: RetrievalIndexSet = {
    lexical: storage.lexical,
    slots: storage.slots,
    threads: storage.threads,
    vectors,
  };
  const indexer = createRetrievalIndexer({
    queue: storage.indexQueue,
    embedder: embedderLoader(options.embedder),
    logger,
  });
  const { device } = storage;
  const ctx: LocalCtx = {
    device,
    brains: storage.brains,
    brainUids: brainUids(storage.brains),
    units,
    codec: new WatermarkCodec(storage.watermarkSecret),
    deployment,
    deriver,
    worker,
    lanes: defaultLanes(clock, zone, options.lanes),
    reranker,
    traces: options.traceStore ?? createTraceBuffer(options.traceBufferSize ?? 500),
    thorough,
    clock,
    zone,
    logger,
    rederiveDelayMs: options.rederiveDelayMs ?? 0,
    emptyLog: () => storage.emptyLog(),
    originalsOfPushedCopies: (brainUid, ids, travelledOnly) =>
      device.originalsOfPushedCopies(brainUid, ids, travelledOnly),
    fromRemote: (brainUid, ids) => device.fromRemote(brainUid, ids),
    upkeep,
  };
  // Commits are synced off the event loop; no answer leaves before what it wrote or read is on disk.
  const durable = storage.startBackground();
  // Work queued before a crash or shutdown resumes now.
  worker.kick();
  let closed = false;
  const op =
    <A extends unknown[], R>(fn: (...args: A) => R) =>
    async (...args: A): Promise<Awaited<R>> => {
      if (closed) throw new Error('the local engine is closed');
      try {
        // Its synchronous part neither joins nor reads into a unit of work open now (storage.between).
        const out = await storage.between(() => fn(...args));
        await durable.settled();
        return out;
      } catch (e) {
        const told = asStoreError(e);
        if (storeDamaged(e)) noteDamage(e, told);
        else if (told !== e) logStoreFailure(e);
        throw told;
      }
    };
  // A damaged store does not mend: it is said once, with the file and the way back, however many
  // requests meet it, and health answers store_unavailable from then on.
  let damaged: unknown = null;
  const noteDamage = (e: unknown, told: unknown) => {
    if (damaged !== null) return;
    damaged = told;
    logger.error(damagedStoreReport(options.dataDir, e), { code: (e as { code?: unknown }).code });
  };
  // What the disk said goes to the log, which the caller's store_unavailable points to: once a
  // minute, as a full disk fails every write of an import.
  const quietError = quietRepeats((msg, fields) => logger.error(msg, fields));
  const logStoreFailure = (e: unknown) =>
    quietError('the store cannot be written or read now; requests get store_unavailable', {
      code: (e as { code?: unknown }).code,
      error: (e as Error).message,
    });
  // Writes queue index work by trigger (new Records, neighbours of forgotten ones): start it now, not
  // on a timer that would also wake an idle device four times a second.
  const writing = pendingWrites();
  const write = writeOps(op, writing, () => {
    if (!closed) indexer.kick();
  });

  const engine: Engine = {
    info: {
      name: 'local',
      kinds: allKinds,
      unknownKindCode: 'unknown_kind',
      deployment,
      timeZone: zone.name,
      get vectorCopyBytes() {
        return vectors.usage().bytes;
      },
      get lexicalCopyBytes() {
        return turns.usage().bytes;
      },
      get lexicalCopyAnswers() {
        return turns.usage().answers;
      },
      get embedder() {
        const e = indexer.embedder();
        return e ? `${e.provider}:${e.model}` : 'none';
      },
    },
    ...engineOperations(ctx, { op, write }, (b, body, o, id) =>
      assembleContext(
        {
          indexes,
          units: ctx.units,
          jobs,
          codec: ctx.codec,
          deployment,
          lanes: ctx.lanes,
          reranker: ctx.reranker,
          rewriter: options.queryRewriter ?? null,
          indexer,
          traces: ctx.traces,
          now: clock,
        },
        b,
        body,
        o,
        id,
      ),
    ),
    sync: createEngineSync(ctx, { op, write }),
    idle: async () => {
      if (closed) return;
      await worker.idle();
      await indexer.idle();
    },
    // The store is a file this process holds open (and locked) from start to close; it cannot serve
    // once a read found it damaged, nor after a failed sync of its log, for which every request is
    // refused until a restart.
    ping: async () => {
      if (closed) throw new Error('the local engine is closed');
      if (damaged !== null) throw damaged;
      try {
        await durable.settled();
      } catch (e) {
        throw asStoreError(e);
      }
    },
    close: async () => {
      if (closed) return;
      closed = true;
      // Writes already accepted are committed (and their callers answered) before the store closes,
      // also those still on their way to a batch (reading, counting tokens).
      await writing.settled();
      await storage.flushBatches();
      await worker.stop();
      await early?.close();
      await indexer.close();
      // The in-memory copies of the vectors are zeroed, not left to the garbage collector.
      vectors.release();
      await storage.close();
    },
  };
  return engine;
}

export { locateDbKey } from '../adapters/sqlite/resolve-db-key.ts';
