import { eligibilitySql } from './eligibility-sql.ts';
import { randomBytes } from 'node:crypto';
import type { Statement } from 'better-sqlite3-multiple-ciphers';
import type { VectorIndex, VectorModelRef } from '../../ports/indexes.ts';
import type { Store } from './store.ts';
import { createVectorCopy, type VectorCopy } from './vector-copy.ts';
import { sqliteBackends } from '../../core/retrieve/backends.ts';

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

/**
 * Which state of a Brain's vectors in a vector table an in-memory copy reflects (see syncedCopy): every
 * change to them, in the same transaction, sets `version` to a fresh 64-bit value, never set before, so a copy
 * whose version still equals the committed one is exact, whatever rolled back in between. A Brain
 * deleted takes its rows with it.
 */
const vectorVersionsSql = `
CREATE TABLE IF NOT EXISTS vector_versions (
  tbl TEXT NOT NULL,
  brain_uid TEXT NOT NULL,
  version INTEGER NOT NULL,
  PRIMARY KEY (tbl, brain_uid)
) WITHOUT ROWID;
CREATE TRIGGER IF NOT EXISTS vector_versions_brain_gone AFTER DELETE ON brains
BEGIN
  DELETE FROM vector_versions WHERE brain_uid = OLD.uid;
END;`;

/**
 * Deleting a Record or Memory moves its Brain's version (if it had a vector here), zeroes the vector in
 * its chunk (zeroVectorSql) and deletes it. The exact text is compared with the stored trigger, so a
 * change here replaces the trigger of existing stores.
 */
const forgetTriggerSql = (table: string, parent: string, dims: number) =>
  `CREATE TRIGGER ${table}_forget BEFORE DELETE ON ${parent}
BEGIN
  INSERT INTO vector_versions (tbl, brain_uid, version)
    SELECT '${table}', OLD.brain_uid, random() WHERE EXISTS (SELECT 1 FROM ${table}_rowids WHERE rowid = OLD.n)
    ON CONFLICT DO UPDATE SET version = excluded.version;
  ${zeroVectorSql(table, dims, 'OLD.n')};
  DELETE FROM ${table} WHERE rowid = OLD.n;
END`;

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
function ensureVectorModel(v: Vectors, identity: VectorModelRef, now: string): VectorModel {
  const { store } = v;
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
  store.db.exec(vectorVersionsSql);
  for (const [table, parent] of [
    [m.recordTable, 'records'],
    [m.memoryTable, 'memories'],
  ] as const) {
    store.db.exec(
      `CREATE VIRTUAL TABLE IF NOT EXISTS ${table} USING vec0(brain_uid text partition key, embedding int8[${identity.dims}] distance_metric=l2)`,
    );
    // Stores written before the in-memory copies have a trigger that does not move the version: replaced.
    const trigger = forgetTriggerSql(table, parent, identity.dims);
    const existing = store.get<{ sql: string }>(
      "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?",
      `${table}_forget`,
    );
    if (existing?.sql !== trigger) {
      store.db.exec(`DROP TRIGGER IF EXISTS ${table}_forget`);
      store.db.exec(trigger);
    }
  }
  if (found?.element === 'float') convertFloatTables(v, m);
  return m;
}

/**
 * Moves a model's float32 vectors (vec_record_<id>, vec_memory_<id>, schema 3-5) into its int8 tables
 * and drops the float tables and their triggers; secure_delete zeroes the freed pages. Quantising a
 * stored vector is what embedding the text again would store, without the model calls.
 */
function convertFloatTables(v: Vectors, m: VectorModel): void {
  const { store } = v;
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
          v,
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
  v: Vectors,
  table: string,
  rows: ReadonlyArray<{ n: number; brainUid: string; vector: Float32Array }>,
  dims: number,
): void {
  const { store } = v;
  const changed = new Map<string, JournalOp[]>();
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
    let ops = changed.get(r.brainUid);
    if (!ops) changed.set(r.brainUid, (ops = []));
    ops.push({ n: r.n, vector: q, position: null });
  }
  for (const [brainUid, ops] of changed) changedVectors(v, table, brainUid, ops);
}

/**
 * Stores vectors (and which model made them) for Records or Memories, replacing any earlier ones. A
 * vector of zeros is recorded as embedded but not stored: it has no direction to be near.
 */
function putVectors(
  v: Vectors,
  m: VectorModel,
  owner: VectorOwner,
  rows: ReadonlyArray<{ n: number; brainUid: string; vector: Float32Array }>,
): void {
  const { store } = v;
  insertVectors(v, tableOf(m, owner), rows, m.dims);
  for (const r of rows)
    store.run(
      'INSERT OR IGNORE INTO embeddings (owner, owner_n, model_id) VALUES (?, ?, ?)',
      owner,
      r.n,
      m.id,
    );
}

/**
 * Removes one Record's or Memory's vectors under every model, bytes zeroed as a forget does, and queues
 * it to be embedded again: its text changed in place (a Memory re-derived in the words of a surviving
 * Record), so the old vector would find it by words that are no longer there, maybe forgotten ones.
 */
function dropVectors(v: Vectors, owner: VectorOwner, n: number, brainUid: string): void {
  const { store } = v;
  for (const m of store.all<{ id: number; dims: number }>('SELECT id, dims FROM embedding_models')) {
    const table = `vec8_${owner}_${m.id}`;
    if (!tableExists(store, table)) continue;
    if (!store.get(`SELECT 1 FROM ${table}_rowids WHERE rowid = ?`, n)) continue;
    store.run(zeroVectorSql(table, m.dims, '?'), n);
    store.run(`DELETE FROM ${table} WHERE rowid = ?`, n);
    changedVectors(v, table, brainUid, [{ n, vector: null, position: null }]);
  }
  store.run('DELETE FROM embeddings WHERE owner = ? AND owner_n = ?', owner, n);
  store.run('INSERT OR REPLACE INTO index_queue (owner, owner_n) VALUES (?, ?)', owner, n);
}

/**
 * The k nearest vectors of one Brain, nearest first (distance = 1 - cosine, of the quantised vectors):
 * vec0's KNN, answered from the Brain's in-memory copy (loaded on first use, see syncedCopy).
 */
function nearest(
  v: Vectors,
  m: VectorModel,
  owner: VectorOwner,
  brainUid: string,
  vector: Float32Array,
  k: number,
): Array<{ n: number; distance: number }> {
  const { store } = v;
  // A search still in flight when the store closes must not load a copy nobody would release.
  if (v.released) return nearestInSqlite(store, m, owner, brainUid, vector, k);
  const q = quantize(vector);
  if (!q) return [];
  return syncedCopy(v, tableOf(m, owner), brainUid, m.dims)
    .nearest(q, k)
    .map((r) => ({ n: r.n, distance: cosineDistance(r.l2) }));
}

/** The same search run by sqlite-vec itself: what the in-memory copies must reproduce. */
export function nearestInSqlite(
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

// ---- In-memory copies of the vectors --------------------------------------------------------------
//
// At 100,000 Records sqlite-vec's KNN takes 12-20 ms (a scalar int8 loop, and each chunk's top k by k
// passes over its 1,024 distances); the same exact scan over an in-memory copy with a WebAssembly SIMD
// kernel takes ~1 ms (docs/decisions/retrieval.md, Latency). A copy per (vector table, Brain), loaded
// on the Brain's first search, kept coherent through vector_versions:
// - this module's writes (putVectors) set a fresh version in their transaction and journal what they
//   changed, under that version and the one it replaced;
// - the delete triggers set a fresh version too (nothing journaled);
// - before a search, the committed version is read. Equal: the copy is exact. Otherwise the journal is
//   replayed if it links the copy's version to the committed one (each link is a version this process
//   set, and a version set in a transaction that rolled back is never set, so never committed, later);
//   if it does not (a deletion, or a write by another connection), the copy is reloaded from vec0's
//   chunks. A replayed entry re-reads nothing: it carries the bytes and vec0 positions it wrote.
// Forgetting: a dropped or reloaded copy is zeroed first; syncVectorCopies (the retrieval indexer's
// kick, after every write and every committed batch of derivation) drops the copies a deletion made
// stale, so forgotten vectors do not stay in memory until the Brain's next search.

interface JournalOp {
  n: number;
  /** The int8 bytes stored, or null when the row was only deleted (a vector with no direction). */
  vector: Buffer | null;
  /** vec0's (chunk_id, chunk_offset) of the stored row, read when a copy is loaded to receive it. */
  position: { chunkId: number; chunkOffset: number } | null;
}

interface CopyState {
  table: string;
  brainUid: string;
  copy: VectorCopy;
  version: bigint | null;
  /** Versions this process set since the copy's, each with the one it replaced and what it changed. */
  journal: Map<bigint, { prev: bigint | null; ops: JournalOp[] }>;
  journalOps: number;
}

/** More journaled changes than this (a bulk import without a search) and a reload is cheaper. */
const journalMaxOps = 50_000;

/** One store's vector tables as one engine sees them: its copies, held by that engine alone. */
interface Vectors {
  store: Store;
  now: () => string;
  /** The models this engine has ensured, by provider and model. */
  models: Map<string, VectorModel>;
  /** By copyKey. */
  copies: Map<string, CopyState>;
  /** The copies were released (closing): searched in vec0 from then on. */
  released: boolean;
  /** How many copies were loaded from vec0 (a first search, or a catch-up the journal could not do). */
  loads: number;
  versionStatement: Statement | null;
}

const copyKey = (table: string, brainUid: string) => `${table}\n${brainUid}`;

function readVersion(v: Vectors, table: string, brainUid: string): bigint | null {
  let st = v.versionStatement;
  if (!st) {
    // 64-bit versions: read as BigInt, which plain numbers would round.
    st = v.store.db
      .prepare('SELECT version FROM vector_versions WHERE tbl = ? AND brain_uid = ?')
      .safeIntegers(true);
    v.versionStatement = st;
  }
  const row = st.get(table, brainUid) as { version: bigint } | undefined;
  return row?.version ?? null;
}

// A version need only never be set twice: counting from a random start per process gives that (two
// processes' runs overlap with odds of ~n / 2^64) without a getrandom call per change.
let lastVersion = randomBytes(8).readBigInt64LE();
const freshVersion = () => (lastVersion = BigInt.asIntN(64, lastVersion + 1n));

/** Called in the transaction that changed a Brain's vectors in `table`: a new version, journaled. */
function changedVectors(v: Vectors, table: string, brainUid: string, ops: JournalOp[]): void {
  const { store } = v;
  const prev = readVersion(v, table, brainUid);
  const version = freshVersion();
  store.run(
    `INSERT INTO vector_versions (tbl, brain_uid, version) VALUES (?, ?, ?)
     ON CONFLICT DO UPDATE SET version = excluded.version`,
    table,
    brainUid,
    version,
  );
  const state = v.copies.get(copyKey(table, brainUid));
  if (!state) return;
  for (const op of ops) {
    if (!op.vector) continue;
    const p = store.get<{ chunkId: number; chunkOffset: number }>(
      `SELECT chunk_id AS chunkId, chunk_offset AS chunkOffset FROM ${table}_rowids WHERE rowid = ?`,
      op.n,
    );
    op.position = p ?? null;
  }
  state.journal.set(version, { prev, ops });
  state.journalOps += ops.length;
  if (state.journalOps > journalMaxOps) dropCopy(v, state);
}

/** Brings a copy to `target` from its journal; false when the journal does not link the two. */
function replay(state: CopyState, target: bigint | null): boolean {
  const chain: JournalOp[][] = [];
  for (let v = target; v !== state.version;) {
    const entry = v === null ? undefined : state.journal.get(v);
    if (!entry || chain.length > state.journal.size) return false;
    if (entry.ops.some((op) => op.vector && !op.position)) return false;
    chain.push(entry.ops);
    v = entry.prev;
  }
  for (const ops of chain.reverse())
    for (const op of ops) {
      if (op.vector && op.position)
        state.copy.set(op.n, op.vector, op.position.chunkId, op.position.chunkOffset);
      else state.copy.remove(op.n);
    }
  state.version = target;
  state.journal.clear();
  state.journalOps = 0;
  return true;
}

function dropCopy(v: Vectors, state: CopyState): void {
  state.copy.dispose();
  state.journal.clear();
  v.copies.delete(copyKey(state.table, state.brainUid));
}

/** Reads a Brain's vectors straight from vec0's chunks (sqlite-vec 0.1.9 layout), in one snapshot. */
function loadCopy(v: Vectors, table: string, brainUid: string, dims: number): CopyState {
  const { store } = v;
  return store.tx(() => {
    const version = readVersion(v, table, brainUid);
    const chunks = store.all<{ chunkId: number; validity: Buffer; rowids: Buffer; vectors: Buffer }>(
      `SELECT c.chunk_id AS chunkId, c.validity, c.rowids, v.vectors FROM ${table}_chunks c
       JOIN ${table}_vector_chunks00 v ON v.rowid = c.chunk_id
       WHERE c.partition00 = ? ORDER BY c.chunk_id`,
      brainUid,
    );
    let live = 0;
    for (const c of chunks) for (const byte of c.validity) live += popcount(byte);
    const copy = createVectorCopy(dims, Math.ceil(live * 1.25) + 64);
    for (const c of chunks) {
      const slots = c.rowids.length / 8;
      for (let i = 0; i < slots; i++) {
        if ((c.validity[i >> 3]! & (1 << (i & 7))) === 0) continue;
        copy.set(
          Number(c.rowids.readBigInt64LE(8 * i)),
          c.vectors.subarray(i * dims, (i + 1) * dims),
          c.chunkId,
          i,
        );
      }
    }
    return { table, brainUid, copy, version, journal: new Map(), journalOps: 0 };
  });
}

function popcount(byte: number): number {
  let c = 0;
  for (let b = byte; b !== 0; b &= b - 1) c++;
  return c;
}

/** The Brain's copy of `table`, exact as of the last committed write (loaded or caught up here). */
function syncedCopy(v: Vectors, table: string, brainUid: string, dims: number): VectorCopy {
  const key = copyKey(table, brainUid);
  let state = v.copies.get(key);
  if (state) {
    const version = readVersion(v, table, brainUid);
    if (version !== state.version && !replay(state, version)) {
      dropCopy(v, state);
      state = undefined;
    }
  }
  if (!state) {
    state = loadCopy(v, table, brainUid, dims);
    v.loads++;
    v.copies.set(key, state);
  }
  return state.copy;
}

/** sqlite-vec's L2 over int8 vectors, read back as cosine; the in-memory copies answer exactly as it does. */
export const sqliteVectorBackend = sqliteBackends.vector;

export interface VectorCopyUsage {
  copies: number;
  vectors: number;
  bytes: number;
  loads: number;
}

/**
 * The port's operations over the store, and their synchronous twins for callers that run inside one
 * of the store's transactions (the retrieval indexer, derivation) until writes go through units of
 * work. The in-memory copies belong to this object: two engines never share one.
 */
export interface SqliteVectorIndex extends VectorIndex {
  readonly sync: {
    /** The model's tables, created on first use (ensureVectorModel), in the caller's transaction. */
    model(identity: VectorModelRef): VectorModel;
    put(
      m: VectorModel,
      owner: VectorOwner,
      rows: ReadonlyArray<{ n: number; brainUid: string; vector: Float32Array }>,
    ): void;
    drop(owner: VectorOwner, n: number, brainUid: string): void;
    nearest(
      m: VectorModel,
      owner: VectorOwner,
      brainUid: string,
      vector: Float32Array,
      k: number,
    ): Array<{ n: number; distance: number }>;
  };
  /**
   * Catches every loaded copy up with its journal and drops (zeroing it) each one a deletion made
   * stale, so what was forgotten leaves memory now rather than at the Brain's next search.
   */
  refresh(): void;
  /** Zeroes and drops every copy, for good (the store is closing); searches go to vec0 from then on. */
  release(): void;
  /**
   * What the copies hold now (vectors, and bytes of WebAssembly memory and per-slot arrays), and how
   * many times a copy was loaded from vec0 so far.
   */
  usage(): VectorCopyUsage;
}

const modelKey = (ref: VectorModelRef) => `${ref.provider}\n${ref.model}`;

/** The store's vector tables; `now` dates a model's registration. */
export function createSqliteVectorIndex(store: Store, o: { now: () => string }): SqliteVectorIndex {
  const v: Vectors = {
    store,
    now: o.now,
    models: new Map(),
    copies: new Map(),
    released: false,
    loads: 0,
    versionStatement: null,
  };
  const model = (identity: VectorModelRef): VectorModel => {
    const known = v.models.get(modelKey(identity));
    if (known && known.dims === identity.dims) return known;
    const m = ensureVectorModel(v, identity, v.now());
    v.models.set(modelKey(identity), m);
    return m;
  };
  /** A model's tables for a search: null for a model nothing was stored under (nothing to find). */
  const searchable = (ref: VectorModelRef): VectorModel | null =>
    v.models.get(modelKey(ref)) ??
    (store.get('SELECT 1 FROM embedding_models WHERE provider = ? AND model = ?', ref.provider, ref.model)
      ? store.tx(() => model(ref))
      : null);
  return {
    backend: sqliteVectorBackend,
    async ensureModel(ref) {
      store.tx(() => model(ref));
    },
    async put(ref, owner, n, brainUid, vector) {
      store.tx(() => putVectors(v, model(ref), owner, [{ n, brainUid, vector }]));
    },
    async drop(owner, n, brainUid) {
      store.tx(() => dropVectors(v, owner, n, brainUid));
    },
    async nearest(ref, owner, brainUid, query, k) {
      const m = searchable(ref);
      return m ? nearest(v, m, owner, brainUid, query, k) : [];
    },
    async cited(_brainUid, memoryNs) {
      return store.all<{ memoryN: number; recordN: number }>(
        `SELECT m.n AS memoryN, r.n AS recordN
           FROM memories m JOIN citations c ON c.memory_id = m.id JOIN records r ON r.id = c.record_id
          WHERE m.n IN (SELECT value FROM json_each(?))`,
        JSON.stringify(memoryNs),
      );
    },
    async inScope(recordNs, scope) {
      const el = eligibilitySql(scope);
      // The neighbours first, each looked up by rowid: left to itself the planner walks the Brain's whole
      // (brain_uid, occurred_ms) index instead (100k Records: 6.6 ms instead of 0.07).
      return store.all<{ n: number; id: string }>(
        `SELECT r.id AS id, r.n AS n FROM json_each(?) j CROSS JOIN records r ON r.n = j.value WHERE ${el.sql}`,
        JSON.stringify(recordNs),
        ...el.params,
      );
    },
    sync: {
      model,
      put: (m, owner, rows) => putVectors(v, m, owner, rows),
      drop: (owner, n, brainUid) => dropVectors(v, owner, n, brainUid),
      nearest: (m, owner, brainUid, vector, k) => nearest(v, m, owner, brainUid, vector, k),
    },
    refresh() {
      for (const state of [...v.copies.values()]) {
        const version = readVersion(v, state.table, state.brainUid);
        if (version !== state.version && !replay(state, version)) dropCopy(v, state);
      }
    },
    release() {
      v.released = true;
      for (const state of [...v.copies.values()]) dropCopy(v, state);
    },
    usage() {
      let vectors = 0;
      let bytes = 0;
      const all = [...v.copies.values()];
      for (const s of all) {
        vectors += s.copy.count;
        bytes += s.copy.bytes;
      }
      return { copies: all.length, vectors, bytes, loads: v.loads };
    },
  };
}
