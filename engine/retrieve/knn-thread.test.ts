import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { openStore, storeFileName } from '../store/store.ts';
import { createCostLedger } from '../context/cost-ledger.ts';
import { createKnnThread } from './knn-thread.ts';
import { createSemanticLane } from './semantic-lane.ts';
import { ensureVectorModel, nearest, nearestOffThread, putVectors } from './vector-store.ts';

const now = '2024-01-01T00:00:00.000Z';

function vec(seed: number, dims: number): Float32Array {
  let a = seed * 2654435761;
  return Float32Array.from({ length: dims }, () => {
    a = (a * 1103515245 + 12345) >>> 0;
    return a / 2 ** 32 - 0.5;
  });
}

test('the KNN thread reads the encrypted store on its own connection and finds what the main one finds', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-knn-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const key = Buffer.from('00112233445566778899aabbccddeeff', 'hex');
  const store = openStore({ dataDir: dir, key });
  after(() => store.close());
  store.run(
    "INSERT INTO brains (uid, project, env, id, created_at) VALUES ('brn_a', 'p', 'test', 'a', ?)",
    now,
  );
  const dims = 24;
  const m = ensureVectorModel(store, { provider: 'test', model: 'knn-thread', dims }, now);
  const rows = Array.from({ length: 300 }, (_, i) => ({
    n: i + 1,
    brainUid: 'brn_a',
    vector: vec(i + 1, dims),
  }));
  for (const r of rows)
    store.run(
      `INSERT INTO records (n, id, brain_uid, seq, kind, content, text, trust, visibility, occurred_at, occurred_ms, created_at)
       VALUES (?, ?, 'brn_a', ?, 'fact', '{}', 'x', 'high', 'shareable', ?, 0, ?)`,
      r.n,
      `rec_${r.n}`,
      r.n,
      now,
      now,
    );
  store.tx(() => putVectors(store, m, 'record', rows));

  const knn = createKnnThread({ file: join(dir, storeFileName), key });
  after(() => knn.close());
  for (let i = 0; i < 200 && !knn.ready; i++) await new Promise((r) => setTimeout(r, 25));
  assert.ok(knn.ready, 'the thread opened the encrypted file with the Buffer key');

  for (const seed of [1000, 1001, 1002]) {
    const q = vec(seed, dims);
    const here = nearest(store, m, 'record', 'brn_a', q, 20);
    const there = await nearestOffThread(knn, m, 'record', 'brn_a', q, 20);
    assert.equal(there.length, 20);
    assert.deepEqual(there, here);
  }
  // Writes committed on the main connection are seen by the thread's next read.
  const late = { n: 301, brainUid: 'brn_a', vector: vec(1000, dims) };
  store.run(
    `INSERT INTO records (n, id, brain_uid, seq, kind, content, text, trust, visibility, occurred_at, occurred_ms, created_at)
     VALUES (301, 'rec_301', 'brn_a', 301, 'fact', '{}', 'x', 'high', 'shareable', ?, 0, ?)`,
    now,
    now,
  );
  store.tx(() => putVectors(store, m, 'record', [late]));
  const [top] = await nearestOffThread(knn, m, 'record', 'brn_a', vec(1000, dims), 1);
  assert.equal(top!.n, 301);
  // The semantic lane, given the thread, is answered by it, with what it finds on its own.
  const lane = createSemanticLane();
  const input = {
    store,
    query: 'q',
    terms: ['q'],
    eligibility: { brainUid: 'brn_a', excludeLocalOnly: false },
    limit: 10,
    ledger: createCostLedger(),
    queryVector: vec(5, dims),
    vectorModel: m,
    memo: new Map(),
  };
  const before = knn.answered;
  const offThread = await lane.search({ ...input, knn });
  assert.equal(knn.answered, before + 2, 'the Record and Memory scans ran on the thread');
  assert.deepEqual(offThread, await lane.search({ ...input, knn: null }));
  assert.equal(offThread[0]!.recordId, 'rec_5');
  // Only the engine's vector tables can be named.
  await assert.rejects(
    knn.nearest('records; DROP TABLE records', 'brn_a', Buffer.alloc(dims), 1),
    /not a vector table/,
  );
});
