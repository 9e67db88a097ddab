import type { VectorIndex, VectorModelRef } from '../../ports/index.ts';
import { scopeSql } from './lexical-index.ts';
import { params } from './memory-view.ts';
import type { PgClient, PgQueryable } from './client.ts';
import { postgresBackends } from '../../core/retrieve/backends.ts';

/**
 * pgvector's HNSW over cosine distance (`<=>`, 1 - cosine): the SQLite index ranks by L2 over
 * unit-length int8 vectors and answers 1 - cosine, so both rank alike and answer on one scale (this
 * one without int8's rounding). HNSW is approximate where sqlite-vec's scan is exact.
 */
export const pgVectorBackend = postgresBackends.vector;

/** Whether the semantic lane can run on this database, and why not (recorded by migrate()). */
export async function vectorSupport(db: PgQueryable): Promise<{ on: boolean; reason: string | null }> {
  const rows = (
    await db.query<{ key: string; value: string }>(
      "SELECT key, value FROM mnemo_meta WHERE key IN ('vector', 'vector_reason')",
    )
  ).rows;
  const meta = new Map(rows.map((r) => [r.key, r.value]));
  if (meta.get('vector') === 'on') return { on: true, reason: null };
  return {
    on: false,
    reason: meta.get('vector_reason') || 'the database has not been migrated by this Mnemo yet',
  };
}

/** The index of one model's vectors: HNSW needs a fixed width, so each model has its own. */
const indexName = (modelId: number) => `embeddings_hnsw_${modelId}`;
/** The indexed expression: a query must spell it the same for the planner to use the index. */
const column = (dims: number) => `(embedding::vector(${dims}))`;

/** One key for every process that creates a model's index: CREATE INDEX IF NOT EXISTS races itself. */
const MODEL_LOCK = 0x6d6e656d6f01;

interface Model {
  id: number;
  dims: number;
}

/** The vector as pgvector reads it, or null for one with no direction (or not finite). */
export function vectorLiteral(vector: Float32Array): string | null {
  let sq = 0;
  for (const x of vector) sq += x * x;
  if (!(sq > 0) || !Number.isFinite(sq)) return null;
  return `[${Array.from(vector).join(',')}]`;
}

/**
 * The vectors of Records and Memories in `embeddings`, one partial HNSW expression index per model
 * (`ensureModel`). A search of one Brain filters the index's candidates by Brain: pgvector 0.8's
 * iterative scan goes on through the graph until `k` of that Brain are found (before 0.8 the scan
 * is exact instead, the index unused). Every call throws, with the reason, on a database without the
 * vector extension (`vectorSupport` says so before any is made).
 */
export function pgVectorIndex(client: PgClient): VectorIndex {
  const models = new Map<string, Model>();
  let support: Promise<{ iterative: boolean }> | null = null;
  const ready = () =>
    (support ??= (async () => {
      const s = await vectorSupport(client);
      if (!s.on) throw new Error(`the semantic lane does not run here: ${s.reason}`);
      const v = await client.query<{ v: string }>(
        "SELECT extversion AS v FROM pg_extension WHERE extname = 'vector'",
      );
      const [major = 0, minor = 0] = (v.rows[0]?.v ?? '0').split('.').map(Number);
      return { iterative: major > 0 || minor >= 8 };
    })()).catch((e: unknown) => {
      support = null;
      throw e;
    });
  const key = (ref: VectorModelRef) => `${ref.provider}\n${ref.model}`;

  const ensure = async (ref: VectorModelRef): Promise<Model> => {
    const known = models.get(key(ref));
    if (known && known.dims === ref.dims) return known;
    await ready();
    const m = await client.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MODEL_LOCK]);
      await tx.query(
        `INSERT INTO embedding_models (provider, model, dims, created_at)
         VALUES ($1, $2, $3, to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
         ON CONFLICT (provider, model) DO NOTHING`,
        [ref.provider, ref.model, ref.dims],
      );
      const found = (
        await tx.query<Model>('SELECT id, dims FROM embedding_models WHERE provider = $1 AND model = $2', [
          ref.provider,
          ref.model,
        ])
      ).rows[0]!;
      if (found.dims !== ref.dims) {
        throw new Error(
          `embedding model ${ref.provider}/${ref.model} changed width (${found.dims} -> ${ref.dims})`,
        );
      }
      // Integers of our own, not input: DDL takes no parameters.
      await tx.query(
        `CREATE INDEX IF NOT EXISTS ${indexName(found.id)} ON embeddings
         USING hnsw (${column(found.dims)} vector_cosine_ops) WHERE model_id = ${found.id}`,
      );
      return found;
    });
    models.set(key(ref), m);
    return m;
  };

  /** A registered model, or null when nothing was ever stored under it (nothing to find). */
  const registered = async (ref: VectorModelRef): Promise<Model | null> => {
    const known = models.get(key(ref));
    if (known) return known;
    await ready();
    const found = await client.query('SELECT 1 FROM embedding_models WHERE provider = $1 AND model = $2', [
      ref.provider,
      ref.model,
    ]);
    return found.rows.length > 0 ? ensure(ref) : null;
  };

  return {
    backend: pgVectorBackend,
    async ensureModel(ref) {
      await ensure(ref);
    },
    async put(ref, owner, n, brainUid, vector) {
      const m = await ensure(ref);
      if (vector.length !== m.dims) {
        throw new Error(`a vector of ${vector.length} dimensions for a model of ${m.dims}`);
      }
      const v = vectorLiteral(vector);
      if (v === null) {
        await client.query(
          'DELETE FROM embeddings WHERE brain_uid = $1 AND owner = $2 AND owner_n = $3 AND model_id = $4',
          [brainUid, owner, n, m.id],
        );
        return;
      }
      // Only while its owner lives: the key-share lock orders this against a forget's DELETE of the
      // row (which then removes the embeddings), so a vector written late is not left behind.
      const table = owner === 'record' ? 'records' : 'memories';
      await client.query(
        `WITH live AS (SELECT 1 FROM ${table} WHERE brain_uid = $1 AND n = $3 FOR KEY SHARE)
         INSERT INTO embeddings (brain_uid, owner, owner_n, model_id, embedding)
         SELECT $1, $2, $3, $4, $5::vector FROM live
         ON CONFLICT (brain_uid, owner, owner_n, model_id) DO UPDATE SET embedding = EXCLUDED.embedding`,
        [brainUid, owner, n, m.id, v],
      );
    },
    async drop(owner, n, brainUid) {
      await ready();
      // Embedded again from its new text (embedding-queue.ts), while its owner lives. DO UPDATE, not
      // NOTHING: a worker holding the queued row may have read the old text; this waits for it to
      // commit (and remove the row), then queues the owner anew.
      const table = owner === 'record' ? 'records' : 'memories';
      await client.query(
        `WITH gone AS (DELETE FROM embeddings WHERE brain_uid = $1 AND owner = $2 AND owner_n = $3)
         INSERT INTO embed_queue (brain_uid, owner, owner_n)
         SELECT $1, $2, $3 WHERE EXISTS (SELECT 1 FROM ${table} WHERE brain_uid = $1 AND n = $3)
         ON CONFLICT (brain_uid, owner, owner_n) DO UPDATE SET owner_n = EXCLUDED.owner_n`,
        [brainUid, owner, n],
      );
    },
    async nearest(ref, owner, brainUid, query, k) {
      const m = await registered(ref);
      const q = vectorLiteral(query);
      if (!m || q === null || k <= 0 || query.length !== m.dims) return [];
      const { iterative } = await ready();
      return client.transaction(async (tx) => {
        if (iterative) {
          // strict_order: the answer stays nearest first. ef_search bounds one pass of the graph.
          await tx.query("SET LOCAL hnsw.iterative_scan = 'strict_order'");
          await tx.query(`SET LOCAL hnsw.ef_search = ${Math.min(1000, Math.max(40, Math.trunc(k)))}`);
        } else {
          // Without the iterative scan the index would stop at ef_search candidates of every Brain.
          await tx.query('SET LOCAL enable_indexscan = off');
        }
        const rows = await tx.query<{ n: number; distance: number }>(
          `SELECT owner_n AS n, ${column(m.dims)} <=> $1::vector(${m.dims}) AS distance
           FROM embeddings WHERE model_id = ${m.id} AND brain_uid = $2 AND owner = $3
           ORDER BY ${column(m.dims)} <=> $1::vector(${m.dims}) LIMIT $4`,
          [q, brainUid, owner, Math.trunc(k)],
        );
        return rows.rows;
      });
    },
    async cited(brainUid, memoryNs) {
      if (memoryNs.length === 0) return [];
      const rows = await client.query<{ memoryN: number; recordN: number }>(
        `SELECT m.n AS "memoryN", r.n AS "recordN"
           FROM memories m
           JOIN citations c ON c.brain_uid = m.brain_uid AND c.memory_id = m.id
           JOIN records r ON r.brain_uid = c.brain_uid AND r.id = c.record_id
          WHERE m.brain_uid = $1 AND m.n = ANY ($2::bigint[])`,
        [brainUid, [...memoryNs]],
      );
      return rows.rows;
    },
    async inScope(recordNs, scope) {
      if (recordNs.length === 0) return [];
      const p = params([...recordNs]);
      const where = scopeSql(p, scope);
      const rows = await client.query<{ n: number; id: string }>(
        `SELECT r.n, r.id FROM records r WHERE r.n = ANY ($1::bigint[]) AND ${where}`,
        p.values,
      );
      return rows.rows;
    },
  };
}
