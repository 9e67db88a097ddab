import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { pgJobQueue } from '../../engine/adapters/postgres/job-queue.ts';
import { storeFailure as pgStoreFailure } from '../../engine/adapters/postgres/store-failure.ts';
import { pgUnitsOfWork } from '../../engine/adapters/postgres/unit-of-work.ts';
import type { PgClient } from '../../engine/adapters/postgres/client.ts';
import {
  addBrain as addPgBrain,
  migratedDatabase,
  migratedPglite,
  serverForTests,
} from '../../engine/adapters/postgres/testing/fixtures.ts';
import { sqliteJobQueue } from '../../engine/adapters/sqlite/job-queue.ts';
import { storeFailure as sqliteStoreFailure } from '../../engine/adapters/sqlite/store-failure.ts';
import { tempStore } from '../../engine/adapters/sqlite/testing.ts';
import { sqliteUnits } from '../../engine/adapters/sqlite/unit-of-work.ts';
import type { TypedContent } from '../../engine/contract/index.ts';
import type { Deriver } from '../../engine/core/derive/deriver.ts';
import { LeaseLost } from '../../engine/core/derive/queued-job.ts';
import { createRuleDeriver } from '../../engine/core/derive/rule-deriver.ts';
import { recordText } from '../../engine/core/derive/record-text.ts';
import { createDerivation, type DerivationLog } from '../../engine/derive/derivation.ts';
import { WaitsForDerivation } from '../../engine/derive/waits-for-derivation.ts';
import type { DeriveWorker } from '../../engine/derive/derive-worker.ts';
import { forgetRecordRows } from '../../engine/local/forget-cascade.ts';
import type { BrainReadOfWork, JobQueue, Storage } from '../../engine/ports/index.ts';

/*
 * Derivation over every adapter: the same Records, derived by the same worker and rules through the
 * ports, leave the same Memories, citations and queue on SQLite, PGlite and a real PostgreSQL server.
 */

interface Backend {
  write: Storage['write'];
  read<T>(brainUid: string, work: (u: BrainReadOfWork) => Promise<T>): Promise<T>;
  queue: JobQueue;
  storeFailure: (e: unknown) => boolean;
  /** A Brain whose self is the person `self`. */
  addBrain(uid: string, self: string): Promise<void>;
}

function sqliteBackend(): Backend {
  const store = tempStore('mnemo-derivation-conformance-');
  const queue = sqliteJobQueue(store);
  const units = sqliteUnits(store, queue);
  return {
    write: units.write,
    read: units.read,
    queue,
    storeFailure: sqliteStoreFailure,
    addBrain: async (uid, self) =>
      void store.run(
        `INSERT INTO brains (uid, project, env, id, created_at, self_type, self_name)
         VALUES (?, 'p', 'test', ?, '2026-01-01T00:00:00Z', 'person', ?)`,
        uid,
        uid,
        self,
      ),
  };
}

function pgBackend(db: PgClient): Backend {
  const units = pgUnitsOfWork(db);
  return {
    write: units.write,
    read: units.read,
    queue: pgJobQueue(db),
    storeFailure: pgStoreFailure,
    addBrain: async (uid, self) => {
      await addPgBrain(db, uid);
      await db.query("UPDATE brains SET self_type = 'person', self_name = $2 WHERE uid = $1", [uid, self]);
    },
  };
}

const silent: DerivationLog = { info: () => {}, warn: () => {}, error: () => {} };
const clock = () => new Date('2026-03-01T00:00:00.000Z');
const nowMs = clock().getTime();

/** The derivation a process runs over `b`, stopped after the test; rules and clock as given. */
function worker(
  b: Backend,
  o: {
    leaseMs?: number;
    batchSize?: number;
    deriver?: Deriver;
    clock?: () => Date;
    jobRetryDelaysMs?: readonly number[];
    log?: DerivationLog;
  } = {},
): DeriveWorker {
  const { deriver = createRuleDeriver(), clock: now = clock, jobRetryDelaysMs, log = silent, ...timing } = o;
  const w = createDerivation({
    write: b.write,
    queue: b.queue,
    deriver,
    clock: now,
    log,
    storeFailure: b.storeFailure,
    jobRetryDelaysMs,
    worker: { gatherMs: 0, ...timing },
  });
  after(() => w.stop());
  return w;
}

/** Writes a Record and queues its derivation in one unit, as rememberRecord does. */
async function remember(
  b: Backend,
  brainUid: string,
  id: string,
  text: string,
  occurredAt: string,
  source: string | null = null,
  speaker = 'Ana',
  thread?: string,
) {
  const content: TypedContent = { kind: 'message', text, speaker, ...(thread ? { thread } : {}) };
  await b.write(brainUid, async (u) => {
    const seq = await u.sequence.next();
    await u.records.insert({
      id,
      brain_uid: brainUid,
      seq,
      kind: 'message',
      content: JSON.stringify(content),
      text: recordText(content),
      source_name: source,
      external_id: null,
      trust: 'medium',
      visibility: 'shareable',
      occurred_at: occurredAt,
      occurred_ms: Date.parse(occurredAt),
      created_at: occurredAt,
    });
    await u.jobs.enqueue({ job: 'derive', brainUid, recordId: id, recordSeq: seq });
  });
}

/** A Brain's Memories as a person reads them: statement, status now, cause and what cites each. */
async function memories(b: Backend, brainUid: string) {
  return b.read(brainUid, async (u) => {
    const page = await u.memories.list({ nowMs, status: 'all', shareableOnly: false, limit: 100 });
    const cites = await u.memories.citations(
      page.rows.map((m) => m.id),
      { shareableOnly: false },
    );
    return page.rows
      .map((m) => ({
        statement: m.statement,
        status: m.status,
        cause: m.cause,
        validFrom: m.valid_from,
        cites: cites
          .filter((c) => c.memory_id === m.id)
          .map((c) => c.record_id)
          .sort(),
      }))
      .sort((x, y) => (x.statement + x.validFrom < y.statement + y.validFrom ? -1 : 1));
  });
}

function conformance(name: string, backend: () => Promise<Backend>, opts: { skip?: string | false } = {}) {
  describe(`derivation through the ports, ${name}`, { skip: opts.skip ?? false }, () => {
    it('derives Records into Memories, supersedes by world time, and rests a Memory on what is left after a forget', async () => {
      const b = await backend();
      await b.addBrain('brn_d1', 'Ana');
      await remember(b, 'brn_d1', 'rec_1', 'I live in Lisbon.', '2025-01-01T00:00:00.000Z');
      await remember(b, 'brn_d1', 'rec_2', 'I live in Porto.', '2025-06-01T00:00:00.000Z');
      await remember(b, 'brn_d1', 'rec_3', 'I like green tea.', '2025-02-01T00:00:00.000Z');
      await remember(b, 'brn_d1', 'rec_4', 'I like green tea!', '2025-03-01T00:00:00.000Z');
      const w = worker(b);
      w.kick();
      await w.idle();
      const derived = await memories(b, 'brn_d1');
      assert.deepEqual(
        derived.map((m) => [m.statement, m.status, m.cause, m.cites]),
        [
          ['Ana lives in Lisbon', 'superseded', 'derived', ['rec_1']],
          ['Ana lives in Porto', 'active', 'superseded_by_record', ['rec_2']],
          ['I like green tea.', 'active', 'derived', ['rec_3', 'rec_4']],
        ],
      );
      assert.equal(await b.queue.nextDueMs(nowMs), null, 'every job was completed');

      // Forgetting the first tea Record leaves the Memory on the second: re-derived from it alone.
      const forgot = await b.write('brn_d1', (u) =>
        forgetRecordRows({ clock, rederiveDelayMs: 0 }, u, ['rec_3']),
      );
      assert.deepEqual({ deleted: forgot.deleted, pending: forgot.pending }, { deleted: 0, pending: 1 });
      w.kick();
      await w.idle();
      const tea = (await memories(b, 'brn_d1')).find((m) => m.statement.includes('tea'))!;
      assert.deepEqual(
        [tea.status, tea.cause, tea.cites, tea.validFrom],
        ['active', 'rederived', ['rec_4'], '2025-03-01T00:00:00.000Z'],
      );
      assert.equal(await b.queue.nextDueMs(nowMs), null);
    });

    it('a value restated by one source and denied by another at one instant is a conflict', async () => {
      const b = await backend();
      await b.addBrain('brn_d4', 'Ana');
      const at = '2025-06-01T10:00:00.000Z';
      await remember(b, 'brn_d4', 'rec_1', 'I moved to Lisbon.', '2025-03-01T00:00:00.000Z', 'chat');
      await remember(b, 'brn_d4', 'rec_2', 'I live in Lisbon.', at, 'phone');
      await remember(b, 'brn_d4', 'rec_3', 'I live in Porto.', at, 'laptop');
      const w = worker(b);
      w.kick();
      await w.idle();
      assert.deepEqual(
        (await memories(b, 'brn_d4')).map((m) => [m.statement, m.status, m.validFrom, m.cites]),
        [
          ['Ana lives in Lisbon', 'superseded', '2025-03-01T00:00:00.000Z', ['rec_1']],
          ['Ana lives in Lisbon', 'active', at, ['rec_2']],
          ['Ana lives in Porto', 'active', at, ['rec_3']],
        ],
      );
    });

    it("a value said in place of the thread's one just before mends its slot and withdraws the slip", async () => {
      const b = await backend();
      await b.addBrain('brn_d6', 'Ana');
      const said = (id: string, text: string, at: string, thread: string) =>
        remember(b, 'brn_d6', id, text, `2025-06-01T10:00:${at}.000Z`, 'chat', 'Ana', thread);
      await said('rec_1', 'my birthday is march 4', '00', 't');
      await said('rec_2', "wait no, it's march 14", '20', 'u');
      await said('rec_3', "wait no, it's march 14", '30', 't');
      const w = worker(b);
      w.kick();
      await w.idle();
      assert.deepEqual(
        (await memories(b, 'brn_d6')).map((m) => [m.statement, m.status, m.cites]),
        [
          ["Ana's birthday is march 14", 'active', ['rec_3']],
          ["Ana's birthday is march 4", 'retracted', ['rec_1']],
          ["wait no, it's march 14", 'active', ['rec_2']],
        ],
      );
    });

    it("an agent's read-back at that instant is no rival source: the later value replaces the old", async () => {
      const b = await backend();
      await b.addBrain('brn_d5', 'Ana');
      const at = '2025-06-01T10:00:00.000Z';
      await remember(b, 'brn_d5', 'rec_1', 'I moved to Lisbon.', '2025-03-01T00:00:00.000Z', 'chat');
      await remember(b, 'brn_d5', 'rec_2', 'Noted: Ana lives in Lisbon.', at, 'chatgpt', 'assistant');
      await remember(b, 'brn_d5', 'rec_3', 'I live in Porto.', at, 'laptop');
      const w = worker(b);
      w.kick();
      await w.idle();
      assert.deepEqual(
        (await memories(b, 'brn_d5'))
          .filter((m) => m.statement.startsWith('Ana lives'))
          .map((m) => [m.statement, m.status, m.validFrom]),
        [
          ['Ana lives in Lisbon', 'superseded', '2025-03-01T00:00:00.000Z'],
          ['Ana lives in Porto', 'active', at],
        ],
      );
    });

    it('records a job that fails on every attempt for Census and takes it off the queue', async () => {
      const b = await backend();
      await b.addBrain('brn_d2', 'Ana');
      await remember(b, 'brn_d2', 'rec_ok', 'I live in Lisbon.', '2025-01-01T00:00:00.000Z');
      await remember(b, 'brn_d2', 'rec_bad', 'I live in Porto.', '2025-06-01T00:00:00.000Z');
      const rules = createRuleDeriver();
      const failing: Deriver = {
        ...rules,
        derive: (r, ctx) => {
          if (r.id === 'rec_bad') throw new Error('this Record breaks the rules');
          return rules.derive(r, ctx);
        },
      };
      const w = worker(b, { deriver: failing, jobRetryDelaysMs: [] });
      w.kick();
      await w.idle();
      assert.deepEqual(
        (await memories(b, 'brn_d2')).map((m) => m.cites),
        [['rec_ok']],
        'the other job was derived',
      );
      const census = await b.read('brn_d2', (u) =>
        u.census.census({ nowMs, shareableOnly: false, examples: 5 }),
      );
      assert.deepEqual(census.noise.derivation_failed, { count: 1, examples: ['rec_bad'] });
      assert.equal(await b.queue.nextDueMs(nowMs), null, 'the failed job left the queue');
    });

    it('derives a Record after the earlier Records of its Brain that another claim holds, not before', async () => {
      const b = await backend();
      await b.addBrain('brn_d9', 'Ana');
      const plan = 'Petra and I are planning a weekend in Vienna, December 12 to 14.';
      await remember(b, 'brn_d9', 'rec_plan', plan, '2026-11-12T07:00:00.000Z');
      await remember(b, 'brn_d9', 'rec_off', 'We cancelled Vienna.', '2026-11-23T08:00:00.000Z');
      await remember(b, 'brn_d9', 'rec_tea', 'I like green tea.', '2026-11-24T08:00:00.000Z');
      // Another process claimed the plan's job and has not derived it yet. Derived before it, the
      // call-off would find no plan to call off, and the plan would stay current.
      const held = await b.queue.claim(1, Date.now(), 60_000);
      assert.deepEqual(
        held.map((j) => j.job === 'derive' && j.recordId),
        ['rec_plan'],
      );
      const said: string[] = [];
      const log: DerivationLog = { info: (m) => said.push(m), warn: () => {}, error: () => {} };
      // The worker's clock is the lease's: the real one.
      const w = worker(b, { clock: () => new Date(), log });
      w.kick();
      // Until the worker says the call-off waits, or has derived it.
      const offDerived = async () => (await memories(b, 'brn_d9')).some((m) => m.cites.includes('rec_off'));
      for (const deadline = Date.now() + 20_000; said.length === 0 && !(await offDerived());)
        if (Date.now() > deadline) assert.fail('the worker neither waited nor derived');
        else await new Promise((r) => setTimeout(r, 10));
      // Said of the jobs each batch found waiting (a server's claim may take the two later ones apart).
      assert.ok(said.length >= 1 && said.length <= 2, said.join('; '));
      for (const line of said)
        assert.equal(line, 'derivation waits for an earlier Record of its Brain that another claim holds');
      // The other process gives its job back (it stops): the worker derives the three in order.
      await b.queue.release(held);
      w.kick();
      await w.idle();
      assert.deepEqual(
        (await memories(b, 'brn_d9')).map((m) => [m.statement, m.status, m.cites]),
        [
          ['I like green tea.', 'active', ['rec_tea']],
          [plan, 'superseded', ['rec_plan']],
          ['We cancelled Vienna.', 'active', ['rec_off']],
        ],
      );
      assert.equal(await b.queue.nextDueMs(Date.now()), null, 'every job was completed');
    });

    it("a Brain's Records waiting for an earlier one another claim holds do not hold back another Brain's", async () => {
      const b = await backend();
      await b.addBrain('brn_d10', 'Ana');
      await b.addBrain('brn_d11', 'Rui');
      await remember(b, 'brn_d10', 'rec_first', 'I like green tea.', '2026-11-12T07:00:00.000Z');
      const later = 40;
      for (let i = 1; i <= later; i++)
        await remember(
          b,
          'brn_d10',
          `rec_later${i}`,
          `I read book ${i}.`,
          new Date(Date.UTC(2026, 10, 13, i)).toISOString(),
        );
      await remember(b, 'brn_d11', 'rec_other', 'I like black coffee.', '2026-11-20T07:00:00.000Z');
      // Another process holds brn_d10's first Record; its later ones fill ten batches of this worker.
      const held = await b.queue.claim(1, Date.now(), 60_000);
      assert.deepEqual(
        held.map((j) => j.job === 'derive' && j.recordId),
        ['rec_first'],
      );
      let waitingClaimed = 0;
      const queue: JobQueue = {
        ...b.queue,
        claim: async (...args) => {
          const jobs = await b.queue.claim(...args);
          waitingClaimed += jobs.filter((j) => j.brainUid === 'brn_d10').length;
          return jobs;
        },
      };
      const w = worker({ ...b, queue }, { clock: () => new Date(), batchSize: 4 });
      w.kick();
      const derived = async (brain: string) => (await memories(b, brain)).flatMap((m) => m.cites);
      for (const deadline = Date.now() + 20_000; !(await derived('brn_d11')).includes('rec_other');)
        if (Date.now() > deadline) assert.fail("another Brain's Record waited on brn_d10's held one");
        else await new Promise((r) => setTimeout(r, 10));
      // The waiting Brain's backlog is not walked a batch at a time first: its first batch says it waits.
      assert.ok(waitingClaimed <= 8, `${waitingClaimed} of brn_d10's waiting jobs claimed first`);
      assert.deepEqual(await derived('brn_d10'), [], 'still waiting for the Record held');
      await b.queue.release(held);
      w.kick();
      await w.idle();
      assert.equal((await derived('brn_d10')).length, later + 1);
    });

    it('a job waiting for what it names to be derived runs again, logged as a wait, not a failure', async () => {
      const b = await backend();
      await b.addBrain('brn_d3', 'Ana');
      await remember(b, 'brn_d3', 'rec_wait', 'I live in Lisbon.', '2025-01-01T00:00:00.000Z');
      const said: [string, string][] = [];
      const log: DerivationLog = {
        info: (m) => said.push(['info', m]),
        warn: (m) => said.push(['warn', m]),
        error: (m) => said.push(['error', m]),
      };
      const rules = createRuleDeriver();
      // Waits until the worker has said so once (a storage that reads ahead asks the rules first too).
      const waiting: Deriver = {
        ...rules,
        derive: (r, ctx) => {
          if (said.length === 0) throw new WaitsForDerivation('waits for the Records it names to be derived');
          return rules.derive(r, ctx);
        },
      };
      const w = worker(b, { deriver: waiting, jobRetryDelaysMs: [0], log });
      w.kick();
      await w.idle();
      assert.deepEqual(
        (await memories(b, 'brn_d3')).map((m) => m.cites),
        [['rec_wait']],
      );
      assert.deepEqual(said, [
        ['info', 'derivation waits for what the job names to be derived; it runs again'],
      ]);
      const census = await b.read('brn_d3', (u) =>
        u.census.census({ nowMs, shareableOnly: false, examples: 5 }),
      );
      assert.equal(census.noise.derivation_failed.count, 0);
    });
  });
}

/**
 * Several processes on one PostgreSQL database, each with its own pool and derive worker (`clients`:
 * one per process; PGlite's one connection stands in for all of them).
 */
function processes(name: string, clients: () => Promise<PgClient[]>, opts: { skip?: string | false } = {}) {
  describe(`derivation by several processes on one database, ${name}`, { skip: opts.skip ?? false }, () => {
    it('derives every job exactly once when two workers drain one queue together', async () => {
      const [one, two] = (await clients()).map(pgBackend) as [Backend, Backend];
      const brains = ['brn_p1', 'brn_p2', 'brn_p3'];
      for (const uid of brains) await one.addBrain(uid, 'Ana');
      // Written by both processes, interleaved.
      for (let i = 0; i < 60; i++) {
        const id = `rec_${String(i).padStart(2, '0')}`;
        await remember(
          i % 2 === 0 ? one : two,
          brains[i % 3]!,
          id,
          `I visited city number ${i}.`,
          '2025-01-01T00:00:00.000Z',
        );
      }
      // Small batches, so the two claim turn about. A job the other holds is due to this one when the
      // other's lease ends (idle() waits for it): short leases keep the wait short.
      const workers = [1, 2].map((i) => worker(i === 1 ? one : two, { batchSize: 7, leaseMs: 1_000 }));
      for (const w of workers) w.kick();
      await Promise.all(workers.map((w) => w.idle()));
      let cited: string[] = [];
      for (const uid of brains) cited = cited.concat((await memories(one, uid)).flatMap((m) => m.cites));
      assert.equal(cited.length, 60, 'one Memory per Record, none derived twice');
      assert.equal(new Set(cited).size, 60, 'every Record derived');
      // Each Brain's 20 Records took a step each to be written and one to be derived: a job derived
      // twice would have taken another.
      for (const uid of brains) assert.equal(await one.read(uid, (u) => u.sequence.current()), 40);
      assert.equal(await one.queue.nextDueMs(nowMs), null);
    });

    it('finishes the jobs of a process that died holding their lease, once the lease ends', async () => {
      const [dead, alive] = (await clients()).map(pgBackend) as [Backend, Backend];
      await alive.addBrain('brn_p4', 'Ana');
      await remember(alive, 'brn_p4', 'rec_a', 'I live in Lisbon.', '2025-01-01T00:00:00.000Z');
      await remember(alive, 'brn_p4', 'rec_b', 'I like green tea.', '2025-01-01T00:00:00.000Z');
      // The dead process claimed both and never completed them (its lease: 300 ms from now).
      const claimed = await dead.queue.claim(10, Date.now(), 300);
      assert.equal(claimed.length, 2);
      // The worker's own clock, as the lease's: the real one.
      const w = worker(alive, { clock: () => new Date() });
      w.kick();
      await w.idle();
      assert.deepEqual(
        (await memories(alive, 'brn_p4')).map((m) => m.cites),
        [['rec_a'], ['rec_b']],
      );
      // The dead process's late completion is refused: the jobs are no longer its own.
      await assert.rejects(
        dead.write('brn_p4', (u) => u.jobs.complete(claimed)),
        LeaseLost,
      );
    });
  });
}

conformance('SQLite', async () => sqliteBackend());

// Made at the top level: each closes after the file, not after the test that first used it.
const pglite = await migratedPglite();
conformance('PGlite', async () => pgBackend(pglite));

const server = await serverForTests();
conformance('PostgreSQL server', async () => pgBackend((await migratedDatabase(server.cluster(), 1))[0]!), {
  skip: server.skip,
});

processes('PGlite', async () => [pglite, pglite]);
processes('PostgreSQL server', async () => migratedDatabase(server.cluster(), 2), { skip: server.skip });
