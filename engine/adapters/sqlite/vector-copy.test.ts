import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { openStore, type Store } from './store.ts';
import { createRetrievalIndexer } from '../../retrieve/retrieval-indexer.ts';
import { sqliteIndexQueue } from './index-queue.ts';
import { createTurnCopies } from './turn-copies.ts';
import { createVectorCopy } from './vector-copy.ts';
import {
  createSqliteVectorIndex,
  nearestInSqlite,
  type SqliteVectorIndex,
  type VectorModel,
} from './vector-index.ts';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const now = '2024-01-01T00:00:00.000Z';
const key = 'vector-copy-test-key';
const brains = ['brn_a', 'brn_b'] as const;

/** An encrypted store with two Brains, `perBrain` Records each (n = 1000·brain + slot + 1). */
function encryptedStore(
  perBrain: number,
  dims: number,
): { store: Store; dir: string; m: VectorModel; vi: SqliteVectorIndex } {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-vcopy-'));
  dirs.push(dir);
  const store = openStore({ dataDir: dir, key });
  for (const [b, uid] of brains.entries()) {
    store.run(
      "INSERT INTO brains (uid, project, env, id, created_at) VALUES (?, 'p', 'test', ?, ?)",
      uid,
      uid,
      now,
    );
    for (let s = 0; s < perBrain; s++) insertRecord(store, recordN(b, s), uid);
  }
  const vi = createSqliteVectorIndex(store, { now: () => now });
  const m = store.tx(() => vi.sync.model({ provider: 'test', model: 'copy', dims }));
  return { store, dir, m, vi };
}

const recordN = (brain: number, slot: number) => 1000 * brain + slot + 1;

/** Vectors v(0) .. v(count - 1) for the first Brain's first `count` Records. */
function putFirstSlots(
  vi: SqliteVectorIndex,
  m: VectorModel,
  count: number,
  v: (slot: number) => Float32Array,
): void {
  vi.sync.put(
    m,
    'record',
    Array.from({ length: count }, (_, s) => ({ n: recordN(0, s), brainUid: 'brn_a', vector: v(s) })),
  );
}

function insertRecord(store: Store, n: number, brainUid: string): void {
  store.run(
    `INSERT INTO records (n, id, brain_uid, seq, kind, content, text, trust, visibility, occurred_at, occurred_ms, created_at)
     VALUES (?, ?, ?, ?, 'fact', '{}', 'x', 'high', 'shareable', ?, 0, ?)`,
    n,
    `rec_${n}`,
    brainUid,
    n,
    now,
    now,
  );
}

/** Every search the semantic lane could make, answered by the copy and by vec0: they must be equal. */
function assertSameAsVec0(store: Store, vi: SqliteVectorIndex, m: VectorModel, query: Float32Array): void {
  for (const brain of brains)
    for (const k of [1, 3, 10, 50, 300]) {
      const ours = vi.sync.nearest(m, 'record', brain, query, k);
      const theirs = nearestInSqlite(store, m, 'record', brain, query, k);
      assert.deepEqual(ours, theirs, `${brain} k=${k}`);
    }
}

describe('in-memory vector copies', () => {
  it('match vec0 (rowids, order, distances) through random writes, forgets, rollbacks and foreign writes', () => {
    const dims = 6;
    // Components in -2..2: few distinct directions, so equal distances (ties) are everywhere. A vector
    // of zeros now and then: storing one deletes the row (it has no direction).
    const vector = fc.oneof(
      { arbitrary: fc.constant(new Float32Array(dims)), weight: 1 },
      {
        arbitrary: fc
          .array(fc.integer({ min: -2, max: 2 }), { minLength: dims, maxLength: dims })
          .map((xs) => Float32Array.from(xs)),
        weight: 9,
      },
    );
    const slot = fc.integer({ min: 0, max: 11 });
    const brain = fc.integer({ min: 0, max: 1 });
    const items = fc.array(fc.record({ brain, slot, vector }), { minLength: 1, maxLength: 25 });
    // Mostly writes through the index and searches, so most catch-ups replay the journal; forgets and
    // foreign writes (which force a reload) now and then.
    const op = fc.oneof(
      {
        arbitrary: fc.record({
          t: fc.constant('put' as const),
          items,
          rollback: fc.integer({ min: 0, max: 4 }).map((i) => i === 0),
        }),
        weight: 6,
      },
      { arbitrary: fc.record({ t: fc.constant('query' as const), vector }), weight: 4 },
      { arbitrary: fc.record({ t: fc.constant('foreign' as const), items }), weight: 1 },
      {
        arbitrary: fc.record({
          t: fc.constant('forget' as const),
          brain,
          slots: fc.array(slot, { maxLength: 4 }),
        }),
        weight: 1,
      },
      { arbitrary: fc.record({ t: fc.constant('sync' as const) }), weight: 1 },
    );
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 30 }), vector, (ops, finalQuery) => {
        const { store, dir, m, vi } = encryptedStore(12, dims);
        // Another connection to the same file (another process, as far as the copies can tell).
        const foreign = openStore({ dataDir: dir, key });
        const foreignIndex = createSqliteVectorIndex(foreign, { now: () => now });
        try {
          for (const o of ops) {
            if (o.t === 'put') {
              const rows = o.items.map((x) => ({
                n: recordN(x.brain, x.slot),
                brainUid: brains[x.brain]!,
                vector: x.vector,
              }));
              try {
                store.tx(() => {
                  vi.sync.put(m, 'record', rows);
                  if (o.rollback) throw new Error('rolled back');
                });
              } catch (e) {
                if (!o.rollback) throw e;
              }
            } else if (o.t === 'foreign') {
              foreign.tx(() =>
                foreignIndex.sync.put(
                  m,
                  'record',
                  o.items.map((x) => ({
                    n: recordN(x.brain, x.slot),
                    brainUid: brains[x.brain]!,
                    vector: x.vector,
                  })),
                ),
              );
            } else if (o.t === 'forget') {
              // Forgotten, and written again empty (a later put may give it a vector again).
              store.tx(() => {
                for (const s of new Set(o.slots)) {
                  const n = recordN(o.brain, s);
                  store.run('DELETE FROM records WHERE n = ?', n);
                  insertRecord(store, n, brains[o.brain]!);
                }
              });
            } else if (o.t === 'sync') vi.refresh();
            else assertSameAsVec0(store, vi, m, o.vector);
          }
          assertSameAsVec0(store, vi, m, finalQuery);
        } finally {
          vi.release();
          foreign.close();
          store.close();
        }
      }),
      { numRuns: 40 },
    );
  });

  it('keep vec0 order among equal distances across chunks, after deletions in the middle', () => {
    const dims = 4;
    const { store, m, vi } = encryptedStore(0, dims);
    // 2,600 Records over three vec0 chunks (1,024 each), 27 distinct directions: long runs of ties.
    const rows = Array.from({ length: 2600 }, (_, i) => ({
      n: i + 1,
      brainUid: 'brn_a',
      vector: Float32Array.from([(i % 3) - 1, ((i / 3) | 0) % 3, (((i / 9) | 0) % 3) - 1, 1]),
    }));
    store.tx(() => {
      for (const r of rows) insertRecord(store, r.n, 'brn_a');
      vi.sync.put(m, 'record', rows);
    });
    const query = Float32Array.from([0, 1, 0, 1]);
    for (const k of [1, 10, 100, 500]) {
      assert.deepEqual(
        vi.sync.nearest(m, 'record', 'brn_a', query, k),
        nearestInSqlite(store, m, 'record', 'brn_a', query, k),
      );
    }
    store.tx(() => store.run('DELETE FROM records WHERE n % 7 = 0 OR n BETWEEN 1000 AND 1100'));
    for (const k of [1, 10, 100, 500])
      assert.deepEqual(
        vi.sync.nearest(m, 'record', 'brn_a', query, k),
        nearestInSqlite(store, m, 'record', 'brn_a', query, k),
      );
    store.close();
  });

  it('a store whose delete trigger predates the versions gets the new trigger when the model loads', () => {
    const dims = 8;
    const { store, m, vi } = encryptedStore(4, dims);
    // The trigger as stores had it before: it deletes (zeroing left out here) but moves no version.
    store.db.exec(`DROP TRIGGER ${m.recordTable}_forget;
CREATE TRIGGER ${m.recordTable}_forget BEFORE DELETE ON records
BEGIN
  DELETE FROM ${m.recordTable} WHERE rowid = OLD.n;
END;`);
    const v = (i: number) => Float32Array.from({ length: dims }, (_, j) => Math.cos(i * 5 + j));
    putFirstSlots(vi, m, 4, v);
    // What a later start does: a fresh index ensures the model again.
    store.tx(() =>
      createSqliteVectorIndex(store, { now: () => now }).sync.model({
        provider: 'test',
        model: 'copy',
        dims,
      }),
    );
    assert.equal(vi.sync.nearest(m, 'record', 'brn_a', v(1), 1)[0]!.n, recordN(0, 1));
    store.tx(() => store.run('DELETE FROM records WHERE n = ?', recordN(0, 1)));
    assert.deepEqual(
      vi.sync.nearest(m, 'record', 'brn_a', v(1), 4),
      nearestInSqlite(store, m, 'record', 'brn_a', v(1), 4),
    );
    assert.equal(vi.sync.nearest(m, 'record', 'brn_a', v(1), 4).length, 3);
    store.close();
  });

  it('read-your-write: a vector committed after the copy loaded is found without a reload', () => {
    const dims = 8;
    const { store, m, vi } = encryptedStore(10, dims);
    const v = (i: number) => Float32Array.from({ length: dims }, (_, j) => Math.sin(i * 7 + j));
    putFirstSlots(vi, m, 9, v);
    assert.equal(vi.sync.nearest(m, 'record', 'brn_a', v(9), 1)[0]!.n !== recordN(0, 9), true);
    const loaded = vi.usage();
    assert.equal(loaded.vectors, 9);
    vi.sync.put(m, 'record', [{ n: recordN(0, 9), brainUid: 'brn_a', vector: v(9) }]);
    assert.equal(vi.sync.nearest(m, 'record', 'brn_a', v(9), 1)[0]!.n, recordN(0, 9));
    assert.equal(vi.usage().vectors, 10);
    assert.equal(vi.usage().loads, loaded.loads, 'caught up from the journal, not reloaded');
    // A write that rolled back leaves the copy exact, and the next committed write still replays.
    assert.throws(() =>
      store.tx(() => {
        vi.sync.put(m, 'record', [{ n: recordN(0, 0), brainUid: 'brn_a', vector: v(9) }]);
        throw new Error('rolled back');
      }),
    );
    vi.sync.put(m, 'record', [{ n: recordN(0, 1), brainUid: 'brn_a', vector: new Float32Array(dims) }]);
    assert.deepEqual(
      vi.sync
        .nearest(m, 'record', 'brn_a', v(9), 20)
        .map((h) => h.n)
        .sort(),
      [0, 2, 3, 4, 5, 6, 7, 8, 9].map((s) => recordN(0, s)).sort(),
    );
    assert.equal(vi.usage().loads, loaded.loads);
    store.close();
  });

  it('a forget drops the stale copy at once (zeroed), and the next search reloads it without the vector', () => {
    const dims = 8;
    const { store, m, vi } = encryptedStore(5, dims);
    const v = (i: number) => Float32Array.from({ length: dims }, (_, j) => Math.cos(i * 3 + j));
    putFirstSlots(vi, m, 5, v);
    assert.equal(vi.sync.nearest(m, 'record', 'brn_a', v(2), 1)[0]!.n, recordN(0, 2));
    store.tx(() => store.run('DELETE FROM records WHERE n = ?', recordN(0, 2)));
    vi.refresh();
    const usage = vi.usage();
    assert.deepEqual([usage.copies, usage.vectors, usage.bytes], [0, 0, 0]);
    const after = vi.sync.nearest(m, 'record', 'brn_a', v(2), 5).map((h) => h.n);
    assert.equal(after.length, 4);
    assert.ok(!after.includes(recordN(0, 2)));
    // Released (the engine is closing): zeroed, and a search still in flight loads no new copy.
    vi.sync.nearest(m, 'record', 'brn_a', v(2), 5);
    assert.equal(vi.usage().copies, 1);
    vi.release();
    assert.deepEqual(
      vi.sync.nearest(m, 'record', 'brn_a', v(2), 5).map((h) => h.n),
      after,
    );
    assert.equal(vi.usage().copies, 0);
    // Deleting the Brain takes its version rows with it.
    store.tx(() => store.run("DELETE FROM brains WHERE uid = 'brn_a'"));
    assert.equal(store.get("SELECT 1 FROM vector_versions WHERE brain_uid = 'brn_a'"), undefined);
    assert.deepEqual(vi.sync.nearest(m, 'record', 'brn_a', v(2), 5), []);
    store.close();
  });
});

describe('the retrieval indexer', () => {
  it('drops the copies a forget made stale whenever it is kicked (after every write), before any search', async () => {
    const dims = 8;
    const { store, m, vi } = encryptedStore(3, dims);
    const v = (i: number) => Float32Array.from({ length: dims }, (_, j) => Math.sin(i + j));
    putFirstSlots(vi, m, 3, v);
    vi.sync.nearest(m, 'record', 'brn_a', v(0), 3);
    const indexer = createRetrievalIndexer({
      queue: sqliteIndexQueue(store, { vectors: vi, turns: createTurnCopies(store) }),
      logger: { warn() {}, error() {} },
    });
    indexer.kick();
    assert.equal(vi.usage().copies, 1, 'nothing stale: kept');
    store.tx(() => store.run('DELETE FROM records WHERE n = ?', recordN(0, 1)));
    indexer.kick();
    assert.equal(vi.usage().copies, 0);
    await indexer.close();
    store.close();
  });
});

describe('VectorCopy', () => {
  const bytesOf = (xs: number[]) => Uint8Array.from(xs.map((x) => x & 0xff));

  it('overwrites a removed vector with zeros, and zeroes its memory when it grows or is disposed', () => {
    const copy = createVectorCopy(3, 16);
    const initialBytes = copy.bytes;
    assert.ok(initialBytes > 0);
    const secret = bytesOf([77, -55, 33]);
    const other = bytesOf([-9, 8, -7]);
    copy.set(2, bytesOf([1, 2, 3]), 1, 0);
    copy.set(4, other, 1, 1);
    copy.set(1, secret, 1, 2);
    const held = copy.heldMemory();
    const contains = (mem: Uint8Array, v: Uint8Array) =>
      mem.some((_, i) => v.every((b, j) => mem[i + j] === b));
    assert.ok(contains(held, secret), 'stored (sanity check)');
    copy.remove(1);
    assert.ok(!contains(held, secret), 'removed bytes (the last slot) zeroed');
    // Removed from the middle: the last slot moves into the hole and leaves no second copy behind.
    copy.remove(2);
    assert.equal(
      held.reduce((c, _, i) => c + (other.every((b, j) => held[i + j] === b) ? 1 : 0), 0),
      1,
    );
    assert.deepEqual(
      copy.nearest(bytesOf([1, 2, 3]), 5).map((h) => h.n),
      [4],
    );
    copy.set(3, secret, 1, 2);
    for (let i = 10; i < 40; i++) copy.set(i, bytesOf([i, 1, 1]), 1, i);
    assert.ok(
      held.every((b) => b === 0),
      'the memory outgrown was zeroed',
    );
    const grown = copy.heldMemory();
    assert.ok(contains(grown, secret));
    assert.ok(copy.bytes > initialBytes, 'what it holds follows growth');
    copy.dispose();
    assert.equal(copy.bytes, 0);
    assert.ok(
      grown.every((b) => b === 0),
      'disposed memory zeroed',
    );
  });

  it('ranks by L2 exactly like a direct computation, ties by vec0 position, at any width', () => {
    const case_ = fc.integer({ min: 1, max: 70 }).chain((dims) => {
      const v = fc.array(fc.integer({ min: -127, max: 127 }), { minLength: dims, maxLength: dims });
      return fc.record({
        dims: fc.constant(dims),
        // Few distinct components in some cases, so that equal distances happen.
        vectors: fc.oneof(
          fc.array(v, { minLength: 1, maxLength: 200 }),
          fc.array(fc.array(fc.constantFrom<number>(-127, 0, 127), { minLength: dims, maxLength: dims }), {
            minLength: 1,
            maxLength: 200,
          }),
        ),
        query: v,
        k: fc.integer({ min: 1, max: 250 }),
      });
    });
    fc.assert(
      fc.property(case_, ({ dims, vectors, query, k }) => {
        const copy = createVectorCopy(dims, 8);
        vectors.forEach((v, i) => copy.set(i + 1, bytesOf(v), 1 + (i >> 6), i & 63));
        const expected = vectors
          .map((v, i) => ({
            n: i + 1,
            l2: Math.fround(Math.sqrt(v.reduce((s, x, j) => s + (x - query[j]!) ** 2, 0))),
            tie: (1 + (i >> 6)) * 1e6 - (i & 63),
          }))
          .sort((a, b) => a.l2 - b.l2 || a.tie - b.tie)
          .slice(0, k)
          .map(({ n, l2 }) => ({ n, l2 }));
        assert.deepEqual(copy.nearest(bytesOf(query), k), expected);
        copy.dispose();
      }),
    );
  });
});
