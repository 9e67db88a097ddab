import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pgJobQueue } from './job-queue.ts';
import { pgUnitsOfWork } from './unit-of-work.ts';
import { addBrain, addRecord, migratedDatabase, migratedPglite, serverForTests } from './testing/fixtures.ts';
import type { PgClient } from './client.ts';

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
    await jobs.complete([...after, ...second].map((j) => j.n));
    assert.deepEqual(mine('brn_q1')(await jobs.claim(10, 10_000, 500)), []);
    assert.equal(await jobs.oldestPendingSeq('brn_q1'), null);
  });

  it('retry makes a failed job due later with one more attempt; release makes unrun jobs due at once', async () => {
    await brainWithJobs(db, 'brn_q2', 2);
    const [a, b] = mine('brn_q2')(await jobs.claim(10, 20_000, 60_000));
    await jobs.retry(a!.n, 25_000);
    await jobs.release([b!.n]);
    assert.deepEqual(
      mine('brn_q2')(await jobs.claim(10, 20_001, 60_000)).map((j) => [j.n, j.attempts]),
      [[b!.n, 0]],
    );
    assert.deepEqual(mine('brn_q2')(await jobs.claim(10, 24_999, 60_000)), []);
    assert.deepEqual(
      mine('brn_q2')(await jobs.claim(10, 25_000, 60_000)).map((j) => [j.n, j.attempts]),
      [[a!.n, 1]],
    );
    await jobs.complete([a!.n, b!.n]);
  });

  it('nextDueMs: the earliest a waiting or leased job becomes claimable; oldestPendingSeq per Brain', async () => {
    await brainWithJobs(db, 'brn_q3', 2);
    await addBrain(db, 'brn_q4');
    assert.equal(await jobs.oldestPendingSeq('brn_q3'), 1);
    assert.equal(await jobs.oldestPendingSeq('brn_q4'), null);
    assert.ok((await jobs.nextDueMs(30_000))! <= 30_000, 'a job due now: claim now');
    const [a, b] = mine('brn_q3')(await jobs.claim(10, 30_000, 1_000));
    assert.equal(await jobs.nextDueMs(30_000), 31_000);
    await jobs.retry(a!.n, 30_400);
    assert.equal(await jobs.nextDueMs(30_000), 30_400);
    assert.equal(await jobs.oldestPendingSeq('brn_q3'), 1, 'a job claimed is still pending');
    await jobs.complete([a!.n, b!.n]);
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
    });
    assert.equal(
      await jobs.oldestPendingSeq('brn_q5'),
      null,
      'only Records waiting for derivation hold a watermark',
    );
    await jobs.complete([j!.n]);
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
});
