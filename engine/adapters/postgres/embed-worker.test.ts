import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Embedder } from '../../embed/embedder.ts';
import { createHashModel } from '../../embed/hash-model.ts';
import { createWorkerEmbedder } from '../../embed/worker-embedder.ts';
import type { PgClient } from './client.ts';
import { createPgEmbedWorker, type PgEmbedWorkerOptions } from './embed-worker.ts';
import { addBrain, migratedDatabase, migratedPglite, serverForTests } from './testing/fixtures.ts';
import { pglite } from './testing/pglite.ts';
import { insertMemory, insertRecord } from './testing/records.ts';
import { pgVectorIndex, vectorSupport } from './vector-index.ts';

const db = await pglite({ vector: true, migrated: true });
const without = await migratedPglite();

const dims = 32;
const hash = createHashModel(dims);
const model = { provider: 'hash', model: `hash-${dims}`, dims };

/** What the worker logged, by level. */
function logs() {
  const warn: string[] = [];
  const error: string[] = [];
  return { warn, error, logger: { warn: (m: string) => warn.push(m), error: (m: string) => error.push(m) } };
}

/** The real hash embedder in its worker thread, counting the texts it was given. */
async function counting(seen: string[], signal?: AbortSignal): Promise<Embedder> {
  const e = await createWorkerEmbedder({ provider: 'hash', dims }, signal);
  return {
    provider: e.provider,
    model: e.model,
    dims: e.dims,
    embed: (texts) => {
      seen.push(...texts);
      return e.embed(texts);
    },
    close: () => e.close(),
  };
}

const on = { on: true, reason: null };
const worker = (client: PgClient, over: Partial<PgEmbedWorkerOptions> = {}) =>
  createPgEmbedWorker({
    client,
    semantic: on,
    embedder: (signal) => createWorkerEmbedder({ provider: 'hash', dims }, signal),
    logger: logs().logger,
    idleDelayMs: 50,
    retryDelayMs: 20,
    ...over,
  });

const queueSize = async (client: PgClient) =>
  (await client.query<{ c: number }>('SELECT count(*)::int AS c FROM embed_queue')).rows[0]!.c;
const embedded = async (client: PgClient, brainUid: string) =>
  (
    await client.query<{ c: number }>('SELECT count(*)::int AS c FROM embeddings WHERE brain_uid = $1', [
      brainUid,
    ])
  ).rows[0]!.c;
const nearestRecord = async (client: PgClient, brainUid: string, text: string) =>
  (await pgVectorIndex(client).nearest(model, 'record', brainUid, hash.embedOne(text), 1))[0]?.n;

describe("a PostgreSQL process's embedding worker", () => {
  it('embeds what was queued before it started and what is written after, and the index finds it', async () => {
    await addBrain(db, 'brn_w');
    const figs = await insertRecord(db, { brainUid: 'brn_w', id: 'rec_figs', text: 'figs from the market' });
    const l = logs();
    const w = worker(db, { logger: l.logger });
    try {
      assert.ok(w.loading(), 'the embedder loads in the background');
      assert.equal(w.vectorModel(), null);
      await w.idle();
      assert.equal(w.loading(), null);
      assert.deepEqual(w.vectorModel(), model);
      assert.equal(w.embedder()?.model, model.model);
      assert.equal(await queueSize(db), 0);
      assert.equal(await nearestRecord(db, 'brn_w', 'figs'), figs);

      const boat = await insertRecord(db, { brainUid: 'brn_w', id: 'rec_boat', text: 'a boat on the lake' });
      await insertMemory(db, 'brn_w', 'mem_boat', 'rec_boat', 'Ana owns a boat');
      w.kick();
      w.kick();
      await w.idle();
      assert.equal(await nearestRecord(db, 'brn_w', 'lake boat'), boat);
      assert.equal(await embedded(db, 'brn_w'), 3, 'two Records and the Memory');
      assert.deepEqual([l.warn, l.error], [[], []]);
      w.catchUp('brn_w');
    } finally {
      await w.close();
    }
  });

  it("embeds, unkicked, what another process's writes queued", async () => {
    await addBrain(db, 'brn_o');
    const w = worker(db);
    try {
      await w.idle();
      const tea = await insertRecord(db, { brainUid: 'brn_o', id: 'rec_tea', text: 'green tea at noon' });
      const until = performance.now() + 10_000;
      while ((await embedded(db, 'brn_o')) === 0 && performance.now() < until) {
        await new Promise((r) => setTimeout(r, 25));
      }
      assert.equal(await nearestRecord(db, 'brn_o', 'tea'), tea, 'the poll found it');
    } finally {
      await w.close();
    }
  });

  it('without the vector extension discards the queue and loads no embedder', async () => {
    await addBrain(without, 'brn_n');
    await insertRecord(without, { brainUid: 'brn_n', id: 'rec_n', text: 'nothing to embed here' });
    assert.equal(await queueSize(without), 1);
    const semantic = await vectorSupport(without);
    assert.equal(semantic.on, false);
    let loads = 0;
    const l = logs();
    const w = worker(without, {
      semantic,
      embedder: async () => {
        loads++;
        return counting([]);
      },
      logger: l.logger,
    });
    try {
      assert.equal(w.loading(), null);
      await w.idle();
      assert.equal(await queueSize(without), 0);
      await insertRecord(without, { brainUid: 'brn_n', id: 'rec_n2', text: 'nor here' });
      w.kick();
      await w.idle();
      assert.equal(await queueSize(without), 0);
      assert.equal(loads, 0);
      assert.equal(w.embedder(), null);
      assert.equal(w.vectorModel(), null);
      assert.deepEqual([l.warn, l.error], [[], []]);
    } finally {
      await w.close();
    }
  });

  it('without an embedder, or with one that failed to load, discards the queue', async () => {
    await addBrain(db, 'brn_x');
    await insertRecord(db, { brainUid: 'brn_x', id: 'rec_x', text: 'unembedded' });
    const none = worker(db, { embedder: null });
    await none.idle();
    await none.close();
    assert.equal(await queueSize(db), 0);

    await insertRecord(db, { brainUid: 'brn_x', id: 'rec_x2', text: 'unembedded too' });
    const l = logs();
    const failed = worker(db, {
      embedder: () => Promise.reject(new Error('no model file')),
      logger: l.logger,
    });
    await failed.idle();
    await failed.close();
    assert.equal(await queueSize(db), 0);
    assert.deepEqual(l.error, ['embedder failed to load; semantic retrieval is off']);
    assert.equal(await embedded(db, 'brn_x'), 0);
  });

  it('leaves a batch whose embedding failed queued, and embeds it after a pause', async () => {
    await addBrain(db, 'brn_r');
    const seen: string[] = [];
    let calls = 0;
    const l = logs();
    const w = worker(db, {
      embedder: async (signal) => {
        const e = await counting(seen, signal);
        return {
          ...e,
          // Fails the first batch holding this test's Record (others' may be queued again meanwhile).
          embed: (texts) =>
            texts.includes('plums in july') && ++calls === 1
              ? Promise.reject(new Error('worker busy'))
              : e.embed(texts),
          close: () => e.close(),
        };
      },
      logger: l.logger,
    });
    try {
      await w.idle();
      const plums = await insertRecord(db, { brainUid: 'brn_r', id: 'rec_plums', text: 'plums in july' });
      w.kick();
      await w.idle();
      assert.equal(calls, 2, 'tried again');
      assert.equal(seen.filter((t) => t === 'plums in july').length, 1, 'embedded once it was tried again');
      assert.equal(await nearestRecord(db, 'brn_r', 'plums'), plums);
      assert.equal(await queueSize(db), 0);
      assert.deepEqual(l.warn, ['embedding a batch failed; it stays queued and is tried again']);
      assert.deepEqual(l.error, []);
    } finally {
      await w.close();
    }
  });

  it('closes at once while the embedder is still loading, and frees the one that loads later', async () => {
    let closedLate = false;
    let aborted = false;
    const l = logs();
    const w = worker(db, {
      // A load that ignores the abort: close() must not wait for it either way.
      embedder: (signal) =>
        new Promise((resolve) =>
          setTimeout(() => {
            aborted = signal.aborted;
            resolve({
              provider: 'hash',
              model: 'slow',
              dims,
              embed: async (texts) => texts.map((t) => hash.embedOne(t)),
              close: async () => {
                closedLate = true;
              },
            });
          }, 1_000),
        ),
      logger: l.logger,
    });
    const loading = w.loading();
    assert.ok(loading);
    const waiting = w.idle();
    const t0 = performance.now();
    await w.close();
    await waiting;
    assert.ok(performance.now() - t0 < 500, `close() took ${Math.round(performance.now() - t0)} ms`);
    await loading;
    assert.ok(aborted, 'the load was told to stop');
    assert.ok(closedLate, 'the embedder that loaded after close() was closed');
    assert.equal(w.embedder(), null);
    assert.deepEqual([l.warn, l.error], [[], []]);
  });
});

/** Two workers (as two processes) over one queue: every item is embedded, and once. */
async function twoWorkers(clients: [PgClient, PgClient]) {
  const [a, b] = clients;
  await addBrain(a, 'brn_2');
  const n = 300;
  for (let i = 0; i < n; i += 50) {
    await a.query(
      `INSERT INTO records (brain_uid, id, seq, kind, content, text, trust, visibility, occurred_at, occurred_ms, created_at)
       SELECT 'brn_2', 'rec_' || g, 1, 'document', '{}', 'note number ' || g, 'medium', 'shareable',
              '2026-01-01T00:00:00Z', 0, '2026-01-01T00:00:00Z'
       FROM generate_series($1::int, $2::int) g`,
      [i, i + 49],
    );
  }
  const seen: [string[], string[]] = [[], []];
  const workers = clients.map((c, i) =>
    worker(c, { embedder: (signal) => counting(seen[i]!, signal), batchSize: 16 }),
  );
  try {
    await Promise.all(workers.map((w) => w.idle()));
    assert.equal(await queueSize(b), 0);
    assert.equal(await embedded(b, 'brn_2'), n);
    const all = [...seen[0], ...seen[1]];
    assert.equal(all.length, n, `embedded ${all.length} texts for ${n} Records`);
    assert.equal(new Set(all).size, n);
  } finally {
    await Promise.all(workers.map((w) => w.close()));
  }
}

describe('two embedding workers over one database', () => {
  it('on PGlite (one connection): each item once', async () => {
    const copy = await db.clone();
    await copy.query('DELETE FROM embed_queue');
    await twoWorkers([copy, copy]);
  });
});

const server = await serverForTests();
/** The cluster's database, when its PostgreSQL has pgvector (Debian 12's PostgreSQL 15 has not). */
const clusterDb = server.skip ? null : await migratedDatabase(server.cluster(), 2);
const clusterVector = clusterDb ? await vectorSupport(clusterDb[0]!) : null;
const clusterSkip =
  server.skip || (clusterVector?.on ? false : `no pgvector on the cluster: ${clusterVector?.reason}`);

describe('two embedding workers in two processes', { skip: clusterSkip }, () => {
  it('share the queue (SKIP LOCKED): each item embedded once, by either', async () => {
    await twoWorkers([clusterDb![0]!, clusterDb![1]!]);
  });
});
