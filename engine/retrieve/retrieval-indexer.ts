import type { Embedder } from '../embed/embedder.ts';
import { embedTextChars, recordEmbedText } from '../core/retrieve/embed-text.ts';
import type { Store } from '../adapters/sqlite/store.ts';
import { affectedBy, writeTurnRow } from '../adapters/sqlite/turn-rows.ts';
import type { TurnCopies } from '../adapters/sqlite/turn-copies.ts';
import type { SqliteVectorIndex, VectorModel } from '../adapters/sqlite/vector-index.ts';

export interface IndexerLogger {
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

export interface RetrievalIndexer {
  /**
   * Something was written: make sure a pass is scheduled. In-memory vector copies a deletion made stale
   * are dropped here and now (vectors.refresh), so forgotten vectors do not wait for the next search;
   * the in-memory lexical index lets go of forgotten words here too (turns.sync).
   */
  kick(): void;
  /** Resolves when the queue is empty (every Record indexed and, with an embedder, embedded). */
  idle(): Promise<void>;
  /**
   * Indexes, now and synchronously, the queued Records of one Brain for the lexical lanes, so a
   * Context sees every Record written before it (read-your-write); embedding stays in the background.
   */
  catchUp(brainUid: string): void;
  /** The active model's vector tables, once the embedder has loaded; null without one. */
  vectorModel(): VectorModel | null;
  embedder(): Embedder | null;
  /** The indexes it keeps, which the lanes search. */
  readonly indexes: RetrievalIndexes;
  /** While the embedder is still loading: settles when it has loaded (or failed to). Else null. */
  loading(): Promise<void> | null;
  close(): Promise<void>;
}

/** The engine's own retrieval indexes over its store (their in-memory copies are never shared). */
export interface RetrievalIndexes {
  vectors: SqliteVectorIndex;
  turns: TurnCopies;
}

export interface IndexerOptions {
  store: Store;
  indexes: RetrievalIndexes;
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

interface QueueItem {
  owner: 'record' | 'memory';
  owner_n: number;
  lexical: number;
}

/**
 * Most Records a Context indexes synchronously before it retrieves. Enough for any burst of writes;
 * after a schema rebuild or a huge import the rest follows in the background within seconds.
 */
const catchUpMax = 5_000;

/** Normalised speaker name: how the entity lane matches a name in a query. */
export const normName = (s: string) => s.trim().toLowerCase();

function parseThreadSpeaker(
  kind: string,
  content: string,
): { thread: string | null; speaker: string | null } {
  if (kind !== 'message') return { thread: null, speaker: null };
  const c = JSON.parse(content) as { thread?: string; speaker?: string };
  return { thread: c.thread ?? null, speaker: c.speaker ?? null };
}

/**
 * Keeps the retrieval indexes in step with the store, in the background: turn_fts rows (text,
 * speaker, thread neighbours) and one vector per Record and Memory for the active embedding model.
 * Triggers fill index_queue on every insert, so writers need not know about it; on start, anything
 * the active model has not embedded yet (a new install, or a model change) is queued again.
 */
export function createRetrievalIndexer(o: IndexerOptions): RetrievalIndexer {
  const { store, logger } = o;
  const { vectors, turns } = o.indexes;
  const batchSize = o.batchSize ?? 256;
  const gatherMs = o.gatherMs ?? 25;
  /** When a pass last found the queue empty. */
  let drainedAt = -Infinity;
  let model: VectorModel | null = null;
  let embedder: Embedder | null = null;
  let running: Promise<void> | null = null;
  let again = false;
  let closed = false;
  let waiters: Array<() => void> = [];

  // The in-memory copy of turn_fts loads in the background; searches use FTS5 until it is ready.
  const turnCopyLoaded = turns.load();
  const aborter = new AbortController();
  let loaded = !o.embedder;
  const ready = (o.embedder ? o.embedder(aborter.signal) : Promise.resolve(null)).then(
    (e) => {
      if (!e || closed) return;
      try {
        model = vectorModelFor(e);
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

  function vectorModelFor(e: Embedder): VectorModel {
    return store.tx(() => {
      const m = vectors.sync.model(e);
      // Whatever this model has not embedded yet: everything after a model change.
      store.run(
        `INSERT OR IGNORE INTO index_queue (owner, owner_n)
           SELECT 'record', n FROM records WHERE n NOT IN (SELECT owner_n FROM embeddings WHERE owner = 'record' AND model_id = ?)`,
        m.id,
      );
      store.run(
        `INSERT OR IGNORE INTO index_queue (owner, owner_n)
           SELECT 'memory', n FROM memories WHERE n NOT IN (SELECT owner_n FROM embeddings WHERE owner = 'memory' AND model_id = ?)`,
        m.id,
      );
      return m;
    });
  }

  /** Writes the batch's index rows; Records a Context's catchUp indexed meanwhile are not redone. */
  function indexLexical(items: QueueItem[]): void {
    store.tx(() => {
      const touched = new Set<number>();
      for (const it of items) {
        if (it.owner !== 'record' || it.lexical === 1) continue;
        const queued = store.get<{ lexical: number }>(
          "SELECT lexical FROM index_queue WHERE owner = 'record' AND owner_n = ?",
          it.owner_n,
        );
        if (queued?.lexical === 1) continue;
        const r = store.get<{
          n: number;
          brain_uid: string;
          kind: string;
          content: string;
          occurred_ms: number;
        }>('SELECT n, brain_uid, kind, content, occurred_ms FROM records WHERE n = ?', it.owner_n);
        if (!r) continue;
        const { thread, speaker } = parseThreadSpeaker(r.kind, r.content);
        store.run(
          `INSERT OR REPLACE INTO retrieval_index (record_n, brain_uid, thread, speaker, speaker_norm, occurred_ms)
           VALUES (?, ?, ?, ?, ?, ?)`,
          r.n,
          r.brain_uid,
          thread,
          speaker,
          speaker ? normName(speaker) : null,
          r.occurred_ms,
        );
        for (const n of affectedBy(store, r.n)) touched.add(n);
      }
      for (const n of touched) writeTurnRow(store, n);
      turns.pruneLog();
      for (const it of items) {
        if (it.owner === 'record')
          store.run("UPDATE index_queue SET lexical = 1 WHERE owner = 'record' AND owner_n = ?", it.owner_n);
      }
    });
  }

  /** Embeds the batch off-thread; returns the writes to run in the transaction that dequeues it. */
  async function embedBatch(items: QueueItem[]): Promise<(() => void) | null> {
    if (!embedder || !model) return null;
    const m = model;
    const rows: Array<{ owner: 'record' | 'memory'; n: number; brainUid: string; text: string }> = [];
    const skipped: number[] = [];
    for (const it of items) {
      if (it.owner === 'record') {
        // Queued again only to refresh its index row (a neighbour changed): its vector is still good.
        const r = store.get<{ brain_uid: string; text: string; kind: string; content: string }>(
          `SELECT r.brain_uid, substr(r.text, 1, ${embedTextChars}) AS text, r.kind, r.content FROM records r
           WHERE r.n = ? AND NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.owner = 'record' AND e.owner_n = r.n AND e.model_id = ?)`,
          it.owner_n,
          m.id,
        );
        if (r)
          rows.push({
            owner: 'record',
            n: it.owner_n,
            brainUid: r.brain_uid,
            text: recordEmbedText(r.kind, r.content, r.text),
          });
      } else {
        // A Memory that restates one of its Records word for word would only duplicate that vector.
        const r = store.get<{ brain_uid: string; statement: string }>(
          `SELECT m.brain_uid, m.statement FROM memories m WHERE m.n = ? AND NOT EXISTS (
             SELECT 1 FROM citations c JOIN records rec ON rec.id = c.record_id
             WHERE c.memory_id = m.id AND rec.text = m.statement)`,
          it.owner_n,
        );
        if (r) rows.push({ owner: 'memory', n: it.owner_n, brainUid: r.brain_uid, text: r.statement });
        else if (store.get('SELECT 1 FROM memories WHERE n = ?', it.owner_n)) skipped.push(it.owner_n);
      }
    }
    // Memories left out are marked as handled by this model (their Record's vector stands for them),
    // so a restart does not queue them again.
    const markSkipped = () => {
      for (const n of skipped)
        store.run(
          "INSERT OR IGNORE INTO embeddings (owner, owner_n, model_id) VALUES ('memory', ?, ?)",
          n,
          m.id,
        );
    };
    if (rows.length === 0) return markSkipped;
    const embedded = await embedder.embed(rows.map((r) => r.text));
    return () => {
      markSkipped();
      for (const [i, r] of rows.entries()) {
        // It may have been forgotten while the worker embedded it.
        const table = r.owner === 'record' ? 'records' : 'memories';
        if (!store.get(`SELECT 1 FROM ${table} WHERE n = ?`, r.n)) continue;
        vectors.sync.put(m, r.owner, [{ n: r.n, brainUid: r.brainUid, vector: embedded[i]! }]);
      }
    };
  }

  async function drain(): Promise<void> {
    for (;;) {
      if (closed) return;
      const items = store.all<QueueItem>(
        // In primary-key order: no sort of a queue that may hold a whole import.
        'SELECT owner, owner_n, lexical FROM index_queue ORDER BY owner, owner_n LIMIT ?',
        batchSize,
      );
      if (items.length === 0) {
        drainedAt = performance.now();
        return;
      }
      let writeVectors: (() => void) | null = null;
      try {
        writeVectors = await embedBatch(items);
      } catch (e) {
        // Left unembedded until the next start re-queues it; lexical retrieval has it all the same.
        logger.warn('embedding a batch failed', { error: String(e), items: items.length });
      }
      if (closed) return;
      // One commit for the batch's index rows, vectors and dequeue: each commit costs about as much as
      // the rows in it. A Context meanwhile indexes its Brain's Records itself (catchUp). Behind a unit
      // of work open now (store.exclusive): this transaction is the batch's own.
      await store.exclusive(() => {
        if (closed) return;
        store.tx(() => {
          indexLexical(items);
          writeVectors?.();
          for (const it of items)
            // A Record queued again meanwhile (a neighbour was forgotten) stays for its next pass.
            store.run(
              "DELETE FROM index_queue WHERE owner = ? AND owner_n = ? AND (owner = 'memory' OR lexical = 1)",
              it.owner,
              it.owner_n,
            );
        });
      });
      if (closed) return;
      turns.sync();
      // Let requests through between batches.
      await new Promise((r) => setImmediate(r));
    }
  }

  function kick(): void {
    if (closed) return;
    vectors.refresh();
    turns.sync();
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
      .catch((e: unknown) => logger.error('retrieval indexing failed', { error: String(e) }))
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
    catchUp(brainUid: string) {
      const items = store.all<QueueItem>(
        `SELECT q.owner, q.owner_n, q.lexical FROM index_queue q JOIN records r ON r.n = q.owner_n
         WHERE q.owner = 'record' AND q.lexical = 0 AND r.brain_uid = ? LIMIT ?`,
        brainUid,
        catchUpMax,
      );
      if (items.length > 0) indexLexical(items);
    },
    async idle() {
      await ready;
      await turnCopyLoaded;
      if (!running) kick();
      if (!running) return;
      await new Promise<void>((resolve) => waiters.push(resolve));
    },
    vectorModel: () => model,
    indexes: o.indexes,
    embedder: () => embedder,
    loading: () => (loaded ? null : ready),
    async close() {
      closed = true;
      turns.release();
      aborter.abort();
      await running;
      await ready;
      await embedder?.close();
    },
  };
}
