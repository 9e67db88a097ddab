import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { sqliteJobQueue } from '../adapters/sqlite/job-queue.ts';
import { openStore, type Store } from '../adapters/sqlite/store.ts';
import { storeFailure } from '../adapters/sqlite/store-failure.ts';
import { sqliteUnits } from '../adapters/sqlite/unit-of-work.ts';
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
const over = (s: Store, queue = sqliteJobQueue(s)) => ({
  queue,
  write: sqliteUnits(s, queue).write,
  storeFailure,
});

/** The store's queue, counting how often the worker asks it when its next job is due. */
const askCounted = (s: Store) => {
  const queue = sqliteJobQueue(s);
  let asked = 0;
  const counted = {
    ...queue,
    nextDueMs: (now: number) => {
      asked++;
      return queue.nextDueMs(now);
    },
  };
  return { counted, asked: () => asked };
};

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
      run: async (_uow, job) => {
        ran.push(job.n);
        s.run('INSERT INTO marks (n) VALUES (?)', job.n);
      },
      onError: async (_uow, _job, e) => assert.fail(String(e)),
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
    for (const deadline = Date.now() + 10_000; seen.length === 0 || seen.at(-1)!.marks < 3;) {
      assert.ok(Date.now() < deadline, `the batch was not announced: ran ${ran.length} jobs`);
      await new Promise((r) => setTimeout(r, 5));
    }
    assert.equal(ran.length, 3);
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
      now: () => Date.now(),
      run: async (_uow, job) => {
        ran.push({ n: job.n, unitOpen });
        s.run('INSERT INTO marks (n) VALUES (?)', job.n);
      },
      onError: async (_uow, _job, e) => assert.fail(String(e)),
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

  it('a batch the store refuses (another connection holds the write lock) is retried whole, not dropped and not thrown', async () => {
    const s = store();
    // A second connection to the same file: what a second process on the data dir did. Holding the
    // write lock, it makes the batch's BEGIN fail at once (no busy wait in a test).
    const other = openStore({ dataDir: stores.get(s)!, key: null });
    after(() => other.db.close());
    enqueue(s, 3);
    s.db.pragma('busy_timeout = 0');
    other.db.exec('BEGIN IMMEDIATE');
    const ran: number[] = [];
    const dropped: unknown[] = [];
    const retries: Array<{ error: unknown; delayMs: number }> = [];
    const worker = createDeriveWorker({
      ...over(s),
      now: () => Date.now(),
      run: async (_uow, job) => {
        s.run('INSERT INTO marks (n) VALUES (?)', job.n);
        ran.push(job.n);
      },
      onError: async (_uow, _job, e) => void dropped.push(e),
      onRetry: (error, delayMs) => {
        retries.push({ error, delayMs });
        if (other.db.inTransaction) other.db.exec('COMMIT');
      },
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
    assert.deepEqual(ran, [1, 2, 3], 'every job ran, once, after the retry');
  });

  it('a job the store fails mid-batch goes back with every job after it; none is lost or done twice', async () => {
    const s = store();
    enqueue(s, 3);
    // The file may grow a few pages, not the hundreds job 2 writes: SQLITE_FULL for it alone.
    const pages = s.db.pragma('page_count', { simple: true }) as number;
    s.db.pragma(`max_page_count = ${pages + 8}`);
    const ran: number[] = [];
    const dropped: unknown[] = [];
    const retries: unknown[] = [];
    const worker = createDeriveWorker({
      ...over(s),
      now: () => Date.now(),
      run: async (_uow, job) => {
        ran.push(job.n);
        if (job.n === 2) s.run('INSERT INTO marks (n) VALUES (randomblob(400000))');
        s.run('INSERT INTO marks (n) VALUES (?)', job.n);
      },
      onError: async (_uow, _job, e) => void dropped.push(e),
      onRetry: (e) => {
        retries.push(e);
        s.db.pragma('max_page_count = 1073741823');
      },
    });
    after(() => worker.stop());
    worker.kick();
    await worker.idle();
    assert.deepEqual(dropped, [], "a full disk is not the job's fault");
    assert.equal(retries.length, 1);
    assert.match(String((retries[0] as { code?: string }).code), /^SQLITE_FULL/);
    // A full disk may end the whole transaction (SQLite rolls it back when the statement kept no journal
    // of its own): then job 1 runs again too. Job 3 never runs in the batch that failed.
    assert.equal(ran.filter((n) => n === 3).length, 1, 'job 3 did not run in the batch that failed');
    assert.deepEqual(ran.slice(-2), [2, 3], 'job 3 ran once, after job 2 went through');
    assert.deepEqual(
      s.all<{ n: number }>('SELECT n FROM marks WHERE typeof(n) = ? ORDER BY rowid', 'integer'),
      [{ n: 1 }, { n: 2 }, { n: 3 }],
    );
    assert.equal(s.get<{ n: number }>('SELECT count(*) AS n FROM derive_queue')!.n, 0);
  });

  it('prepares each Brain of a batch once, in the unit of its first job, with all its jobs', async () => {
    const s = store();
    s.run(
      "INSERT INTO brains (uid, project, env, id, created_at) VALUES ('u2', 'p', 'test', 'c', '2024-01-01T00:00:00Z')",
    );
    for (const [i, brain] of ['u1', 'u2', 'u1', 'u2', 'u1'].entries())
      s.run("INSERT INTO derive_queue (brain_uid, job, record_seq) VALUES (?, 'rederive', ?)", brain, i);
    const events: string[] = [];
    const preparedIn = new Map<string, unknown>();
    const worker = createDeriveWorker({
      ...over(s),
      now: () => Date.now(),
      // One batch, however slow the machine: a slice cut short would prepare the rest again.
      sliceMs: 10_000,
      prepare: async (uow, jobs) => {
        preparedIn.set(jobs[0]!.brainUid, uow);
        events.push(`prepare ${jobs[0]!.brainUid}: ${jobs.map((j) => j.n).join(',')}`);
      },
      run: async (uow, job) => {
        const where = uow === preparedIn.get(job.brainUid) ? ' in the prepared unit' : '';
        events.push(`run ${job.brainUid} ${job.n}${where}`);
      },
      onError: async (_uow, _job, e) => assert.fail(String(e)),
    });
    after(() => worker.stop());
    worker.kick();
    await worker.idle();
    assert.deepEqual(events, [
      'prepare u1: 1,3,5',
      'run u1 1 in the prepared unit',
      'prepare u2: 2,4',
      'run u2 2 in the prepared unit',
      'run u1 3',
      'run u2 4',
      'run u1 5',
    ]);
  });

  it('a job that fails on its own is dropped and logged; the others run', async () => {
    const s = store();
    enqueue(s, 3);
    const dropped: number[] = [];
    const worker = createDeriveWorker({
      ...over(s),
      now: () => Date.now(),
      // One quick retry: the default pauses (seconds) are the queue's to keep, not this test's.
      jobRetryDelaysMs: [5],
      run: async (_uow, job) => {
        if (job.n === 2) throw new Error('a bug in this job');
        s.run('INSERT INTO marks (n) VALUES (?)', job.n);
      },
      onError: async (_uow, job) => void dropped.push(job.n),
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
      run: async (_uow, job) => {
        if (job.n !== 2) return;
        tries.push(job.attempts);
        throw new Error('a bug in this job');
      },
      onJobRetry: (_job, _e, _delay, attempt) => retried.push(attempt),
      onError: async (_uow, job) => void given.push({ n: job.n, attempts: job.attempts }),
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
    const units = sqliteUnits(s, queue);
    const worker = createDeriveWorker({
      queue,
      storeFailure,
      now: () => clock,
      leaseMs: 100,
      // The worker stalls between its claim and its batch, past its lease, and another claims job 1
      // (SQLite's claim takes effect when called).
      write: (uid, work, opts) => {
        if (clock === 0) {
          clock = 100;
          void queue.claim(1, clock, 1_000).then((c) => (other = c));
        }
        return units.write(uid, work, opts);
      },
      run: async (_uow, job) => {
        ran.push(job.n);
        s.run('INSERT INTO marks (n) VALUES (?)', job.n);
      },
      onError: async (_uow, _job, e) => assert.fail(String(e)),
      onJobRetry: (_job, e) => assert.fail(String(e)),
      onRetry: (e) => assert.fail(String(e)),
      // The two jobs' units may commit together or one after the other, as they gather.
      onCommitted: () => {
        if (ran.length === 2) committed();
      },
    });
    after(() => worker.stop());
    worker.kick();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      batch,
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`both jobs never committed: ran ${ran.join(', ')}`)),
          10_000,
        );
      }),
    ]).finally(() => clearTimeout(timer));
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
      run: async (_uow, job) => void ran.push(job.n),
      onError: async (_uow, _job, e) => assert.fail(String(e)),
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
      run: async () => {
        order.push('job');
        // A write while the upkeep has work left: its job still comes before the next upkeep step.
        if (order.length === 2)
          s.run("INSERT INTO derive_queue (brain_uid, job, record_seq) VALUES ('u1', 'rederive', 9)");
      },
      onError: async (_uow, _job, e) => assert.fail(String(e)),
      upkeep: {
        step: async () => {
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
      run: async () => assert.fail('no job was queued'),
      onError: async (_uow, _job, e) => assert.fail(String(e)),
      upkeep: {
        step: async () => {
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

  it('writes during a gather wait for it without asking the queue again, then run in one batch', async () => {
    const s = store();
    const { counted, asked } = askCounted(s);
    const batches: number[] = [];
    let ran = 0;
    const worker = createDeriveWorker({
      ...over(s, counted),
      now: () => Date.now(),
      // Long enough that the kicks below land inside it even on a busy machine.
      gatherMs: 1_000,
      // A batch whose first unit ends past its slice sends the rest back to the next batch: on a busy
      // machine that took 20 ms once, which is slicing's business, not this test's.
      sliceMs: 10_000,
      run: async () => {
        ran++;
      },
      onError: async (_uow, _job, e) => assert.fail(String(e)),
      onCommitted: () => batches.push(ran),
    });
    after(() => worker.stop());

    enqueue(s, 1);
    await worker.idle();
    assert.deepEqual(batches, [1], 'the first write after a quiet spell runs at once');
    // The batch emptied the queue: what comes within gatherMs waits for the gather to end.
    const beforeGather = asked();
    enqueue(s, 1);
    worker.kick();
    await new Promise((r) => setImmediate(r));
    assert.equal(asked(), beforeGather + 1, 'the kick that began the gather asked once');
    const beforeKicks = asked();
    for (let i = 0; i < 10; i++) {
      enqueue(s, 1);
      worker.kick();
    }
    assert.equal(asked(), beforeKicks, 'a kick during the gather asks the queue nothing');
    await worker.idle();
    assert.deepEqual(batches, [1, 12], "the gathered writes' jobs ran in one batch");
  });

  it('a kick for a job due now schedules its batch without asking the queue; one taken meanwhile is no harm', async () => {
    const s = store();
    const { counted, asked } = askCounted(s);
    let ran = 0;
    const worker = createDeriveWorker({
      ...over(s, counted),
      now: () => Date.now(),
      run: async () => {
        ran++;
      },
      onError: async (_uow, _job, e) => assert.fail(String(e)),
    });
    after(() => worker.stop());

    enqueue(s, 1);
    worker.kick({ dueNow: true });
    assert.equal(asked(), 0, 'the batch is scheduled without asking when the job is due');
    await worker.idle();
    assert.equal(ran, 1);
    // Another process claimed (here: removed) the job before this one's batch ran: the claim finds
    // nothing, and the worker plans from the queue again.
    await new Promise((r) => setTimeout(r, 50));
    enqueue(s, 1);
    worker.kick({ dueNow: true });
    s.run('DELETE FROM derive_queue');
    await worker.idle();
    assert.equal(ran, 1);
    enqueue(s, 2);
    worker.kick();
    await worker.idle();
    assert.equal(ran, 3, 'the worker runs on');
  });

  it('an upkeep step the store refuses is given up and the upkeep starts again from the top', async () => {
    const s = store();
    const other = openStore({ dataDir: stores.get(s)!, key: null });
    after(() => other.db.close());
    s.db.pragma('busy_timeout = 0');
    let calls = 0;
    let resets = 0;
    const worker = createDeriveWorker({
      ...over(s),
      now: () => Date.now(),
      run: async () => assert.fail('no job was queued'),
      onError: async (_uow, _job, e) => assert.fail(String(e)),
      onRetry: () => {
        if (other.db.inTransaction) other.db.exec('COMMIT');
      },
      upkeep: {
        step: async () => {
          calls += 1;
          // Another connection holds the write lock through the first step.
          if (calls === 1) other.db.exec('BEGIN IMMEDIATE');
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
      s.all<{ n: number }>('SELECT n FROM marks'),
      [{ n: 2 }],
      'the refused step left nothing',
    );
  });
});
