import type { Embedder } from '../embed/embedder.ts';
import { recordEmbedText } from '../core/retrieve/embed-text.ts';
import { normName } from '../core/shared/fold-text.ts';
import { quietRepeats } from '../core/shared/quiet-repeats.ts';
import type { IndexBatch, IndexItem, IndexQueue, LexicalEntry, VectorModelRef } from '../ports/index.ts';

export interface IndexerLogger {
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

export interface RetrievalIndexer {
  /**
   * Something was written: make sure a pass is scheduled. The storage's in-memory copies of the indexes
   * let go of what a deletion made stale here and now (IndexQueue.written), so forgotten vectors and
   * words do not wait for the next search.
   */
  kick(): void;
  /** Resolves when the queue is empty (every Record indexed and, with an embedder, embedded). */
  idle(): Promise<void>;
  /**
   * Indexes, now and synchronously, the queued Records of one Brain for the lexical lanes, so a
   * Context sees every Record written before it (read-your-write); embedding stays in the background.
   */
  catchUp(brainUid: string): Promise<void>;
  /** The active model, once the embedder has loaded; null without one. */
  vectorModel(): VectorModelRef | null;
  embedder(): Embedder | null;
  /** While the embedder is still loading: settles when it has loaded (or failed to). Else null. */
  loading(): Promise<void> | null;
  close(): Promise<void>;
}

export interface IndexerOptions {
  /** The storage's queue of index work, over the engine's own indexes. */
  queue: IndexQueue;
  /**
   * Loads in the background; lexical indexing does not wait for it. Given the AbortSignal that
   * close() fires, so closing never waits for a model still loading.
   */
  embedder?: ((signal: AbortSignal) => Promise<Embedder>) | null;
  logger: IndexerLogger;
  batchSize?: number;
  /** After a pass that emptied the queue, how long the next one waits for more to gather. */
  gatherMs?: number;
}

/**
 * Most Records a Context indexes synchronously before it retrieves. Enough for any burst of writes;
 * after a schema rebuild or a huge import the rest follows in the background within seconds.
 */
const catchUpMax = 5_000;

/** What the lexical index keeps of a Record beside its text: a message's thread and speaker. */
function lexicalEntry(kind: string, content: string): LexicalEntry {
  if (kind !== 'message') return { thread: null, speaker: null, speakerNorm: null };
  const c = JSON.parse(content) as { thread?: string; speaker?: string };
  const speaker = c.speaker ?? null;
  return { thread: c.thread ?? null, speaker, speakerNorm: speaker ? normName(speaker) : null };
}

/**
 * Keeps the retrieval indexes in step with the store, in the background: the lexical entries (text,
 * speaker, thread neighbours; SQLite's turn_fts) and one vector per Record and Memory for the active
 * embedding model. The storage queues every insert (SQLite: triggers fill index_queue), so writers
 * need not know about it; on start, anything the active model has not embedded yet (a new install, or
 * a model change) is queued again. The rules (what a message's entry holds, the text an owner is
 * embedded from, which embedder) are here; the queue's rows are the adapter's (IndexQueue).
 */
export function createRetrievalIndexer(o: IndexerOptions): RetrievalIndexer {
  const { queue, logger } = o;
  // A store that cannot take writes (a full disk) fails every batch and every kick: said once a minute.
  const failed = quietRepeats((m, f) => logger.error(m, f));
  const embedFailed = quietRepeats((m, f) => logger.warn(m, f));
  const batchSize = o.batchSize ?? 256;
  const gatherMs = o.gatherMs ?? 25;
  /** When a pass last found the queue empty. */
  let drainedAt = -Infinity;
  let model: VectorModelRef | null = null;
  let embedder: Embedder | null = null;
  let running: Promise<void> | null = null;
  let again = false;
  let closed = false;
  let waiters: Array<() => void> = [];

  // The in-memory copy of turn_fts loads in the background; searches use FTS5 until it is ready.
  const turnCopyLoaded = queue.load();
  const aborter = new AbortController();
  let loaded = !o.embedder;
  const ready = (o.embedder ? o.embedder(aborter.signal) : Promise.resolve(null)).then(
    async (e) => {
      if (!e || closed) return;
      try {
        // Whatever this model has not embedded yet: everything after a model change.
        const m = { provider: e.provider, model: e.model, dims: e.dims };
        await queue.queueUnembedded(m);
        model = m;
      } catch (err) {
        // Thrown here it would be an unhandled rejection, and take the server down after it listened.
        logger.error('embedder cannot be used with this store; semantic retrieval is off', {
          error: String(err),
        });
        e.close().catch(() => {});
        return;
      }
      embedder = e;
      kick();
    },
    (e: unknown) => {
      if (!closed) logger.error('embedder failed to load; semantic retrieval is off', { error: String(e) });
    },
  );
  void ready.finally(() => (loaded = true));

  /** Embeds the batch off-thread: what its completion writes besides the lexical entries. */
  async function embedBatch(items: IndexItem[]): Promise<Omit<IndexBatch, 'items' | 'lexical'>> {
    if (!embedder || !model) return {};
    const m = model;
    const { sources, skipped } = await queue.toEmbed(items, m);
    // Memories left out are marked as handled by this model (their Record's vector stands for them),
    // so a restart does not queue them again.
    if (sources.length === 0) return { model: m, skipped };
    const texts = sources.map((s) =>
      s.owner === 'record' ? recordEmbedText(s.kind, s.content, s.text) : s.statement,
    );
    const embedded = await embedder.embed(texts);
    return {
      model: m,
      skipped,
      vectors: sources.map((s, i) => ({
        owner: s.owner,
        n: s.n,
        brainUid: s.brainUid,
        vector: embedded[i]!,
      })),
    };
  }

  async function drain(): Promise<void> {
    for (;;) {
      if (closed) return;
      const items = await queue.claim(batchSize);
      if (items.length === 0) {
        drainedAt = performance.now();
        return;
      }
      let embedded: Omit<IndexBatch, 'items' | 'lexical'> = {};
      try {
        embedded = await embedBatch(items);
      } catch (e) {
        // Left unembedded until the next start re-queues it; lexical retrieval has it all the same.
        embedFailed('embedding a batch failed', { error: String(e), items: items.length });
      }
      if (closed) return;
      // One commit for the batch: a Context meanwhile indexes its Brain's Records itself (catchUp).
      await queue.complete({ items, lexical: lexicalEntry, ...embedded }, () => closed);
      if (closed) return;
      // Let requests through between batches.
      await new Promise((r) => setImmediate(r));
    }
  }

  function kick(): void {
    if (closed) return;
    queue.written().catch((e: unknown) => failed('refreshing the index copies failed', { error: String(e) }));
    if (running) {
      again = true;
      return;
    }
    // Started on the next turn of the event loop, not inside the write that kicked it: a rememberRecord
    // must not index a batch of 256 before it answers (a Context catches up on its own Brain anyway).
    // Within gatherMs of emptying the queue it waits for the rest of that span: while writes stream in,
    // a batch per batch of writes would commit as often as the writes do.
    const gather = drainedAt + gatherMs - performance.now();
    running = new Promise((r) => (gather > 0 ? setTimeout(r, gather) : setImmediate(r)))
      .then(drain)
      .catch((e: unknown) => failed('retrieval indexing failed', { error: String(e) }))
      .finally(() => {
        running = null;
        if (again && !closed) {
          again = false;
          kick();
          return;
        }
        const w = waiters;
        waiters = [];
        for (const resolve of w) resolve();
      });
  }

  return {
    kick,
    catchUp: (brainUid: string) => queue.indexBrain(brainUid, catchUpMax, lexicalEntry),
    async idle() {
      await ready;
      await turnCopyLoaded;
      if (!running) kick();
      if (!running) return;
      await new Promise<void>((resolve) => waiters.push(resolve));
    },
    vectorModel: () => model,
    embedder: () => embedder,
    loading: () => (loaded ? null : ready),
    async close() {
      closed = true;
      await queue.release();
      aborter.abort();
      await running;
      await ready;
      await embedder?.close();
    },
  };
}
