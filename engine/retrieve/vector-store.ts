import type { EmbedderIdentity } from '../embed/embedder.ts';
import type { Store } from '../store/store.ts';
import type { KnnThread } from './knn-thread.ts';

/** One embedding model's vector tables: Records and Memories, partitioned by Brain. */
export interface VectorModel {
  id: number;
  provider: string;
  model: string;
  dims: number;
  recordTable: string;
  memoryTable: string;
}

export type VectorOwner = 'record' | 'memory';

const tableOf = (m: VectorModel, owner: VectorOwner) => (owner === 'record' ? m.recordTable : m.memoryTable);

/**
 * int8 units per unit of a unit-length vector's component: components beyond ±0.5 clip (2 in 10 million
 * on the 100k GloVe-SIF benchmark store). One scale for every vector, so the L2 distance of two
 * quantised vectors stays the chord of their angle: cosine = 1 - (d / scale)² / 2.
 */
export const int8Scale = 254;

/**
 * A vector as stored and searched: normalised to unit length, times int8Scale, rounded into int8.
 * Null for a vector with no direction (all zeros), which no query can be near.
 */
export function quantize(vector: Float32Array): Buffer | null {
  let sq = 0;
  for (const x of vector) sq += x * x;
  if (!(sq > 0) || !Number.isFinite(sq)) return null;
  const k = int8Scale / Math.sqrt(sq);
  const out = Buffer.alloc(vector.length);
  for (let i = 0; i < vector.length; i++)
    out.writeInt8(Math.max(-127, Math.min(127, Math.round(vector[i]! * k))), i);
  return out;
}

/** 1 - cosine of two quantised vectors from their L2 distance in int8 units. */
const cosineDistance = (l2: number) => (l2 / int8Scale) ** 2 / 2;

/**
 * SQL that overwrites one stored vector with zeros where vec0 keeps it, in `<table>_vector_chunks00`
 * at the row's chunk offset (`rowid` is an SQL expression for the owner's n). vec0 only clears a
 * validity bit on delete, and sqlite-vec 0.1.9 refuses to UPDATE an int8 vector in place ("expected
 * int8, but a float32 vector was provided"), so the bytes are spliced in the shadow table itself.
 */
function zeroVectorSql(table: string, dims: number, rowid: string): string {
  return `UPDATE ${table}_vector_chunks00 SET vectors = CAST(
    substr(vectors, 1, x.chunk_offset * ${dims}) || zeroblob(${dims}) || substr(vectors, (x.chunk_offset + 1) * ${dims} + 1) AS BLOB)
  FROM (SELECT chunk_id, chunk_offset FROM ${table}_rowids WHERE rowid = ${rowid}) AS x
  WHERE ${table}_vector_chunks00.rowid = x.chunk_id`;
}

const tableExists = (store: Store, name: string) =>
  store.get("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", name) !== undefined;

/**
 * The vector tables of a model, created on first use: sqlite-vec vec0 tables of int8 vectors
 * (quantize) with L2 distance, which on unit vectors ranks exactly as cosine and is read back as one,
 * partitioned by Brain (a KNN scans only that Brain's vectors). A quarter of float32's bytes: at 100,000
 * Records the KNN reads 10 MB instead of 40 MB per query (docs/decisions/retrieval.md, Quantisation).
 * Triggers zero a vector in its chunk before deleting it (zeroVectorSql), so forgetting leaves no bytes.
 * A model first stored as float32 (before schema 6) is converted here, once, in the caller's transaction.
 */
export function ensureVectorModel(store: Store, identity: EmbedderIdentity, now: string): VectorModel {
  const found = store.get<{ id: number; dims: number; element: string }>(
    'SELECT id, dims, element FROM embedding_models WHERE provider = ? AND model = ?',
    identity.provider,
    identity.model,
  );
  if (found && found.dims !== identity.dims) {
    throw new Error(
      `embedding model ${identity.provider}/${identity.model} changed width (${found.dims} -> ${identity.dims})`,
    );
  }
  const id =
    found?.id ??
    Number(
      store.db
        .prepare(
          "INSERT INTO embedding_models (provider, model, dims, element, created_at) VALUES (?, ?, ?, 'int8', ?)",
        )
        .run(identity.provider, identity.model, identity.dims, now).lastInsertRowid,
    );
  const m: VectorModel = {
    id,
    ...identity,
    recordTable: `vec8_record_${id}`,
    memoryTable: `vec8_memory_${id}`,
  };
  for (const [table, parent] of [
    [m.recordTable, 'records'],
    [m.memoryTable, 'memories'],
  ] as const) {
    store.db.exec(`
CREATE VIRTUAL TABLE IF NOT EXISTS ${table} USING vec0(brain_uid text partition key, embedding int8[${identity.dims}] distance_metric=l2);
CREATE TRIGGER IF NOT EXISTS ${table}_forget BEFORE DELETE ON ${parent}
BEGIN
  ${zeroVectorSql(table, identity.dims, 'OLD.n')};
  DELETE FROM ${table} WHERE rowid = OLD.n;
END;`);
  }
  if (found?.element === 'float') convertFloatTables(store, m);
  return m;
}

/**
 * Moves a model's float32 vectors (vec_record_<id>, vec_memory_<id>, schema 3-5) into its int8 tables
 * and drops the float tables and their triggers; secure_delete zeroes the freed pages. Quantising a
 * stored vector is what embedding the text again would store, without the model calls.
 */
function convertFloatTables(store: Store, m: VectorModel): void {
  for (const owner of ['record', 'memory'] as const) {
    const legacy = `vec_${owner}_${m.id}`;
    if (tableExists(store, legacy)) {
      let after = -1;
      for (;;) {
        const ns = store
          .all<{ n: number }>(
            `SELECT rowid AS n FROM ${legacy}_rowids WHERE rowid > ? ORDER BY rowid LIMIT 500`,
            after,
          )
          .map((r) => r.n);
        if (ns.length === 0) break;
        after = ns[ns.length - 1]!;
        // Each row carries its own rowid: a rowid without a readable row must not shift the others.
        const rows = ns.flatMap((n) =>
          store.all<{ n: number; brainUid: string; embedding: Buffer }>(
            `SELECT rowid AS n, brain_uid AS brainUid, embedding FROM ${legacy} WHERE rowid = ?`,
            n,
          ),
        );
        insertVectors(
          store,
          tableOf(m, owner),
          rows.map((r) => ({
            n: r.n,
            brainUid: r.brainUid,
            vector: new Float32Array(r.embedding.buffer, r.embedding.byteOffset, r.embedding.byteLength / 4),
          })),
          m.dims,
        );
      }
    }
    store.db.exec(`DROP TRIGGER IF EXISTS ${legacy}_forget; DROP TABLE IF EXISTS ${legacy};`);
  }
  store.run("UPDATE embedding_models SET element = 'int8' WHERE id = ?", m.id);
}

function insertVectors(
  store: Store,
  table: string,
  rows: ReadonlyArray<{ n: number; brainUid: string; vector: Float32Array }>,
  dims: number,
): void {
  for (const r of rows) {
    // A vector replaced in place must not leave its old bytes behind either.
    store.run(zeroVectorSql(table, dims, '?'), r.n);
    store.run(`DELETE FROM ${table} WHERE rowid = ?`, r.n);
    const q = quantize(r.vector);
    if (q)
      store.run(
        `INSERT INTO ${table} (rowid, brain_uid, embedding) VALUES (?, ?, vec_int8(?))`,
        BigInt(r.n),
        r.brainUid,
        q,
      );
  }
}

/**
 * Stores vectors (and which model made them) for Records or Memories, replacing any earlier ones. A
 * vector of zeros is recorded as embedded but not stored: it has no direction to be near.
 */
export function putVectors(
  store: Store,
  m: VectorModel,
  owner: VectorOwner,
  rows: ReadonlyArray<{ n: number; brainUid: string; vector: Float32Array }>,
): void {
  insertVectors(store, tableOf(m, owner), rows, m.dims);
  for (const r of rows)
    store.run(
      'INSERT OR IGNORE INTO embeddings (owner, owner_n, model_id) VALUES (?, ?, ?)',
      owner,
      r.n,
      m.id,
    );
}

/** The k nearest vectors of one Brain, nearest first (distance = 1 - cosine, of the quantised vectors). */
export function nearest(
  store: Store,
  m: VectorModel,
  owner: VectorOwner,
  brainUid: string,
  vector: Float32Array,
  k: number,
): Array<{ n: number; distance: number }> {
  const q = quantize(vector);
  if (!q) return [];
  return store
    .all<{ n: number; l2: number }>(
      `SELECT rowid AS n, distance AS l2 FROM ${tableOf(m, owner)} WHERE embedding MATCH vec_int8(?) AND k = ? AND brain_uid = ?`,
      q,
      k,
      brainUid,
    )
    .map((r) => ({ n: r.n, distance: cosineDistance(r.l2) }));
}

/** nearest() on the KNN thread (its own read connection), so the scan overlaps the main thread's work. */
export async function nearestOffThread(
  knn: KnnThread,
  m: VectorModel,
  owner: VectorOwner,
  brainUid: string,
  vector: Float32Array,
  k: number,
): Promise<Array<{ n: number; distance: number }>> {
  const q = quantize(vector);
  if (!q) return [];
  const rows = await knn.nearest(tableOf(m, owner), brainUid, q, k);
  return rows.map((r) => ({ n: r.n, distance: cosineDistance(r.l2) }));
}
