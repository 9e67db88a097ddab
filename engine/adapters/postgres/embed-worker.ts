import type { Embedder } from '../../embed/embedder.ts';
import type { VectorIndex, VectorModelRef } from '../../ports/index.ts';
import type { PgClient } from './client.ts';
import { pgEmbeddingQueue, type PgEmbeddingQueue } from './embedding-queue.ts';
import { storeFailure } from './store-failure.ts';
import { pgVectorIndex } from './vector-index.ts';

export interface EmbedWorkerLogger {
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

export interface PgEmbedWorkerOptions {
  client: PgClient;
  /** Default: pgVectorIndex(client). */
  vectors?: VectorIndex;
  /** Default: pgEmbeddingQueue(client, vectors). */
  queue?: PgEmbeddingQueue;
  /** What vectorSupport(client) says: without the extension nothing is embedded. */
  semantic: { on: boolean; reason: string | null };
  /**
   * Loads in the background, given the AbortSignal that close() fires, so closing never waits for a
   * model still loading. Not called when the semantic lane is off: there is nothing to store.
   */
  embedder: ((signal: AbortSignal) => Promise<Embedder>) | null;
  logger: EmbedWorkerLogger;
  /** Queued Records and Memories a transaction takes and embeds at once. */
  batchSize?: number;
  /** How often an idle worker looks for what other processes queued. */
  idleDelayMs?: number;
  /** The first pause after a failed batch; it doubles with each failure in a row, to a minute. */
  retryDelayMs?: number;
}

/** The background embedder of one PostgreSQL process, the counterpart of retrieval-indexer.ts. */
export interface PgEmbedWorker {
  /** Something was written: make sure a pass is scheduled (coalesced; never inside the write; none without an embedder). */
  kick(): void;
  /**
   * Resolves once this process has nothing queued it can take: a pass found the queue empty, or
   * holding only rows another process is embedding. It waits for the embedder to load, and through the
   * retries of a batch whose embedding fails; close() resolves it too.
   */
  idle(): Promise<void>;
  /**
   * Does nothing: PostgreSQL's lexical index (turns) is kept by triggers in the transaction that
   * writes a Record, so a Context already reads its own writes. Here so an engine calls it on either
   * backend.
   */
  catchUp(brainUid: string): void;
  /** The model vectors are stored under, once the embedder has loaded and its model is registered. */
  vectorModel(): VectorModelRef | null;
  embedder(): Embedder | null;
  /** While the embedder is still loading: settles when it has loaded (or failed to). Else null. */
  loading(): Promise<void> | null;
  /** Why the semantic lane does not run in this process (no `vector` extension, or no embedder), or null. */
  vectorLanesOff(): string | null;
  /** Stops: aborts a load in progress without waiting for it, lets a pass in flight commit. */
  close(): Promise<void>;
}

const maxRetryMs = 60_000;

/** An embedding call's own failure, told apart from the database's. */
class EmbedFailed extends Error {
  constructor(readonly reason: unknown) {
    super(String(reason));
  }
}

/**
 * Drains `embed_queue` (migration 006), which triggers fill in every process's writes: loads the
 * embedder, queues once what its model has no vector of (queueMissing), then takes batches with
 * `FOR UPDATE SKIP LOCKED` until none is left, so workers of several processes share the queue and
 * each item is embedded once. Without the extension or without an embedder it discards the queue
 * instead, as the SQLite indexer dequeues what it cannot embed: the queue does not grow, and a
 * process with a model queues what is missing again (discard clears queueMissing's mark).
 *
 * Other processes' writes queue work here too, and they cannot kick this one. It looks again every
 * idleDelayMs (a few seconds) while it runs, on an unref'd timer, so an idle process stays alive only
 * for its own reasons. Not LISTEN/NOTIFY: that holds a connection of its own per process, which a
 * pooler in transaction mode (PgBouncer) does not keep, and PGlite has none; a poll of an empty
 * queue is one short transaction.
 */
export function createPgEmbedWorker(o: PgEmbedWorkerOptions): PgEmbedWorker {
  const { client, logger } = o;
  const vectors = o.vectors ?? pgVectorIndex(client);
  const queue = o.queue ?? pgEmbeddingQueue(client, vectors);
  const batchSize = o.batchSize ?? 64;
  const idleDelayMs = o.idleDelayMs ?? 5_000;
  const retryDelayMs = o.retryDelayMs ?? 1_000;

  let closed = false;
  let embedder: Embedder | null = null;
  let model: VectorModelRef | null = null;
  /** queueMissing ran for this model (once per process; the queue keeps its own mark across processes). */
  let queuedMissing = false;
  let loaded = !(o.semantic.on && o.embedder);
  let scheduled: NodeJS.Immediate | null = null;
  let running: Promise<void> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | null = null;
  let failures = 0;
  let pausedUntil = 0;
  let waiters: (() => void)[] = [];
  /** Why the semantic lane is off in this process: no extension, or an embedder that failed. */
  let offReason: string | null = o.semantic.on
    ? null
    : (o.semantic.reason ?? 'the vector extension is not installed');

  const aborter = new AbortController();
  const ready: Promise<void> =
    o.semantic.on && o.embedder
      ? // Called on a later turn: a loader that throws at once is a failed load, not a failed start.
        Promise.resolve(aborter.signal)
          .then(o.embedder)
          .then(
            (e) => {
              if (closed) {
                // Loaded after close() stopped waiting for it: nobody else will free it.
                e.close().catch(() => {});
                return;
              }
              embedder = e;
            },
            (e: unknown) => {
              if (closed) return;
              logger.error('embedder failed to load; semantic retrieval is off', { error: String(e) });
              offReason = `the embedder failed to load: ${String(e)}`;
            },
          )
      : Promise.resolve();
  void ready.finally(() => {
    loaded = true;
    schedule();
  });

  /** Turns the lane off for an embedder this database cannot store (a model that changed width). */
  const unusable = (e: unknown) => {
    logger.error('embedder cannot be used with this database; semantic retrieval is off', {
      error: String(e),
    });
    const gone = embedder;
    embedder = null;
    model = null;
    offReason = `the embedder cannot be used with this database: ${String(e)}`;
    gone?.close().catch(() => {});
  };

  /** One pass: true when it left nothing this process can take, false while the embedder loads. */
  async function pass(): Promise<boolean> {
    if (!loaded) return false;
    const e = embedder;
    if (!e) {
      await queue.discard();
      return true;
    }
    const m = { provider: e.provider, model: e.model, dims: e.dims };
    if (!queuedMissing) {
      try {
        await queue.queueMissing(m);
      } catch (err) {
        if (storeFailure(err)) throw err;
        unusable(err);
        return pass();
      }
      queuedMissing = true;
      model = m;
    }
    const embed = async (texts: string[]) => {
      try {
        return await e.embed(texts);
      } catch (err) {
        throw new EmbedFailed(err);
      }
    };
    for (;;) {
      if (closed) return true;
      if ((await queue.drain(m, embed, batchSize)) === 0) return true;
      // Let requests through between batches.
      await new Promise((r) => setImmediate(r));
    }
  }

  const arm = (ms: number) => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      // The pause is over when its timer fires: a timer may fire a fraction of a millisecond early.
      pausedUntil = 0;
      schedule();
    }, ms);
    timer.unref();
  };

  const settle = () => {
    const w = waiters;
    waiters = [];
    for (const resolve of w) resolve();
  };

  const run = async () => {
    try {
      const done = await pass();
      failures = 0;
      if (closed) return;
      if (done && !again) settle();
    } catch (e) {
      if (closed) return;
      failures++;
      const delay = Math.min(retryDelayMs * 2 ** (failures - 1), maxRetryMs);
      pausedUntil = performance.now() + delay;
      if (e instanceof EmbedFailed) {
        logger.warn('embedding a batch failed; it stays queued and is tried again', {
          error: String(e.reason),
          retryMs: delay,
        });
      } else {
        logger.warn('embedding queue: the database failed; tried again after a pause', {
          error: String(e),
          retryMs: delay,
        });
      }
    } finally {
      running = null;
    }
    if (closed) return;
    if (performance.now() < pausedUntil) {
      again = false;
      arm(pausedUntil - performance.now());
    } else if (again) {
      again = false;
      schedule();
    } else {
      arm(idleDelayMs);
    }
  };

  function schedule(): void {
    if (closed || scheduled) return;
    if (running) {
      again = true;
      return;
    }
    // A kick (every write) must not cut a pause short, or a failing embedder is called per request.
    if (performance.now() < pausedUntil) return;
    if (timer) clearTimeout(timer);
    timer = null;
    // On the next turn of the event loop, not inside the write that kicked it.
    scheduled = setImmediate(() => {
      scheduled = null;
      if (closed) return;
      running = run();
    });
  }

  return {
    // With nothing to embed with, the queue is only emptied: at the poll and by idle(), not by a
    // DELETE after every write.
    kick: () => {
      if (loaded && !embedder) return;
      schedule();
    },
    idle() {
      if (closed) return Promise.resolve();
      return new Promise<void>((resolve) => {
        waiters.push(resolve);
        schedule();
      });
    },
    catchUp() {},
    vectorModel: () => model,
    embedder: () => embedder,
    loading: () => (loaded ? null : ready),
    vectorLanesOff: () => offReason,
    async close() {
      closed = true;
      aborter.abort();
      if (scheduled) clearImmediate(scheduled);
      if (timer) clearTimeout(timer);
      settle();
      await running;
      const e = embedder;
      embedder = null;
      model = null;
      await e?.close();
    },
  };
}
