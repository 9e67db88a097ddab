import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LeaseLost } from '../../core/derive/queued-job.ts';
import type { DeriveJob } from '../../ports/index.ts';
import { sqliteJobQueue } from './job-queue.ts';
import type { Store } from './store.ts';
import { tempStore } from './testing.ts';

/** A store with Brains u1 and u2, Records rec_1..rec_4 and Memory mem_1 (all of u1 but rec_4). */
function seeded(): Store {
  const store = tempStore('mnemo-job-queue-');
  for (const uid of ['u1', 'u2'])
    store.run(
      "INSERT INTO brains (uid, project, env, id, created_at) VALUES (?, 'p', 'test', ?, '2026-01-01T00:00:00Z')",
      uid,
      uid,
    );
  for (const [n, uid] of [
    [1, 'u1'],
    [2, 'u1'],
    [3, 'u1'],
    [4, 'u2'],
  ] as const)
    store.run(
      `INSERT INTO records (n, id, brain_uid, seq, kind, content, text, trust, visibility, occurred_at, occurred_ms, created_at)
       VALUES (?, ?, ?, ?, 'message', '{}', 'hello there', 'medium', 'shareable', '2026-01-01T00:00:00Z', 0, '2026-01-01T00:00:00Z')`,
      n,
      `rec_${n}`,
      uid,
      n,
    );
  store.tx(() => {
    store.run("INSERT INTO citations (memory_id, record_id, quote) VALUES ('mem_1', 'rec_1', 'hello')");
    store.run(
      `INSERT INTO memories (id, brain_uid, lineage, version, statement, norm, subject, owner_state, source_key,
                             valid_from, valid_from_ms, status, seq, learned_at, cause)
       VALUES ('mem_1', 'u1', 'lin_1', 1, 'hello', 'hello', 'ana', 'self', '', '2026-01-01T00:00:00Z', 0,
               'active', 1, '2026-01-01T00:00:00Z', 'derived')`,
    );
  });
  return store;
}

const derive = (n: number, brainUid = 'u1'): DeriveJob & { job: 'derive' } => ({
  job: 'derive',
  brainUid,
  recordId: `rec_${n}`,
  recordSeq: n,
});

describe('the job queue over SQLite (JobQueue)', () => {
  it('hands out jobs due, oldest first, as they were enqueued', async () => {
    const q = sqliteJobQueue(seeded());
    await q.enqueue(derive(1));
    await q.enqueue({ job: 'rederive', brainUid: 'u1', memoryId: 'mem_1', recordSeq: 5, notBeforeMs: 2_000 });
    await q.enqueue(derive(2));
    assert.deepEqual(await q.claim(10, 1_000, 10_000), [
      { job: 'derive', brainUid: 'u1', recordId: 'rec_1', recordSeq: 1, n: 1, attempts: 0, lease: 11_000 },
      { job: 'derive', brainUid: 'u1', recordId: 'rec_2', recordSeq: 2, n: 3, attempts: 0, lease: 11_000 },
    ]);
    assert.deepEqual(await q.claim(10, 2_000, 100), [
      {
        job: 'rederive',
        brainUid: 'u1',
        memoryId: 'mem_1',
        recordSeq: 5,
        notBeforeMs: 2_000,
        n: 2,
        attempts: 0,
        lease: 2_100,
      },
    ]);
  });

  it('keeps a claimed job from other claims until its lease ends, completes it or releases it', async () => {
    const q = sqliteJobQueue(seeded());
    for (const n of [1, 2, 3]) await q.enqueue(derive(n));
    const ns = async (at: number, limit = 10) => (await q.claim(limit, at, 100)).map((j) => j.n);
    assert.deepEqual(await ns(0, 2), [1, 2]);
    assert.deepEqual(await ns(0), [3], 'the leased jobs are not claimed again');
    assert.deepEqual(await ns(50), []);
    const again = await q.claim(10, 100, 100);
    assert.deepEqual(
      again.map((j) => j.n),
      [1, 2, 3],
      'a lease that ended frees its job (a worker that died)',
    );
    await q.complete([again[0]!]);
    await q.release([again[1]!]);
    assert.deepEqual(await ns(150), [2], 'released at once; completed for good');
    assert.deepEqual(await ns(200), [3]);
  });

  it("refuses a late worker's completion after another claim took its job: its transaction rolls back, the second claim's stands", async () => {
    const store = seeded();
    const q = sqliteJobQueue(store);
    for (const n of [1, 2, 3]) await q.enqueue(derive(n));
    const [late, lapsed, gone] = await q.claim(10, 0, 100);
    // The lease ran out mid-job; another worker claims the first job (only), as a claim after it may.
    const [taken] = await q.claim(1, 100, 100);
    assert.deepEqual([taken?.n, taken?.lease], [late!.n, 200]);
    const count = () => store.get<{ c: number }>('SELECT count(*) AS c FROM derive_queue')!.c;
    assert.throws(
      () =>
        store.tx(() => {
          store.run("UPDATE records SET text = 'the late result' WHERE id = 'rec_1'");
          void q.complete([late!]);
        }),
      LeaseLost,
    );
    assert.equal(
      store.get<{ text: string }>("SELECT text FROM records WHERE id = 'rec_1'")!.text,
      'hello there',
    );
    // Its retry and release leave the job to the second claim too.
    await q.retry(late!, 99_000);
    await q.release([late!]);
    assert.deepEqual(await q.claim(10, 99, 100), [], "still the second claim's (the others' still leased)");
    assert.deepEqual(store.get('SELECT not_before_ms, attempts FROM derive_queue WHERE n = ?', late!.n), {
      not_before_ms: 0,
      attempts: 0,
    });
    // A job whose Record was forgotten while it was leased is held by no claim, nor is the job that
    // SQLite then gives its `n`.
    store.run("DELETE FROM records WHERE id = 'rec_3'");
    await q.enqueue(derive(4, 'u2'));
    assert.deepEqual(store.get("SELECT n FROM derive_queue WHERE record_id = 'rec_4'"), { n: gone!.n });
    assert.throws(() => void q.complete([gone!]), LeaseLost);
    assert.deepEqual(
      (await q.claim(10, 99, 100)).map((j) => j.n),
      [gone!.n],
      'the new job is not leased by the old claim',
    );
    await q.complete([taken!]);
    // A lease that ended with nobody claiming the job since: its worker still completes it.
    await q.complete([lapsed!]);
    assert.equal(count(), 1);
    assert.throws(() => void q.complete([taken!]), LeaseLost, 'a job done is held by no claim');
  });

  it('takes a failed job back with one more attempt counted, due when the retry says', async () => {
    const q = sqliteJobQueue(seeded());
    await q.enqueue(derive(1));
    const [job] = await q.claim(1, 0, 1_000);
    await q.retry(job!, 500);
    assert.deepEqual(await q.claim(1, 499, 1_000), [], 'not before it is due');
    assert.equal(await q.nextDueMs(0), 500);
    const [again] = await q.claim(1, 500, 1_000);
    assert.equal(again?.attempts, 1);
    await q.retry(again!, 600);
    assert.equal((await q.claim(1, 600, 1_000))[0]?.attempts, 2);
  });

  it('says when a job is next claimable: due now, delayed, leased, or none', async () => {
    const store = seeded();
    const q = sqliteJobQueue(store);
    assert.equal(await q.nextDueMs(0), null);
    await q.enqueue({ job: 'rederive', brainUid: 'u1', memoryId: 'mem_1', recordSeq: 5, notBeforeMs: 3_000 });
    assert.equal(await q.nextDueMs(1_000), 3_000);
    await q.enqueue(derive(2));
    assert.ok((await q.nextDueMs(1_000))! <= 1_000, 'a job due now');
    await q.claim(10, 1_000, 500);
    assert.equal(await q.nextDueMs(1_000), 1_500, "the derive job's lease ends first");
    // The Record is forgotten while its job is leased: the job goes with it, and nothing waits for it.
    store.run("DELETE FROM records WHERE id = 'rec_2'");
    assert.equal(await q.nextDueMs(1_000), 3_000);
    store.run('DELETE FROM derive_queue');
    assert.equal(await q.nextDueMs(1_000), null);
  });

  it("names the step of a Brain's oldest Record waiting for derivation, leased or not", async () => {
    const q = sqliteJobQueue(seeded());
    assert.equal(await q.oldestPendingSeq('u1'), null);
    await q.enqueue({ job: 'rederive', brainUid: 'u1', memoryId: 'mem_1', recordSeq: 1, notBeforeMs: 0 });
    assert.equal(await q.oldestPendingSeq('u1'), null, 'a Memory derived again holds no Record back');
    await q.enqueue(derive(3));
    await q.enqueue(derive(2));
    await q.enqueue(derive(4, 'u2'));
    const claimed = await q.claim(10, 0, 1_000);
    assert.equal(await q.oldestPendingSeq('u1'), 2);
    assert.equal(await q.oldestPendingSeq('u2'), 4);
    await q.complete(claimed.filter((j) => j.n === 3));
    assert.equal(await q.oldestPendingSeq('u1'), 3);
  });

  it('does its work when called, so a call inside a transaction is part of it and its failure undoes it', async () => {
    const store = seeded();
    const q = sqliteJobQueue(store);
    assert.throws(
      () =>
        store.tx(() => {
          void q.enqueue(derive(1));
          // No such Record: the insert fails in the call itself, not later in a rejected promise.
          void q.enqueue({ ...derive(1), recordId: 'rec_gone' });
        }),
      /FOREIGN KEY/,
    );
    assert.equal(store.get<{ c: number }>('SELECT count(*) AS c FROM derive_queue')!.c, 0);
    store.tx(() => void q.enqueue(derive(1)));
    assert.equal(store.get<{ c: number }>('SELECT count(*) AS c FROM derive_queue')!.c, 1);
  });
});
