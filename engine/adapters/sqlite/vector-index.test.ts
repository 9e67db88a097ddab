import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { openStore, type Store } from './store.ts';
import { brainWithRecords } from './testing.ts';
import { createSqliteVectorIndex, int8Scale, quantize, type SqliteVectorIndex } from './vector-index.ts';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const now = '2024-01-01T00:00:00.000Z';
const identity = { provider: 'test', model: 'unit-vectors', dims: 16 };

/** An unencrypted store (so its file can be scanned for vector bytes) with a Brain and n Records. */
function storeWithRecords(n: number): { store: Store; dir: string; vi: SqliteVectorIndex } {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-vec-'));
  dirs.push(dir);
  const store = openStore({ dataDir: dir, key: null });
  brainWithRecords(store, n, now);
  return { store, dir, vi: createSqliteVectorIndex(store, { now: () => now }) };
}

/** A deterministic pseudo-random vector (not unit length: storage normalises). */
function vec(seed: number, dims = identity.dims): Float32Array {
  let a = seed * 2654435761;
  return Float32Array.from({ length: dims }, () => {
    a = (a * 1103515245 + 12345) >>> 0;
    return (a / 2 ** 32 - 0.5) * 3;
  });
}

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! ** 2;
    nb += b[i]! ** 2;
  }
  return dot / Math.sqrt(na * nb);
}

const fileBytes = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.startsWith('mnemo.db'))
    .map((f) => readFileSync(join(dir, f)));

describe('int8 vector index', () => {
  it('quantize stores the direction at a fixed scale, and has nothing for a vector of zeros', () => {
    const int8 = (b: Buffer) => [...new Int8Array(b.buffer, b.byteOffset, b.length)];
    // Unit length first (each component ±1/√8 = ±0.354), then the scale; the length given is irrelevant.
    assert.deepEqual(int8(quantize(Float32Array.from([2, 2, 2, 2, 2, 2, 2, -2]))!), [
      ...Array<number>(7).fill(Math.round(int8Scale / Math.sqrt(8))),
      -Math.round(int8Scale / Math.sqrt(8)),
    ]);
    // Components beyond ±0.5 clip.
    assert.deepEqual(int8(quantize(Float32Array.from([3, -4]))!), [127, -127]);
    assert.equal(quantize(new Float32Array(4)), null);
  });

  it('nearest ranks by cosine and reports 1 - cosine within quantisation error', () => {
    const { store, vi } = storeWithRecords(40);
    const m = vi.sync.model(identity);
    const vectors = Array.from({ length: 40 }, (_, i) => vec(i + 1));
    vi.sync.put(
      m,
      'record',
      vectors.map((v, i) => ({ n: i + 1, brainUid: 'brn_a', vector: v })),
    );
    const q = vec(1000);
    const hits = vi.sync.nearest(m, 'record', 'brn_a', q, 10);
    const exact = vectors.map((v, i) => ({ n: i + 1, cos: cosine(v, q) })).sort((a, b) => b.cos - a.cos);
    assert.equal(hits.length, 10);
    assert.equal(hits[0]!.n, exact[0]!.n);
    for (const h of hits) {
      const e = exact.find((x) => x.n === h.n)!;
      assert.ok(Math.abs(1 - h.distance - e.cos) < 0.02, `cosine ${1 - h.distance} vs ${e.cos}`);
    }
    assert.deepEqual(vi.sync.nearest(m, 'record', 'brn_other', q, 10), []);
    store.close();
  });

  it('a vector of zeros is recorded as embedded but never found', () => {
    const { store, vi } = storeWithRecords(2);
    const m = vi.sync.model(identity);
    vi.sync.put(m, 'record', [
      { n: 1, brainUid: 'brn_a', vector: new Float32Array(identity.dims) },
      { n: 2, brainUid: 'brn_a', vector: vec(2) },
    ]);
    assert.deepEqual(
      vi.sync.nearest(m, 'record', 'brn_a', vec(3), 5).map((h) => h.n),
      [2],
    );
    assert.equal(
      store.get<{ c: number }>("SELECT count(*) AS c FROM embeddings WHERE owner = 'record'")!.c,
      2,
    );
    store.close();
  });

  it('forgetting or replacing a vector leaves none of its bytes in the file', () => {
    const { store, dir, vi } = storeWithRecords(30);
    const m = vi.sync.model(identity);
    vi.sync.put(
      m,
      'record',
      Array.from({ length: 30 }, (_, i) => ({ n: i + 1, brainUid: 'brn_a', vector: vec(i + 1) })),
    );
    const forgotten = quantize(vec(7))!;
    const replaced = quantize(vec(9))!;
    const kept = quantize(vec(8))!;
    store.checkpoint();
    assert.ok(
      fileBytes(dir).some((b) => b.includes(forgotten)),
      'stored (sanity check)',
    );
    store.tx(() => store.run('DELETE FROM records WHERE n = 7'));
    vi.sync.put(m, 'record', [{ n: 9, brainUid: 'brn_a', vector: vec(99) }]);
    store.checkpoint();
    const files = fileBytes(dir);
    assert.ok(!files.some((b) => b.includes(forgotten)), 'forgotten vector zeroed');
    assert.ok(!files.some((b) => b.includes(replaced)), 'replaced vector zeroed');
    assert.ok(
      files.some((b) => b.includes(kept)),
      'neighbours in the same chunk untouched',
    );
    const ns = vi.sync.nearest(m, 'record', 'brn_a', vec(8), 30).map((h) => h.n);
    assert.equal(ns[0], 8);
    assert.equal(ns.length, 29);
    assert.ok(!ns.includes(7));
    store.close();
  });

  it('drop removes a vector whose text changed (bytes too, loaded copy too) and queues it again', () => {
    const { store, dir, vi } = storeWithRecords(10);
    const m = vi.sync.model(identity);
    vi.sync.put(
      m,
      'record',
      Array.from({ length: 10 }, (_, i) => ({ n: i + 1, brainUid: 'brn_a', vector: vec(i + 1) })),
    );
    // Load the in-memory copy first: it must follow the drop, not keep answering with the old vector.
    assert.equal(vi.sync.nearest(m, 'record', 'brn_a', vec(4), 1)[0]!.n, 4);
    store.run('DELETE FROM index_queue');
    store.tx(() => vi.sync.drop('record', 4, 'brn_a'));
    store.checkpoint();
    assert.ok(!fileBytes(dir).some((b) => b.includes(quantize(vec(4))!)), 'old bytes zeroed');
    assert.ok(!vi.sync.nearest(m, 'record', 'brn_a', vec(4), 10).some((h) => h.n === 4));
    assert.equal(
      store.get("SELECT 1 AS x FROM embeddings WHERE owner = 'record' AND owner_n = 4"),
      undefined,
    );
    assert.deepEqual(store.all('SELECT owner, owner_n FROM index_queue'), [{ owner: 'record', owner_n: 4 }]);
    store.close();
  });

  it('the VectorIndex port writes, searches and drops what the synchronous calls do', async () => {
    const { store, vi } = storeWithRecords(12);
    assert.equal(vi.backend, 'sqlite-vec/int8-l2');
    // A model nothing was stored under has nothing to find, and searching it creates no table.
    assert.deepEqual(await vi.nearest(identity, 'record', 'brn_a', vec(1), 5), []);
    assert.equal(store.get('SELECT 1 FROM embedding_models'), undefined);
    await vi.ensureModel(identity);
    for (let i = 1; i <= 12; i++) await vi.put(identity, 'record', i, 'brn_a', vec(i));
    const m = vi.sync.model(identity);
    const viaPort = await vi.nearest(identity, 'record', 'brn_a', vec(5), 12);
    assert.equal(viaPort[0]!.n, 5);
    assert.deepEqual(viaPort, vi.sync.nearest(m, 'record', 'brn_a', vec(5), 12));
    // Another engine's index over the same tables, with no copy of its own yet, finds the same.
    const other = createSqliteVectorIndex(store, { now: () => now });
    assert.deepEqual(await other.nearest(identity, 'record', 'brn_a', vec(5), 12), viaPort);
    await vi.drop('record', 5, 'brn_a');
    const after = await vi.nearest(identity, 'record', 'brn_a', vec(5), 12);
    assert.equal(after.length, 11);
    assert.ok(!after.some((h) => h.n === 5));
    assert.deepEqual(await other.nearest(identity, 'record', 'brn_a', vec(5), 12), after);
    other.release();
    vi.release();
    store.close();
  });

  it('converts a model stored as float32 (schema 5) to int8 once, keeping every vector and no float bytes', () => {
    const { store, dir, vi } = storeWithRecords(20);
    // What the vector tables were before int8: a float32 cosine table and its zeroing trigger.
    store.run(
      "INSERT INTO embedding_models (id, provider, model, dims, element, created_at) VALUES (1, ?, ?, ?, 'float', ?)",
      identity.provider,
      identity.model,
      identity.dims,
      now,
    );
    store.db.exec(`
CREATE VIRTUAL TABLE vec_record_1 USING vec0(brain_uid text partition key, embedding float[${identity.dims}] distance_metric=cosine);
CREATE TRIGGER vec_record_1_forget BEFORE DELETE ON records
BEGIN
  UPDATE vec_record_1 SET embedding = zeroblob(${identity.dims * 4}) WHERE rowid = OLD.n;
  DELETE FROM vec_record_1 WHERE rowid = OLD.n;
END;
CREATE VIRTUAL TABLE vec_memory_1 USING vec0(brain_uid text partition key, embedding float[${identity.dims}] distance_metric=cosine);`);
    for (let i = 1; i <= 20; i++) {
      store.run(
        'INSERT INTO vec_record_1 (rowid, brain_uid, embedding) VALUES (?, ?, ?)',
        BigInt(i),
        'brn_a',
        Buffer.from(vec(i).buffer),
      );
      store.run("INSERT INTO embeddings (owner, owner_n, model_id) VALUES ('record', ?, 1)", i);
    }
    const floatBytes = Buffer.from(vec(5).buffer);
    const m = store.tx(() => vi.sync.model(identity));
    assert.equal(m.id, 1);
    assert.equal(
      store.get<{ e: string }>('SELECT element AS e FROM embedding_models WHERE id = 1')!.e,
      'int8',
    );
    assert.equal(
      store.get("SELECT 1 FROM sqlite_master WHERE name IN ('vec_record_1', 'vec_memory_1')"),
      undefined,
    );
    assert.equal(store.get("SELECT 1 FROM sqlite_master WHERE name = 'vec_record_1_forget'"), undefined);
    for (let i = 1; i <= 20; i++) assert.equal(vi.sync.nearest(m, 'record', 'brn_a', vec(i), 1)[0]!.n, i);
    // Opening again converts nothing twice.
    createSqliteVectorIndex(store, { now: () => now }).sync.model(identity);
    assert.equal(vi.sync.nearest(m, 'record', 'brn_a', vec(3), 20).length, 20);
    store.checkpoint();
    assert.ok(!fileBytes(dir).some((b) => b.includes(floatBytes)), 'float32 bytes gone with their table');
    store.close();
  });
});
