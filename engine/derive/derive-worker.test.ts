import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { batchTx } from '../adapters/sqlite/batch-tx.ts';
import { sqliteJobQueue } from '../adapters/sqlite/job-queue.ts';
import { openStore, type Store } from '../adapters/sqlite/store.ts';
import { storeFailure } from '../adapters/sqlite/store-failure.ts';
import type { ClaimedJob } from '../ports/index.ts';
import { createDeriveWorker } from './derive-worker.ts';

function store() {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-derive-worker-'));
  const s = openStore({ dataDir: dir, key: null });
  after(() => {
    s.db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  stores.set(s, dir);
  s.run(
    "INSERT INTO brains (uid, project, env, id, created_at) VALUES ('u1', 'p', 'test', 'b', '2024-01-01T00:00:00Z')",
  );
  s.run('CREATE TABLE marks (n INTEGER)');
  return s;
}

const stores = new Map<ReturnType<typeof openStore>, string>();

/** The worker's storage over the SQLite store, as the local engine gives it. */
const over = (s: Store) => ({ queue: sqliteJobQueue(s), transaction: batchTx(s), storeFailure });

const enqueue = (s: ReturnType<typeof store>, count: number) => {
  for (let i = 0; i < count; i++)
    s.run("INSERT INTO derive_queue (brain_uid, job, record_seq) VALUES ('u1', 'rederive', ?)", i);
};

describe('derive worker', () => {
  it('tells onCommitted once a batch that ran jobs has committed, and only then', async () => {
    const s = store();
    const ran: number[] = [];
    const seen: Array<{ inTransaction: boolean; marks: number }> = [];
    const worker = createDeriveWorker({
      ...over(s),
      now: () => Date.now(),
      // Each job writes something the indexer would need to see.
      run: (job) => {
        ran.push(job.n);
        s.run('INSERT INTO marks (n) VALUES (?)', job.n);
      },
      onError: (_job, e) => assert.fail(String(e)),
      onCommitted: () =>
        seen.push({
          inTransaction: s.db.inTransaction,
          marks: s.get<{ n: number }>('SELECT count(*) AS n FROM marks')!.n,
        }),
    });
    after(() => worker.stop());

    worker.kick();
    await new Promise((r) => setImmediate(r));
    assert.equal(seen.length, 0, 'an empty queue commits nothing to announce');

    enqueue(s, 3);
    worker.kick();
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(ran.length, 3);
    assert.ok(seen.length >= 1, 'the batch was announced');
    for (const x of seen) assert.equal(x.inTransaction, false, 'announced after the commit, not inside it');
    assert.equal(seen.at(-1)!.marks, 3, "every job's writes were there to read");
  });

  it('a batch waits for a unit of work open on the store, then runs after it, never inside it', async () => {
    const s = store();
    enqueue(s, 3);
    const ran: Array<{ n: number; unitOpen: boolean }> = [];
    const refused: unknown[] = [];
    let unitOpen = false;
    const worker = createDeriveWorker({
      ...over(s),
      exclusive: (fn) => s.exclusive(fn),
      now: () => Date.now(),
      run: (job) => {
        ran.push({ n: job.n, unitOpen });
        s.run('INSERT INTO marks (n) VALUES (?)', job.n);
      },
      onError: (_job, e) => assert.fail(String(e)),
      onRetry: (e) => refused.push(e),
    });
    after(() => worker.stop());
    const unit = s.unit('write', async () => {
      unitOpen = true;
      worker.kick();
      await new Promise((r) => setTimeout(r, 100));
      unitOpen = false;
    });
    await unit;
    await worker.idle();
    assert.deepEqual(refused, [], 'the batch was not refused for running beside the unit');
    assert.equal(ran.length, 3);
    assert.ok(
      ran.every((r) => !r.unitOpen),
      'no job ran while the unit was open',
    );
  });

  it('a batch the store refuses (another connection wrote meanwhile) is retried whole, not dropped and not thrown', async () => {
    const s = store();
    // A second connection to the same file: what a second process on the data dir did.
    const other = openStore({ dataDir: stores.get(s)!, key: null });
    after(() => other.db.close());
    enqueue(s, 3);
    const ran: number[] = [];
    const dropped: unknown[] = [];
    const retries: Array<{ error: unknown; delayMs: number }> = [];
    let interfered = false;
    const worker = createDeriveWorker({
      ...over(s),
      now: () => Date.now(),
      // The batch reads what its jobs need first, as the engine's does (their Records).
      prepare: () => {
        s.get('SELECT count(*) FROM marks');
        if (!interfered) {
          // The batch's transaction has read already: its first write now fails at once with
          // SQLITE_BUSY_SNAPSHOT (busy_timeout does not help a snapshot that is out of date).
          interfered = true;
          other.run('INSERT INTO marks (n) VALUES (-1)');
        }
      },
      run: (job) => {
        s.run('INSERT INTO marks (n) VALUES (?)', job.n);
        ran.push(job.n);
      },
      onError: (_job, e) => dropped.push(e),
      onRetry: (error, delayMs) => retries.push({ error, delayMs }),
    });
    after(() => worker.stop());
    // A failure out of the worker's setImmediate would be uncaught: the test runner fails the file.
    const uncaught: unknown[] = [];
    const onUncaught = (e: unknown) => uncaught.push(e);
    process.on('uncaughtException', onUncaught);
    process.on('unhandledRejection', onUncaught);
    after(() => {
      process.off('uncaughtException', onUncaught);
      process.off('unhandledRejection', onUncaught);
    });

    worker.kick();
    await worker.idle();
    assert.deepEqual(uncaught, []);
    assert.deepEqual(dropped, [], 'no job was dropped for a failure that was not its own');
    assert.equal(retries.length, 1);
    assert.match(String((retries[0]!.error as { code?: string }).code), /^SQLITE_BUSY/);
    assert.ok(retries[0]!.delayMs > 0);
    assert.equal(s.get<{ n: number }>('SELECT count(*) AS n FROM derive_queue')!.n, 0);
    assert.equal(
      s.get<{ n: number }>('SELECT count(*) AS n FROM marks WHERE n >= 0')!.n,
      3,
      'every job ran, once, after the retry',
    );
  });

  it('a job that fails on its own is dropped and logged; the others run', async () => {
    const s = store();
    enqueue(s, 3);
    const dropped: number[] = [];
    const worker = createDeriveWorker({
      ...over(s),
      now: () => Date.now(),
      run: (job) => {
        if (job.n === 2) throw new Error('a bug in this job');
        s.run('INSERT INTO marks (n) VALUES (?)', job.n);
      },
      onError: (job) => dropped.push(job.n),
      onRetry: (e) => assert.fail(`not a store failure: ${String(e)}`),
    });
    after(() => worker.stop());
    worker.kick();
    await worker.idle();
    assert.deepEqual(dropped, [2]);
    assert.equal(s.get<{ n: number }>('SELECT count(*) AS n FROM derive_queue')!.n, 0);
    assert.equal(s.get<{ n: number }>('SELECT count(*) AS n FROM marks')!.n, 2);
  });

  it('tries a job that failed on its own again, its attempts counted by the queue, then gives it up', async () => {
    const s = store();
    enqueue(s, 3);
    const tries: number[] = [];
    const retried: number[] = [];
    const given: Array<{ n: number; attempts: number }> = [];
    const worker = createDeriveWorker({
      ...over(s),
      now: () => Date.now(),
      jobRetryDelaysMs: [5, 10],
      run: (job) => {
        if (job.n !== 2) return;
        tries.push(job.attempts);
        throw new Error('a bug in this job');
      },
      onJobRetry: (_job, _e, _delay, attempt) => retried.push(attempt),
      onError: (job) => given.push({ n: job.n, attempts: job.attempts }),
      onRetry: (e) => assert.fail(`not a store failure: ${String(e)}`),
    });
    after(() => worker.stop());
    worker.kick();
    await Promise.race([
      worker.idle(),
      new Promise((_, reject) => setTimeout(() => reject(new Error('the job was never given up')), 5_000)),
    ]);
    assert.deepEqual(tries, [0, 1, 2]);
    assert.deepEqual(retried, [1, 2]);
    assert.deepEqual(given, [{ n: 2, attempts: 2 }]);
    assert.equal(s.get<{ n: number }>('SELECT count(*) AS n FROM derive_queue')!.n, 0);
  });

  it('leaves a job whose lease ran out and was claimed again to its new holder: nothing of it commits', async () => {
    const s = store();
    enqueue(s, 2);
    const queue = sqliteJobQueue(s);
    let clock = 0;
    let other: ClaimedJob[] = [];
    const ran: number[] = [];
    let committed!: () => void;
    const batch = new Promise<void>((resolve) => (committed = resolve));
    const worker = createDeriveWorker({
      queue,
      transaction: batchTx(s),
      storeFailure,
      now: () => clock,
      leaseMs: 100,
      // The worker stalls between its claim and its batch, past its lease, and another claims job 1.
      exclusive: async <T>(fn: () => T): Promise<T> => {
        if (clock === 0) {
          clock = 100;
          other = await queue.claim(1, clock, 1_000);
        }
        return fn();
      },
      run: (job) => {
        ran.push(job.n);
        s.run('INSERT INTO marks (n) VALUES (?)', job.n);
      },
      onError: (_job, e) => assert.fail(String(e)),
      onJobRetry: (_job, e) => assert.fail(String(e)),
      onRetry: (e) => assert.fail(String(e)),
      onCommitted: () => committed(),
    });
    after(() => worker.stop());
    worker.kick();
    await batch;
    assert.deepEqual(
      other.map((j) => j.n),
      [1],
    );
    assert.deepEqual(ran, [1, 2]);
    assert.deepEqual(s.all('SELECT n FROM marks'), [{ n: 2 }], 'what the late job wrote rolled back');
    assert.deepEqual(s.all('SELECT n FROM derive_queue'), [{ n: 1 }]);
    await queue.complete(other);
    assert.deepEqual(s.all('SELECT n FROM derive_queue'), []);
  });

  it('gives back the jobs a batch claimed but had no time for: the next batch runs them, in order', async () => {
    const s = store();
    enqueue(s, 5);
    const ran: number[] = [];
    const worker = createDeriveWorker({
      ...over(s),
      now: () => Date.now(),
      // Every batch is cut after its first job; a lease left on the others would hold them a minute.
      sliceMs: 0,
      leaseMs: 60_000,
      run: (job) => void ran.push(job.n),
      onError: (_job, e) => assert.fail(String(e)),
    });
    after(() => worker.stop());
    worker.kick();
    await Promise.race([
      worker.idle(),
      new Promise((_, reject) => setTimeout(() => reject(new Error('the unrun jobs stayed leased')), 5_000)),
    ]);
    assert.deepEqual(ran, [1, 2, 3, 4, 5]);
  });

  it('upkeep runs only while no queued job is ready, a queued job first; idle() waits for both', async () => {
    const s = store();
    enqueue(s, 2);
    const order: string[] = [];
    let steps = 0;
    const worker = createDeriveWorker({
      ...over(s),
      now: () => Date.now(),
      run: () => {
        order.push('job');
        // A write while the upkeep has work left: its job still comes before the next upkeep step.
        if (order.length === 2)
          s.run("INSERT INTO derive_queue (brain_uid, job, record_seq) VALUES ('u1', 'rederive', 9)");
      },
      onError: (_job, e) => assert.fail(String(e)),
      upkeep: {
        step: () => {
          steps += 1;
          const queued = s.get<{ n: number }>('SELECT count(*) AS n FROM derive_queue')!.n;
          order.push(`upkeep ${steps} (${queued} queued)`);
          return { ran: 1, changed: 1, more: steps < 3 };
        },
        reset: () => assert.fail('nothing failed'),
      },
    });
    after(() => worker.stop());
    worker.kick();
    await worker.idle();
    assert.deepEqual(order, [
      'job',
      'job',
      'job',
      'upkeep 1 (0 queued)',
      'upkeep 2 (0 queued)',
      'upkeep 3 (0 queued)',
    ]);
  });

  it('runs the upgrade pass slice after slice, without the pause that gathers writes', async () => {
    const s = store();
    let steps = 0;
    const worker = createDeriveWorker({
      ...over(s),
      now: () => Date.now(),
      // A pause this long between slices would outlast the test's timeout.
      gatherMs: 60_000,
      run: () => assert.fail('no job was queued'),
      onError: (_job, e) => assert.fail(String(e)),
      upkeep: {
        step: () => {
          steps += 1;
          return { ran: 1, changed: 1, more: steps < 4 };
        },
        reset: () => assert.fail('nothing failed'),
      },
    });
    after(() => worker.stop());
    worker.kick();
    await Promise.race([
      worker.idle(),
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error('the upgrade pass waited between slices')), 5_000),
      ),
    ]);
    assert.equal(steps, 4);
  });

  it('an upkeep step the store refuses is rolled back and the upkeep starts again from the top', async () => {
    const s = store();
    const other = openStore({ dataDir: stores.get(s)!, key: null });
    after(() => other.db.close());
    let calls = 0;
    let resets = 0;
    const worker = createDeriveWorker({
      ...over(s),
      now: () => Date.now(),
      run: () => assert.fail('no job was queued'),
      onError: (_job, e) => assert.fail(String(e)),
      onRetry: () => {},
      upkeep: {
        step: () => {
          calls += 1;
          s.get('SELECT count(*) FROM marks');
          if (calls === 1) other.run('INSERT INTO marks (n) VALUES (-1)');
          s.run('INSERT INTO marks (n) VALUES (?)', calls);
          return { ran: 1, changed: 1, more: false };
        },
        reset: () => {
          resets += 1;
        },
      },
    });
    after(() => worker.stop());
    worker.kick();
    await worker.idle();
    assert.equal(resets, 1);
    assert.equal(calls, 2, 'stepped again after the pause');
    assert.deepEqual(
      s.all<{ n: number }>('SELECT n FROM marks WHERE n >= 0'),
      [{ n: 2 }],
      'the refused step left nothing',
    );
  });
});
