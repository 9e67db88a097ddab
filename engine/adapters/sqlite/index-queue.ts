import { embedTextChars } from '../../core/retrieve/embed-text.ts';
import type {
  EmbedSource,
  IndexBatch,
  IndexItem,
  IndexQueue,
  LexicalRule,
  VectorModelRef,
} from '../../ports/index.ts';
import type { Store } from './store.ts';
import type { TurnCopies } from './turn-copies.ts';
import { affectedBy, writeTurnRow } from './turn-rows.ts';
import type { SqliteVectorIndex } from './vector-index.ts';

/** The indexes the queue feeds, with their in-memory copies (the engine's own, never shared). */
export interface SqliteIndexTargets {
  vectors: SqliteVectorIndex;
  turns: TurnCopies;
}

interface QueueRow {
  owner: 'record' | 'memory';
  owner_n: number;
  lexical: number;
}

const atOnce = <T>(work: () => T): Promise<T> => Promise.resolve(work());
const item = (r: QueueRow): IndexItem => ({ owner: r.owner, n: r.owner_n, lexical: r.lexical === 1 });

/**
 * index_queue, which triggers fill on every insert of a Record or Memory: a Record leaves it once its
 * retrieval_index and turn_fts rows and its vector are written, a Memory once its vector is. The
 * turn rows of a message's neighbours are rewritten with it (turn-rows.ts).
 */
export function sqliteIndexQueue(store: Store, { vectors, turns }: SqliteIndexTargets): IndexQueue {
  /** Writes the items' lexical rows; Records indexed meanwhile (a Context's indexBrain) are not redone. */
  function indexLexical(items: readonly IndexItem[], lexical: LexicalRule): void {
    store.tx(() => {
      const touched = new Set<number>();
      for (const it of items) {
        if (it.owner !== 'record' || it.lexical) continue;
        const queued = store.get<{ lexical: number }>(
          "SELECT lexical FROM index_queue WHERE owner = 'record' AND owner_n = ?",
          it.n,
        );
        if (queued?.lexical === 1) continue;
        const r = store.get<{
          n: number;
          brain_uid: string;
          kind: string;
          content: string;
          occurred_ms: number;
        }>('SELECT n, brain_uid, kind, content, occurred_ms FROM records WHERE n = ?', it.n);
        if (!r) continue;
        const { thread, speaker, speakerNorm } = lexical(r.kind, r.content);
        store.run(
          `INSERT OR REPLACE INTO retrieval_index (record_n, brain_uid, thread, speaker, speaker_norm, occurred_ms)
           VALUES (?, ?, ?, ?, ?, ?)`,
          r.n,
          r.brain_uid,
          thread,
          speaker,
          speakerNorm,
          r.occurred_ms,
        );
        for (const n of affectedBy(store, r.n)) touched.add(n);
      }
      for (const n of touched) writeTurnRow(store, n);
      turns.pruneLog();
      for (const it of items) {
        if (it.owner === 'record')
          store.run("UPDATE index_queue SET lexical = 1 WHERE owner = 'record' AND owner_n = ?", it.n);
      }
    });
  }

  /** The batch's vectors and skipped Memories, in the caller's transaction. */
  function writeVectors(b: IndexBatch): void {
    if (!b.model) return;
    const m = vectors.sync.model(b.model);
    for (const n of b.skipped ?? [])
      store.run(
        "INSERT OR IGNORE INTO embeddings (owner, owner_n, model_id) VALUES ('memory', ?, ?)",
        n,
        m.id,
      );
    for (const v of b.vectors ?? []) {
      // It may have been forgotten while the worker embedded it.
      const table = v.owner === 'record' ? 'records' : 'memories';
      if (!store.get(`SELECT 1 FROM ${table} WHERE n = ?`, v.n)) continue;
      vectors.sync.put(m, v.owner, [{ n: v.n, brainUid: v.brainUid, vector: v.vector }]);
    }
  }

  return {
    load: () => turns.load(),
    written: () =>
      atOnce(() => {
        vectors.refresh();
        turns.sync();
      }),
    // Between units of work: a write from outside an open one is refused, and a refusal here turns
    // semantic retrieval off until a restart (the embedder may come up while a write is open). One
    // statement a table, as it scans a small covering index, where a rowid range reads the table.
    queueUnembedded: (ref: VectorModelRef) =>
      store.exclusive(() =>
        store.tx(() => {
          const m = vectors.sync.model(ref);
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
        }),
      ),
    claim: (limit) =>
      atOnce(() =>
        store
          .all<QueueRow>(
            // In primary-key order: no sort of a queue that may hold a whole import.
            'SELECT owner, owner_n, lexical FROM index_queue ORDER BY owner, owner_n LIMIT ?',
            limit,
          )
          .map(item),
      ),
    // A Context's, between units of work, as queueUnembedded.
    indexBrain: (brainUid, limit, lexical) =>
      store.exclusive(() => {
        const items = store
          .all<QueueRow>(
            `SELECT q.owner, q.owner_n, q.lexical FROM index_queue q JOIN records r ON r.n = q.owner_n
             WHERE q.owner = 'record' AND q.lexical = 0 AND r.brain_uid = ? LIMIT ?`,
            brainUid,
            limit,
          )
          .map(item);
        if (items.length > 0) indexLexical(items, lexical);
      }),
    toEmbed: (items, ref) =>
      atOnce(() => {
        const m = vectors.sync.model(ref);
        const sources: EmbedSource[] = [];
        const skipped: number[] = [];
        for (const it of items) {
          if (it.owner === 'record') {
            // Queued again only to refresh its index row (a neighbour changed): its vector is still good.
            const r = store.get<{ brain_uid: string; text: string; kind: string; content: string }>(
              `SELECT r.brain_uid, substr(r.text, 1, ${embedTextChars}) AS text, r.kind, r.content FROM records r
               WHERE r.n = ? AND NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.owner = 'record' AND e.owner_n = r.n AND e.model_id = ?)`,
              it.n,
              m.id,
            );
            if (r)
              sources.push({
                owner: 'record',
                n: it.n,
                brainUid: r.brain_uid,
                kind: r.kind,
                content: r.content,
                text: r.text,
              });
          } else {
            const r = store.get<{ brain_uid: string; statement: string }>(
              `SELECT m.brain_uid, m.statement FROM memories m WHERE m.n = ? AND NOT EXISTS (
                 SELECT 1 FROM citations c JOIN records rec ON rec.id = c.record_id
                 WHERE c.memory_id = m.id AND rec.text = m.statement)`,
              it.n,
            );
            if (r) sources.push({ owner: 'memory', n: it.n, brainUid: r.brain_uid, statement: r.statement });
            else if (store.get('SELECT 1 FROM memories WHERE n = ?', it.n)) skipped.push(it.n);
          }
        }
        return { sources, skipped };
      }),
    async complete(b, cancelled) {
      // One commit for the batch's index rows, vectors and dequeue: each commit costs about as much as
      // the rows in it. Behind a unit of work open now (store.exclusive): this transaction is the batch's own.
      const wrote = await store.exclusive(() => {
        if (cancelled()) return false;
        store.tx(() => {
          indexLexical(b.items, b.lexical);
          writeVectors(b);
          for (const it of b.items)
            // A Record queued again meanwhile (a neighbour was forgotten) stays for its next pass.
            store.run(
              "DELETE FROM index_queue WHERE owner = ? AND owner_n = ? AND (owner = 'memory' OR lexical = 1)",
              it.owner,
              it.n,
            );
        });
        return true;
      });
      if (wrote && !cancelled()) turns.sync();
    },
    release: () => atOnce(() => turns.release()),
  };
}
