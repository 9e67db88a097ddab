import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addBrain, migratedPglite } from './testing/fixtures.ts';
import { pglite } from './testing/pglite.ts';
import { insertMemory, insertRecord } from './testing/records.ts';
import { pgVectorIndex, vectorSupport } from './vector-index.ts';

const withVector = await pglite({ vector: true, migrated: true });
const without = await migratedPglite();

const model = { provider: 'test', model: 'eight', dims: 8 };
const vec = (...xs: number[]) => Float32Array.from({ length: 8 }, (_, i) => xs[i] ?? 0);
const cosineDistance = (a: Float32Array, b: Float32Array) => {
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    ab += a[i]! * b[i]!;
    aa += a[i]! * a[i]!;
    bb += b[i]! * b[i]!;
  }
  return 1 - ab / Math.sqrt(aa * bb);
};
const count = async (brainUid: string) =>
  (
    await withVector.query<{ c: number }>('SELECT count(*)::int AS c FROM embeddings WHERE brain_uid = $1', [
      brainUid,
    ])
  ).rows[0]!.c;

// Vectors belong to live rows (put checks): each test makes the Records and Memories it embeds.
let made = 0;
const record = (brainUid: string) =>
  insertRecord(withVector, { brainUid, id: `rec_v${++made}`, text: `record ${made}` });
const memory = async (brainUid: string) => {
  const cited = `rec_v${++made}`;
  await insertRecord(withVector, { brainUid, id: cited, text: `cited ${made}` });
  await insertMemory(withVector, brainUid, `mem_v${made}`, cited, `cited ${made}`);
  return (
    await withVector.query<{ n: number }>('SELECT n FROM memories WHERE brain_uid = $1 AND id = $2', [
      brainUid,
      `mem_v${made}`,
    ])
  ).rows[0]!.n;
};

describe('the vector index over pgvector (VectorIndex)', () => {
  it('without the extension: says why, and every call refuses with the reason', async () => {
    const s = await vectorSupport(without);
    assert.equal(s.on, false);
    assert.match(s.reason ?? '', /vector extension \(pgvector\) is not installed/);
    const index = pgVectorIndex(without);
    await assert.rejects(index.ensureModel(model), /semantic lane does not run here: the vector extension/);
    await assert.rejects(index.nearest(model, 'record', 'b', vec(1), 3), /semantic lane does not run/);
    assert.deepEqual(await vectorSupport(withVector), { on: true, reason: null });
  });

  it('registers a model once, with its own HNSW index over cosine, and refuses a change of width', async () => {
    const index = pgVectorIndex(withVector);
    assert.equal(index.backend, 'pgvector/hnsw-cosine');
    await index.ensureModel(model);
    await pgVectorIndex(withVector).ensureModel(model);
    const models = await withVector.query<{ id: number; dims: number }>(
      "SELECT id, dims FROM embedding_models WHERE provider = 'test' AND model = 'eight'",
    );
    assert.equal(models.rows.length, 1);
    const id = models.rows[0]!.id;
    const def = await withVector.query<{ indexdef: string }>(
      'SELECT indexdef FROM pg_indexes WHERE indexname = $1',
      [`embeddings_hnsw_${id}`],
    );
    assert.match(
      def.rows[0]?.indexdef ?? '',
      /USING hnsw .*vector\(8\).*vector_cosine_ops\).*WHERE \(model_id = \d+\)/,
    );
    await assert.rejects(
      pgVectorIndex(withVector).ensureModel({ ...model, dims: 4 }),
      /changed width \(8 -> 4\)/,
    );
  });

  it('finds the nearest of one Brain and owner, nearest first, at 1 - cosine; zero vectors are stored as none', async () => {
    const index = pgVectorIndex(withVector);
    await addBrain(withVector, 'brn_v1');
    await addBrain(withVector, 'brn_v2');
    const [r1, r2, r3, r6] = [
      await record('brn_v1'),
      await record('brn_v1'),
      await record('brn_v1'),
      await record('brn_v1'),
    ];
    const m4 = await memory('brn_v1');
    const r5 = await record('brn_v2');
    await index.put(model, 'record', r1, 'brn_v1', vec(1, 0));
    await index.put(model, 'record', r2, 'brn_v1', vec(1, 1));
    await index.put(model, 'record', r3, 'brn_v1', vec(0, 1));
    await index.put(model, 'memory', m4, 'brn_v1', vec(1, 0.1));
    await index.put(model, 'record', r5, 'brn_v2', vec(1, 0.05));
    await index.put(model, 'record', r6, 'brn_v1', vec());
    const q = vec(2, 0.2);
    const found = await index.nearest(model, 'record', 'brn_v1', q, 10);
    assert.deepEqual(
      found.map((r) => r.n),
      [r1, r2, r3],
    );
    const expected = [vec(1, 0), vec(1, 1), vec(0, 1)].map((v) => cosineDistance(v, q));
    found.forEach((r, i) => assert.ok(Math.abs(r.distance - expected[i]!) < 1e-6, `${r.distance}`));
    assert.deepEqual(
      (await index.nearest(model, 'memory', 'brn_v1', q, 10)).map((r) => r.n),
      [m4],
    );
    assert.deepEqual(
      (await index.nearest(model, 'record', 'brn_v1', q, 2)).map((r) => r.n),
      [r1, r2],
    );
    assert.equal(await count('brn_v1'), 4, 'the zero vector is not stored');
    // Replaced in place, then by a vector with no direction: gone.
    await index.put(model, 'record', r3, 'brn_v1', vec(2, 0.2));
    assert.equal((await index.nearest(model, 'record', 'brn_v1', q, 1))[0]?.n, r3);
    await index.put(model, 'record', r3, 'brn_v1', vec());
    assert.equal(await count('brn_v1'), 3);
    assert.deepEqual(
      await index.nearest(model, 'record', 'brn_v1', vec(), 3),
      [],
      'a query with no direction',
    );
    assert.deepEqual(await index.nearest({ ...model, model: 'never' }, 'record', 'brn_v1', q, 3), []);
    await assert.rejects(index.put(model, 'record', r1, 'brn_v1', new Float32Array(3)), /3 dimensions/);
  });

  it("drops a Record's vectors under every model", async () => {
    const index = pgVectorIndex(withVector);
    const other = { provider: 'test', model: 'other', dims: 8 };
    await addBrain(withVector, 'brn_v3');
    const [r10, r11, m10] = [await record('brn_v3'), await record('brn_v3'), await memory('brn_v3')];
    await index.put(model, 'record', r10, 'brn_v3', vec(1));
    await index.put(other, 'record', r10, 'brn_v3', vec(1));
    await index.put(model, 'record', r11, 'brn_v3', vec(1));
    await index.put(model, 'memory', m10, 'brn_v3', vec(1));
    await index.drop('record', r10, 'brn_v3');
    assert.deepEqual(
      (await index.nearest(model, 'record', 'brn_v3', vec(1), 5)).map((r) => r.n),
      [r11],
    );
    assert.deepEqual(await index.nearest(other, 'record', 'brn_v3', vec(1), 5), []);
    assert.deepEqual(
      (await index.nearest(model, 'memory', 'brn_v3', vec(1), 5)).map((r) => r.n),
      [m10],
    );
  });

  it('stores no vector for a Record or Memory that is gone (a forget that landed first)', async () => {
    const index = pgVectorIndex(withVector);
    await addBrain(withVector, 'brn_v4');
    const [r, m] = [await record('brn_v4'), await memory('brn_v4')];
    await withVector.query('DELETE FROM memories WHERE brain_uid = $1 AND n = $2', ['brn_v4', m]);
    await withVector.query('DELETE FROM records WHERE brain_uid = $1 AND n = $2', ['brn_v4', r]);
    await index.put(model, 'record', r, 'brn_v4', vec(1));
    await index.put(model, 'memory', m, 'brn_v4', vec(1));
    assert.equal(await count('brn_v4'), 0);
    const live = await record('brn_v4');
    await index.put(model, 'record', live, 'brn_v4', vec(1));
    assert.equal(await count('brn_v4'), 1);
  });

  it("searches through the model's index and still finds k of a Brain behind many nearer ones of others", async () => {
    const index = pgVectorIndex(withVector);
    const wide = { provider: 'test', model: 'wide', dims: 8 };
    await addBrain(withVector, 'brn_crowd');
    await addBrain(withVector, 'brn_few');
    // 400 vectors of another Brain right at the query, 5 of ours further off.
    const values: string[] = [];
    for (let i = 0; i < 400; i++)
      values.push(`('brn_crowd', ${1000 + i}, '[1,${(i % 7) / 100},0,0,0,0,0,${i / 1e4}]')`);
    await index.ensureModel(wide);
    const id = (
      await withVector.query<{ id: number }>("SELECT id FROM embedding_models WHERE model = 'wide'")
    ).rows[0]!.id;
    await withVector.query(
      `INSERT INTO embeddings (brain_uid, owner, owner_n, model_id, embedding)
       SELECT b, 'record', n, ${id}, v::vector FROM (VALUES ${values.join(', ')}) AS t(b, n, v)`,
    );
    const few: number[] = [];
    for (let i = 0; i < 5; i++) few.push(await record('brn_few'));
    for (const [i, n] of few.entries()) await index.put(wide, 'record', n, 'brn_few', vec(1, 1 + i));
    // At a few hundred rows reading the Brain's own vectors by primary key and sorting them is cheaper
    // (the planner's choice for a small Brain): it is told to avoid the sort, so the HNSW path runs.
    await withVector.query('SET enable_sort = off');
    const before = await scans(`embeddings_hnsw_${id}`);
    const found = await index
      .nearest(wide, 'record', 'brn_few', vec(1), 3)
      .finally(() => withVector.query('RESET enable_sort'));
    assert.deepEqual(
      found.map((r) => r.n),
      few.slice(0, 3),
    );
    assert.ok((await scans(`embeddings_hnsw_${id}`)) > before, 'the HNSW index was used');
  });
});

/** How many times an index was scanned (statistics flushed first). */
async function scans(index: string): Promise<number> {
  await withVector.query('SELECT pg_stat_force_next_flush()');
  await withVector.query('SELECT 1');
  const r = await withVector.query<{ s: number }>(
    'SELECT idx_scan::int AS s FROM pg_stat_user_indexes WHERE indexrelname = $1',
    [index],
  );
  return r.rows[0]?.s ?? 0;
}
