import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { LeaseLost } from '../../core/derive/queued-job.ts';
import { pgJobQueue } from './job-queue.ts';
import { pgUnitsOfWork } from './unit-of-work.ts';
import { addBrain, addRecord, migratedDatabase, migratedPglite, serverForTests } from './testing/fixtures.ts';
import type { PgClient } from './client.ts';
import type { ClaimedJob } from '../../ports/index.ts';

const db = await migratedPglite();
const jobs = pgJobQueue(db);

/** A Brain with `count` Records, each with its derive job enqueued in a unit of work at its step. */
async function brainWithJobs(client: PgClient, uid: string, count: number): Promise<void> {
  await addBrain(client, uid);
  for (let i = 0; i < count; i++) {
    // The Record before its unit of work: the Records' repository is not over PostgreSQL yet.
    await addRecord(client, uid, `${uid}_rec_${i}`, i + 1);
    await pgUnitsOfWork(client).write(uid, async (w) => {
      const seq = await w.sequence.next();
      await w.jobs.enqueue({ job: 'derive', brainUid: uid, recordId: `${uid}_rec_${i}`, recordSeq: seq });
    });
  }
}

const mine =
  (uid: string) =>
  <J extends { brainUid: string }>(js: J[]) =>
    js.filter((j) => j.brainUid === uid);

describe('the derivation queue over PostgreSQL (JobQueue)', () => {
  it('claims due jobs oldest first and leases them: no claim gets a leased job until the lease ends', async () => {
    await brainWithJobs(db, 'brn_q1', 3);
    const claimed = mine('brn_q1')(await jobs.claim(2, 1_000, 500));
    assert.deepEqual(
      claimed.map((j) => [j.job, j.job === 'derive' ? j.recordId : '', j.recordSeq, j.attempts]),
      [
        ['derive', 'brn_q1_rec_0', 1, 0],
        ['derive', 'brn_q1_rec_1', 2, 0],
      ],
    );
    const second = mine('brn_q1')(await jobs.claim(10, 1_200, 500));
    assert.deepEqual(
      second.map((j) => j.recordSeq),
      [3],
    );
    assert.deepEqual(mine('brn_q1')(await jobs.claim(10, 1_499, 500)), []);
    // The first claim's worker died: at the end of its lease another claim takes its jobs.
    const after = mine('brn_q1')(await jobs.claim(10, 1_500, 500));
    assert.deepEqual(
      after.map((j) => j.recordSeq),
      [1, 2],
    );
    await jobs.complete([...after, ...second]);
    assert.deepEqual(mine('brn_q1')(await jobs.claim(10, 10_000, 500)), []);
    assert.equal(await jobs.oldestPendingSeq('brn_q1'), null);
  });

  it('retry makes a failed job due later with one more attempt; release makes unrun jobs due at once', async () => {
    await brainWithJobs(db, 'brn_q2', 2);
    const [a, b] = mine('brn_q2')(await jobs.claim(10, 20_000, 60_000));
    await jobs.retry(a!, 25_000);
    await jobs.release([b!]);
    const released = mine('brn_q2')(await jobs.claim(10, 20_001, 60_000));
    assert.deepEqual(
      released.map((j) => [j.n, j.attempts]),
      [[b!.n, 0]],
    );
    assert.deepEqual(mine('brn_q2')(await jobs.claim(10, 24_999, 60_000)), []);
    const retried = mine('brn_q2')(await jobs.claim(10, 25_000, 60_000));
    assert.deepEqual(
      retried.map((j) => [j.n, j.attempts]),
      [[a!.n, 1]],
    );
    await jobs.complete([...retried, ...released]);
  });

  it('nextDueMs: the earliest a waiting or leased job becomes claimable; oldestPendingSeq per Brain', async () => {
    await brainWithJobs(db, 'brn_q3', 2);
    await addBrain(db, 'brn_q4');
    assert.equal(await jobs.oldestPendingSeq('brn_q3'), 1);
    assert.equal(await jobs.oldestPendingSeq('brn_q4'), null);
    assert.ok((await jobs.nextDueMs(30_000))! <= 30_000, 'a job due now: claim now');
    const [a, b] = mine('brn_q3')(await jobs.claim(10, 30_000, 1_000));
    assert.equal(await jobs.nextDueMs(30_000), 31_000);
    await jobs.retry(a!, 30_400);
    assert.equal(await jobs.nextDueMs(30_000), 30_400);
    assert.equal(await jobs.oldestPendingSeq('brn_q3'), 1, 'a job claimed is still pending');
    await jobs.complete([b!, ...mine('brn_q3')(await jobs.claim(10, 30_400, 1_000))]);
    assert.equal(await jobs.nextDueMs(30_000), null);
  });

  it('a re-derivation waits for its not-before time and names its Memory', async () => {
    await addBrain(db, 'brn_q5');
    await addRecord(db, 'brn_q5', 'rec_q5');
    await db.transaction(async (tx) => {
      await tx.query(
        "INSERT INTO citations (brain_uid, memory_id, record_id, quote) VALUES ('brn_q5', 'mem_q5', 'rec_q5', 'hi')",
      );
      await tx.query(
        `INSERT INTO memories (brain_uid, id, lineage, version, statement, norm, subject, owner_state, source_key,
                               valid_from, valid_from_ms, status, seq, learned_at, cause)
         VALUES ('brn_q5', 'mem_q5', 'lin_q5', 1, 'hi', 'hi', 'ana', 'self', '', '2026-01-01T00:00:00Z', 0,
                 'active', 1, '2026-01-01T00:00:00Z', 'derived')`,
      );
    });
    await jobs.enqueue({
      job: 'rederive',
      brainUid: 'brn_q5',
      memoryId: 'mem_q5',
      recordSeq: 4,
      notBeforeMs: 50_000,
    });
    assert.deepEqual(mine('brn_q5')(await jobs.claim(10, 49_999, 1_000)), []);
    assert.equal(await jobs.nextDueMs(49_999), 50_000);
    const [j] = mine('brn_q5')(await jobs.claim(10, 50_000, 1_000));
    assert.deepEqual(j, {
      job: 'rederive',
      brainUid: 'brn_q5',
      memoryId: 'mem_q5',
      recordSeq: 4,
      notBeforeMs: 50_000,
      n: j!.n,
      attempts: 0,
      lease: 51_000,
    });
    assert.equal(
      await jobs.oldestPendingSeq('brn_q5'),
      null,
      'only Records waiting for derivation hold a watermark',
    );
    await jobs.complete([j!]);
  });
});

describe("a job is its writer's first (JobAffinity)", () => {
  // By the database's clock from the queuing: long enough that a loaded machine (the suite beside
  // typecheck and lint) still asks within it, as the test needs.
  const othersAfterMs = 2_000;
  const a = pgJobQueue(db, { writer: 'proc_a', othersAfterMs });
  const b = pgJobQueue(db, { writer: 'proc_b', othersAfterMs });

  /** Jobs queued by units of work of process `writer`, as its storage makes them. */
  async function queuedBy(writer: string, uid: string, count: number): Promise<void> {
    await addBrain(db, uid);
    for (let i = 0; i < count; i++) {
      await addRecord(db, uid, `${uid}_rec_${i}`, i + 1);
      await pgUnitsOfWork(db, { writer }).write(uid, async (w) => {
        const seq = await w.sequence.next();
        await w.jobs.enqueue({ job: 'derive', brainUid: uid, recordId: `${uid}_rec_${i}`, recordSeq: seq });
      });
    }
  }

  it('another process claims it only once it has waited othersAfterMs; its writer at once', async () => {
    await queuedBy('proc_a', 'brn_aff1', 2);
    assert.deepEqual(mine('brn_aff1')(await b.claim(10, 40_000, 60_000)), []);
    // Not due for b yet, so b's worker sets a timer rather than claiming in a loop.
    const due = (await b.nextDueMs(40_000))!;
    assert.ok(due > 40_000 && due <= 40_000 + othersAfterMs, `due at ${due}`);
    const own = mine('brn_aff1')(await a.claim(1, 40_000, 60_000));
    assert.equal(own.length, 1);
    await sleep(othersAfterMs + 50);
    assert.ok((await b.nextDueMs(40_000))! <= 40_000, 'due for b now');
    const taken = mine('brn_aff1')(await b.claim(10, 40_000, 60_000));
    assert.deepEqual(
      taken.map((j) => j.recordSeq),
      [2],
    );
    await a.complete(own);
    await b.complete(taken);
  });

  it('a stopping writer hands its unclaimed jobs over at once; a queue with no affinity claims any', async () => {
    await queuedBy('proc_a', 'brn_aff2', 1);
    assert.deepEqual(mine('brn_aff2')(await b.claim(10, 50_000, 60_000)), []);
    await a.handOver();
    const taken = mine('brn_aff2')(await b.claim(10, 50_000, 60_000));
    assert.equal(taken.length, 1);
    await b.complete(taken);
    await queuedBy('proc_a', 'brn_aff3', 1);
    const anyone = mine('brn_aff3')(await jobs.claim(10, 50_000, 60_000));
    assert.equal(anyone.length, 1);
    await jobs.complete(anyone);
  });
});

describe('a lease that ends mid-job (the claim token)', () => {
  it("refuses a late worker's completion after another claim took its job: its unit rolls back, the second claim's stands", async () => {
    await brainWithJobs(db, 'brn_late', 2);
    const [late, lapsed] = mine('brn_late')(await jobs.claim(10, 60_000, 100));
    // The lease ran out mid-job; another worker claims the first job (only), as a claim after it may.
    const [taken] = mine('brn_late')(await jobs.claim(1, 60_100, 100));
    assert.equal(taken?.n, late!.n);
    assert.equal(taken?.lease, 60_200);
    const units = pgUnitsOfWork(db);
    const step = () => units.read('brn_late', (r) => r.sequence.current());
    await assert.rejects(
      units.write('brn_late', async (w) => {
        await w.sequence.next();
        await w.jobs.complete([late!]);
      }),
      LeaseLost,
    );
    assert.equal(await step(), 2, "the late worker's result did not commit");
    // Its retry and release leave the job to the second claim too.
    await jobs.retry(late!, 99_000);
    await jobs.release([late!]);
    const row = await db.query(
      'SELECT leased_until_ms, not_before_ms, attempts FROM derive_jobs WHERE n = $1',
      [late!.n],
    );
    assert.deepEqual(row.rows, [{ leased_until_ms: 60_200, not_before_ms: 0, attempts: 0 }]);
    await units.write('brn_late', async (w) => {
      await w.sequence.next();
      await w.jobs.complete([taken!]);
    });
    assert.equal(await step(), 3);
    // A lease that ended with nobody claiming the job since: its worker still completes it.
    await jobs.complete([lapsed!]);
    assert.equal(await jobs.oldestPendingSeq('brn_late'), null);
    await assert.rejects(jobs.complete([taken!]), LeaseLost, 'a job done is held by no claim');
  });
});

describe('jobs held by a batch (JobQueue.hold)', () => {
  it('are removed with the transaction, in one statement; one taken over before the hold is refused alone', async () => {
    await brainWithJobs(db, 'brn_hold', 3);
    const [j1, j2] = mine('brn_hold')(await jobs.claim(2, 70_000, 1_000));
    const [j3] = mine('brn_hold')(await jobs.claim(1, 70_000, 100));
    // j3's lease ran out and another claim took it before the batch held it.
    const [taken] = mine('brn_hold')(await jobs.claim(10, 70_100, 100));
    assert.equal(taken?.n, j3!.n);
    const deletes: string[] = [];
    const units = pgUnitsOfWork({
      ...db,
      transaction: (work, options) =>
        db.transaction(
          (tx, opened, then) =>
            work(
              {
                query: (sql, params) => {
                  if (/DELETE FROM derive_jobs/.test(sql)) deletes.push(sql);
                  return tx.query(sql, params);
                },
                exec: (sql) => tx.exec(sql),
                finishWith: (script) => {
                  deletes.push(...(script.match(/DELETE FROM derive_jobs/g) ?? []));
                  tx.finishWith!(script);
                },
              },
              opened,
              then,
            ),
          options,
        ),
    });
    const run = (job: ClaimedJob, first: boolean) =>
      units.write(
        'brn_hold',
        async (w) => {
          if (first) await w.jobs.hold([j1!, j2!, j3!]);
          await w.sequence.next();
          await w.jobs.complete([job]);
        },
        { batch: true },
      );
    const outcomes = await Promise.allSettled([run(j1!, true), run(j2!, false), run(j3!, false)]);
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['fulfilled', 'fulfilled', 'rejected'],
    );
    assert.ok(outcomes[2]!.status === 'rejected' && outcomes[2].reason instanceof LeaseLost);
    assert.equal(deletes.length, 1, 'the two held jobs done go in one statement');
    const left = await db.query<{ n: number }>('SELECT n FROM derive_jobs WHERE brain_uid = $1', [
      'brn_hold',
    ]);
    assert.deepEqual(
      left.rows.map((r) => r.n),
      [j3!.n],
      "the job taken over is its new holder's",
    );
    assert.equal(
      await units.read('brn_hold', (r) => r.sequence.current()),
      5,
      'the refused unit took no step',
    );
  });

  it('their removal fails, and its transaction with it, when a held job changed lease', async () => {
    await db.query('SELECT mnemo_held_jobs_kept(0)');
    await assert.rejects(db.query('SELECT mnemo_held_jobs_kept(1)'), /1 held jobs changed lease/);
  });

  it('a unit that fails after completing a held job leaves it queued; the batch commits the others', async () => {
    await brainWithJobs(db, 'brn_hold_fail', 2);
    const [ja, jb] = mine('brn_hold_fail')(await jobs.claim(10, 80_000, 100));
    const units = pgUnitsOfWork(db);
    const [failed, done] = await Promise.allSettled([
      units.write(
        'brn_hold_fail',
        async (w) => {
          await w.jobs.hold([ja!, jb!]);
          await w.jobs.complete([ja!]);
          throw new Error('the job failed after all');
        },
        { batch: true },
      ),
      units.write('brn_hold_fail', (w) => w.jobs.complete([jb!]), { batch: true }),
    ]);
    assert.equal(failed.status, 'rejected');
    assert.equal(done.status, 'fulfilled');
    const left = await db.query<{ n: number }>("SELECT n FROM derive_jobs WHERE brain_uid = 'brn_hold_fail'");
    assert.deepEqual(
      left.rows.map((r) => r.n),
      [ja!.n],
    );
  });

  it('a held job its own transaction removed with its Record is done: the batch commits', async () => {
    await brainWithJobs(db, 'brn_hold_gone', 2);
    const [ja, jb] = mine('brn_hold_gone')(await jobs.claim(10, 90_000, 100));
    const units = pgUnitsOfWork(db);
    const outcomes = await Promise.allSettled([
      units.write(
        'brn_hold_gone',
        async (w) => {
          await w.jobs.hold([ja!, jb!]);
          // The job's Record goes, and the job with it (its foreign key cascades).
          await w.records.remove(['brn_hold_gone_rec_0']);
          await w.jobs.complete([ja!]);
        },
        { batch: true },
      ),
      units.write('brn_hold_gone', (w) => w.jobs.complete([jb!]), { batch: true }),
    ]);
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['fulfilled', 'fulfilled'],
    );
    assert.equal(await jobs.oldestPendingSeq('brn_hold_gone'), null);
  });
});

const server = await serverForTests();
describe('the derivation queue shared by several processes', { skip: server.skip }, () => {
  it('workers claiming at once each get different jobs, and every job is claimed once', async () => {
    const clients = await migratedDatabase(server.cluster(), 4, 3);
    const total = 120;
    await addBrain(clients[0]!, 'brn_w');
    for (let i = 0; i < total; i++) await addRecord(clients[0]!, 'brn_w', `rec_${i}`, i + 1);
    await clients[0]!.query(
      "INSERT INTO derive_jobs (brain_uid, job, record_id, record_seq) SELECT 'brn_w', 'derive', id, seq FROM records ORDER BY seq",
    );
    // Every pool's connections open first: on a loaded machine the first pool, connected already, could
    // otherwise claim every job before the others had a connection.
    await Promise.all(clients.flatMap((c) => [0, 1, 2].map(() => c.query('SELECT pg_sleep(0.05)'))));
    const got: number[][] = clients.map(() => []);
    await Promise.all(
      clients.flatMap((c, ci) =>
        [0, 1, 2].map(async () => {
          const q = pgJobQueue(c);
          for (;;) {
            const claimed = await q.claim(3, 1_000, 60_000);
            if (claimed.length === 0) return;
            got[ci]!.push(...claimed.map((j) => j.n));
          }
        }),
      ),
    );
    const all = got.flat().sort((a, b) => a - b);
    assert.equal(new Set(all).size, all.length, 'no job was claimed twice');
    assert.equal(all.length, total);
    assert.ok(
      got.filter((g) => g.length > 0).length >= 2,
      `the work was shared: ${got.map((g) => g.length)}`,
    );
  });

  it("a claim waits for a late worker's completion in flight, and a completion waits for a claim in flight", async () => {
    const [a, b] = await migratedDatabase(server.cluster(), 2, 2);
    await brainWithJobs(a!, 'brn_race', 2);
    const first = pgJobQueue(a!);
    const [one, two] = await first.claim(10, 0, 100);
    // The first worker completes job one while its lease still stands, and has not committed yet: a
    // claim after the lease passes the row by (SKIP LOCKED) and the completion commits.
    let held: ClaimedJob | undefined;
    await pgUnitsOfWork(a!).write('brn_race', async (w) => {
      await w.jobs.complete([one!]);
      [held] = await pgJobQueue(b!).claim(10, 100, 100);
      assert.equal(held?.n, two!.n, 'the row being completed is skipped');
    });
    // Job two, now leased until 200: a third claim is in flight (uncommitted) when the second worker,
    // late, completes it. The completion waits for that claim, then finds its lease and is refused.
    let refused: Promise<unknown> | null = null;
    await b!.transaction(async (tx) => {
      const [again] = await pgJobQueue(tx).claim(10, 200, 100);
      assert.equal(again?.n, two!.n);
      refused = first.complete([held!]).then(
        () => 'completed',
        (e: unknown) => e,
      );
      await sleep(200);
      assert.equal(await Promise.race([refused, 'waiting']), 'waiting', 'the completion waits for the claim');
    });
    assert.ok((await refused!) instanceof LeaseLost);
    assert.equal(await first.oldestPendingSeq('brn_race'), 2, "job two is the second claim's, still pending");
  });

  it('a job held by a batch is passed by every claim until the batch commits, then gone', async () => {
    const [a, b] = await migratedDatabase(server.cluster(), 2, 2);
    await brainWithJobs(a!, 'brn_held', 1);
    const [job] = await pgJobQueue(a!).claim(10, 0, 100);
    await pgUnitsOfWork(a!).write('brn_held', async (w) => {
      await w.jobs.hold([job!]);
      // Long after the lease: the row is locked, so a claim in another process passes it by.
      assert.deepEqual(await pgJobQueue(b!).claim(10, 10_000, 100), []);
      await w.jobs.complete([job!]);
    });
    assert.deepEqual(await pgJobQueue(b!).claim(10, 10_000, 100), []);
    assert.equal(await pgJobQueue(b!).oldestPendingSeq('brn_held'), null);
  });
});
