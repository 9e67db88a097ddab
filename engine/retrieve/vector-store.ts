import type { EmbedderIdentity } from '../embed/embedder.ts';
import type { Store } from '../store/store.ts';

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
 * The vector tables of a model, created on first use: sqlite-vec vec0 tables of float32 vectors with
 * cosine distance, partitioned by Brain (a KNN scans only that Brain's vectors). Triggers overwrite a
 * vector with zeros before deleting it, because vec0 only clears a validity bit on delete and the
 * bytes would otherwise stay in the file after forgetting. (int8 would scan ~1.5x faster at 100k
 * Records, but sqlite-vec 0.1.9 cannot overwrite an int8 vector in place; docs/decisions/retrieval.md.)
 */
export function ensureVectorModel(store: Store, identity: EmbedderIdentity, now: string): VectorModel {
  const found = store.get<{ id: number; dims: number }>(
    'SELECT id, dims FROM embedding_models WHERE provider = ? AND model = ?',
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
          "INSERT INTO embedding_models (provider, model, dims, element, created_at) VALUES (?, ?, ?, 'float', ?)",
        )
        .run(identity.provider, identity.model, identity.dims, now).lastInsertRowid,
    );
  const m: VectorModel = {
    id,
    ...identity,
    recordTable: `vec_record_${id}`,
    memoryTable: `vec_memory_${id}`,
  };
  const zero = `zeroblob(${identity.dims * 4})`;
  for (const [table, parent] of [
    [m.recordTable, 'records'],
    [m.memoryTable, 'memories'],
  ] as const) {
    store.db.exec(`
CREATE VIRTUAL TABLE IF NOT EXISTS ${table} USING vec0(brain_uid text partition key, embedding float[${identity.dims}] distance_metric=cosine);
CREATE TRIGGER IF NOT EXISTS ${table}_forget BEFORE DELETE ON ${parent}
BEGIN
  UPDATE ${table} SET embedding = ${zero} WHERE rowid = OLD.n;
  DELETE FROM ${table} WHERE rowid = OLD.n;
END;`);
  }
  return m;
}

/** Stores vectors (and which model made them) for Records or Memories, replacing any earlier ones. */
export function putVectors(
  store: Store,
  m: VectorModel,
  owner: VectorOwner,
  rows: ReadonlyArray<{ n: number; brainUid: string; vector: Float32Array }>,
): void {
  const table = tableOf(m, owner);
  for (const r of rows) {
    store.run(`DELETE FROM ${table} WHERE rowid = ?`, r.n);
    store.run(
      `INSERT INTO ${table} (rowid, brain_uid, embedding) VALUES (?, ?, ?)`,
      BigInt(r.n),
      r.brainUid,
      Buffer.from(r.vector.buffer, r.vector.byteOffset, r.vector.byteLength),
    );
    store.run(
      'INSERT OR IGNORE INTO embeddings (owner, owner_n, model_id) VALUES (?, ?, ?)',
      owner,
      r.n,
      m.id,
    );
  }
}

/** The k nearest vectors of one Brain, nearest first (distance = 1 - cosine). */
export function nearest(
  store: Store,
  m: VectorModel,
  owner: VectorOwner,
  brainUid: string,
  vector: Float32Array,
  k: number,
): Array<{ n: number; distance: number }> {
  return store.all<{ n: number; distance: number }>(
    `SELECT rowid AS n, distance FROM ${tableOf(m, owner)} WHERE embedding MATCH ? AND k = ? AND brain_uid = ?`,
    Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength),
    k,
    brainUid,
  );
}
