import { embedTextChars, recordEmbedText } from '../../core/retrieve/embed-text.ts';
import type { VectorIndex, VectorModelRef } from '../../ports/index.ts';
import type { PgClient, PgQueryable } from './client.ts';
import { vectorLiteral } from './vector-index.ts';

/** What is waiting in embed_queue (migration 006), and how a worker of any process drains it. */
export interface PgEmbeddingQueue {
  /**
   * Queues what `model` has no vector of yet, once per model (a new install, or a change of model):
   * the model last queued for is kept in mnemo_meta, so a start of another process does not scan again.
   */
  queueMissing(model: VectorModelRef): Promise<void>;
  /**
   * Takes up to `limit` queued Records and Memories, passing over those another process holds, embeds
   * what needs a vector with `embed` and writes the vectors, in one transaction: a process that dies
   * midway leaves them queued. A Memory that restates one of its Records word for word gets none (that
   * Record's vector stands for it), nor does an owner forgotten meanwhile. Answers how many it took.
   */
  drain(
    model: VectorModelRef,
    embed: (texts: string[]) => Promise<Float32Array[]>,
    limit: number,
  ): Promise<number>;
  /**
   * Empties the queue without embedding (passing over rows a forget or a worker holds, taken at the next
   * call): for a database where the semantic lane cannot run, or a
   * process without an embedder. What it took is then missing a vector, so the mark queueMissing
   * keeps goes too: the next process with a model queues what is missing again.
   */
  discard(): Promise<number>;
}

interface Queued {
  brain_uid: string;
  owner: 'record' | 'memory';
  owner_n: number;
}

interface ToEmbed {
  brain_uid: string;
  owner: 'record' | 'memory';
  n: number;
  text: string;
}

const queuedKey = 'embed_queued_for';
const modelKey = (m: VectorModelRef) => `${m.provider}\n${m.model}\n${m.dims}`;
/** One key for every process that queues for a new model. */
const QUEUE_LOCK = 0x6d6e656d6f02;

async function modelId(q: PgQueryable, m: VectorModelRef): Promise<number> {
  const row = (
    await q.query<{ id: number }>('SELECT id FROM embedding_models WHERE provider = $1 AND model = $2', [
      m.provider,
      m.model,
    ])
  ).rows[0];
  if (!row) throw new Error(`embedding model ${m.provider}/${m.model} is not registered`);
  return row.id;
}

/**
 * What each queued owner gives the embedder. A queued owner is embedded whether or not it has a
 * vector: it is queued again when its text changed (VectorIndex.drop), and the vector must follow.
 */
async function textsOf(q: PgQueryable, items: Queued[]): Promise<ToEmbed[]> {
  const of = (owner: Queued['owner']) => {
    const mine = items.filter((i) => i.owner === owner);
    return [mine.map((i) => i.brain_uid), mine.map((i) => i.owner_n)];
  };
  const records = await q.query<{
    brain_uid: string;
    n: number;
    text: string;
    kind: string;
    content: string;
  }>(
    `SELECT r.brain_uid, r.n, left(r.text, ${embedTextChars}) AS text, r.kind, r.content
     FROM unnest($1::text[], $2::bigint[]) AS i(b, n) JOIN records r ON r.brain_uid = i.b AND r.n = i.n`,
    of('record'),
  );
  const memories = await q.query<{ brain_uid: string; n: number; statement: string }>(
    `SELECT m.brain_uid, m.n, m.statement
     FROM unnest($1::text[], $2::bigint[]) AS i(b, n) JOIN memories m ON m.brain_uid = i.b AND m.n = i.n
     WHERE NOT EXISTS (
       SELECT 1 FROM citations c JOIN records rec ON rec.brain_uid = c.brain_uid AND rec.id = c.record_id
       WHERE c.brain_uid = m.brain_uid AND c.memory_id = m.id AND rec.text = m.statement)`,
    of('memory'),
  );
  return [
    ...records.rows.map((r) => ({
      brain_uid: r.brain_uid,
      owner: 'record' as const,
      n: r.n,
      text: recordEmbedText(r.kind, r.content, r.text),
    })),
    ...memories.rows.map((m) => ({
      brain_uid: m.brain_uid,
      owner: 'memory' as const,
      n: m.n,
      text: m.statement,
    })),
  ];
}

/**
 * The embedding queue over one database. `vectors` registers a model (and its HNSW index) before its
 * first vector is written.
 */
export function pgEmbeddingQueue(client: PgClient, vectors: VectorIndex): PgEmbeddingQueue {
  return {
    async queueMissing(model) {
      await vectors.ensureModel(model);
      await client.transaction(async (tx) => {
        await tx.query('SELECT pg_advisory_xact_lock($1)', [QUEUE_LOCK]);
        const done = await tx.query<{ value: string }>('SELECT value FROM mnemo_meta WHERE key = $1', [
          queuedKey,
        ]);
        if (done.rows[0]?.value === modelKey(model)) return;
        const id = await modelId(tx, model);
        for (const [owner, table] of [
          ['record', 'records'],
          ['memory', 'memories'],
        ] as const) {
          await tx.query(
            `INSERT INTO embed_queue (brain_uid, owner, owner_n)
             SELECT t.brain_uid, '${owner}', t.n FROM ${table} t
             WHERE NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.brain_uid = t.brain_uid AND e.owner = '${owner}'
                                 AND e.owner_n = t.n AND e.model_id = $1)
             ON CONFLICT DO NOTHING`,
            [id],
          );
        }
        await tx.query(
          `INSERT INTO mnemo_meta (key, value) VALUES ($1, $2)
           ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
          [queuedKey, modelKey(model)],
        );
      });
    },

    async drain(model, embed, limit) {
      await vectors.ensureModel(model);
      return client.transaction(async (tx) => {
        // The Brain's row is share-locked with the batch, and a Brain being forgotten (its row held FOR
        // UPDATE) is passed over: the vectors' foreign key would otherwise wait for the forget while
        // holding queue rows the forget's cascade deletes, a deadlock one of them lost after a second.
        const items = (
          await tx.query<Queued>(
            `SELECT q.brain_uid, q.owner, q.owner_n FROM embed_queue q JOIN brains b ON b.uid = q.brain_uid
             ORDER BY q.brain_uid, q.owner, q.owner_n LIMIT $1
             FOR UPDATE OF q SKIP LOCKED FOR KEY SHARE OF b SKIP LOCKED`,
            [limit],
          )
        ).rows;
        if (items.length === 0) return 0;
        const id = await modelId(tx, model);
        const todo = await textsOf(tx, items);
        const embedded = todo.length > 0 ? await embed(todo.map((t) => t.text)) : [];
        for (const owner of ['record', 'memory'] as const) {
          const mine = todo.flatMap((t, i) => {
            const v = t.owner === owner ? vectorLiteral(embedded[i]!) : null;
            return v === null ? [] : [{ ...t, v }];
          });
          if (mine.length === 0) continue;
          // Only while its owner lives: the key-share lock orders this against a forget's DELETE.
          await tx.query(
            `WITH live AS (
               SELECT v.b, v.n, v.e FROM unnest($1::text[], $2::bigint[], $3::text[]) AS v(b, n, e)
               JOIN ${owner === 'record' ? 'records' : 'memories'} o ON o.brain_uid = v.b AND o.n = v.n
               FOR KEY SHARE OF o)
             INSERT INTO embeddings (brain_uid, owner, owner_n, model_id, embedding)
             SELECT b, '${owner}', n, $4, e::vector FROM live
             ON CONFLICT (brain_uid, owner, owner_n, model_id) DO UPDATE SET embedding = EXCLUDED.embedding`,
            [mine.map((t) => t.brain_uid), mine.map((t) => t.n), mine.map((t) => t.v), id],
          );
        }
        await tx.query(
          `DELETE FROM embed_queue q USING unnest($1::text[], $2::text[], $3::bigint[]) AS i(b, o, n)
           WHERE q.brain_uid = i.b AND q.owner = i.o AND q.owner_n = i.n`,
          [items.map((i) => i.brain_uid), items.map((i) => i.owner), items.map((i) => i.owner_n)],
        );
        return items.length;
      });
    },

    async discard() {
      return client.transaction(async (tx) => {
        // Rows a forget's cascade or a worker holds are theirs: waiting for them could close a cycle.
        const gone = (
          await tx.query(
            'DELETE FROM embed_queue WHERE ctid = ANY (ARRAY(SELECT ctid FROM embed_queue FOR UPDATE SKIP LOCKED))',
          )
        ).rowCount;
        // Only when it took something: polled every few seconds, an empty queue writes nothing.
        if (gone > 0) await tx.query('DELETE FROM mnemo_meta WHERE key = $1', [queuedKey]);
        return gone;
      });
    },
  };
}
