import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { pgJobQueue } from './job-queue.ts';
import { pgUnitsOfWork } from './unit-of-work.ts';
import { addBrain, addRecord, migratedDatabase, migratedPglite, serverForTests } from './testing/fixtures.ts';

const db = await migratedPglite();

describe("a Brain's unit of work over PostgreSQL", () => {
  it('takes steps 1, 2, 3 without gaps; current() is the last committed step', async () => {
    await addBrain(db, 'brn_s');
    const uow = pgUnitsOfWork(db);
    const steps: number[] = [];
    for (let i = 0; i < 3; i++) steps.push(await uow.write('brn_s', (w) => w.sequence.next()));
    assert.deepEqual(steps, [1, 2, 3]);
    assert.equal(await uow.read('brn_s', (r) => r.sequence.current()), 3);
  });

  it('a unit of work that throws leaves nothing: no step, no job', async () => {
    await addBrain(db, 'brn_rb');
    await addRecord(db, 'brn_rb', 'rec_rb');
    const uow = pgUnitsOfWork(db);
    await assert.rejects(
      uow.write('brn_rb', async (w) => {
        const seq = await w.sequence.next();
        await w.jobs.enqueue({ job: 'derive', brainUid: 'brn_rb', recordId: 'rec_rb', recordSeq: seq });
        throw new Error('the rule failed');
      }),
      /the rule failed/,
    );
    assert.equal(await uow.read('brn_rb', (r) => r.sequence.current()), 0);
    assert.equal(await pgJobQueue(db).oldestPendingSeq('brn_rb'), null);
    await uow.write('brn_rb', async (w) => {
      const seq = await w.sequence.next();
      await w.jobs.enqueue({ job: 'derive', brainUid: 'brn_rb', recordId: 'rec_rb', recordSeq: seq });
    });
    assert.equal(await pgJobQueue(db).oldestPendingSeq('brn_rb'), 1);
  });

  it('batched units called together share one transaction, in order, a failing one rolled back alone', async () => {
    await addBrain(db, 'brn_b');
    let transactions = 0;
    const counted = {
      ...db,
      transaction: ((work, options) => {
        transactions++;
        return db.transaction(work, options);
      }) as typeof db.transaction,
    };
    const uow = pgUnitsOfWork(counted);
    const results = await Promise.allSettled([
      uow.write('brn_b', (w) => w.sequence.next(), { batch: true }),
      uow.write(
        'brn_b',
        async (w) => {
          await w.sequence.next();
          throw new Error('this one fails');
        },
        { batch: true },
      ),
      uow.write('brn_b', (w) => w.sequence.next(), { batch: true }),
    ]);
    assert.equal(transactions, 1, 'one transaction, one commit');
    assert.deepEqual(
      results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message)),
      [1, 'this one fails', 2],
    );
    assert.equal(await uow.read('brn_b', (r) => r.sequence.current()), 2);
    // Without `batch`, each unit is a transaction of its own.
    await Promise.all([
      uow.write('brn_b', (w) => w.sequence.next()),
      uow.write('brn_b', (w) => w.sequence.next()),
    ]);
    assert.equal(transactions, 4);
  });

  it('a forgotten Brain has no unit of work, and a read takes no step', async () => {
    const uow = pgUnitsOfWork(db);
    await assert.rejects(
      uow.write('brn_none', async () => 1),
      { code: 'brain_not_found' },
    );
    await assert.rejects(
      uow.read('brn_none', async () => 1),
      { code: 'brain_not_found' },
    );
    await addBrain(db, 'brn_ro');
    await assert.rejects(
      uow.read('brn_ro', (r) => r.sequence.next()),
      /a read takes no step/,
    );
  });
});

const server = await serverForTests();
describe("a Brain's units of work from several processes", { skip: server.skip }, () => {
  it('writers of one Brain commit in sequence order: a reader never sees a step without those before it', async () => {
    const clients = await migratedDatabase(server.cluster(), 3, 4);
    const first = clients[0]!;
    await addBrain(first, 'brn_c');
    // Each step is logged inside the transaction that takes it, so the log shows what has committed.
    await first.exec(`
      CREATE TABLE step_log (seq bigint PRIMARY KEY);
      CREATE FUNCTION log_step() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN INSERT INTO step_log VALUES (NEW.seq); RETURN NULL; END $$;
      CREATE TRIGGER log_step AFTER UPDATE OF seq ON brains FOR EACH ROW EXECUTE FUNCTION log_step();`);
    let writing = true;
    const gaps: string[] = [];
    const reader = (async () => {
      while (writing) {
        const seen = (await first.query<{ seq: number }>('SELECT seq FROM step_log ORDER BY seq')).rows;
        if (seen.some((r, i) => r.seq !== i + 1)) gaps.push(seen.map((r) => r.seq).join(','));
        await sleep(1);
      }
    })();
    const perClient = 25;
    const taken = await Promise.all(
      clients.flatMap((c) =>
        Array.from({ length: perClient }, (_, i) =>
          pgUnitsOfWork(c).write('brn_c', async (w) => {
            const seq = await w.sequence.next();
            // Work between taking a step and committing it: the window in which a later step could
            // otherwise commit first.
            if (i % 3 === 0) await sleep(3);
            return seq;
          }),
        ),
      ),
    );
    writing = false;
    await reader;
    const n = clients.length * perClient;
    assert.deepEqual(
      taken.sort((a, b) => a - b),
      Array.from({ length: n }, (_, i) => i + 1),
    );
    assert.deepEqual(gaps, []);
    assert.equal(await pgUnitsOfWork(clients[1]!).read('brn_c', (r) => r.sequence.current()), n);
  });

  it('a row that names the Brain, written outside its units (a Trace, a vector), does not wait for a unit holding it', async () => {
    // Such a write locks other rows first (the Records a Trace names, a vector's owner) and then takes
    // its foreign key's KEY SHARE lock on the Brain's row: were the unit's lock FOR UPDATE, a unit
    // deleting one of those rows (a forget) would wait for the writer and the writer for the unit.
    const [unit, other] = await migratedDatabase(server.cluster(), 2, 2);
    await addBrain(unit!, 'brn_fk');
    await pgUnitsOfWork(unit!).write('brn_fk', async (w) => {
      await w.sequence.next();
      const insert = other!.query(
        "INSERT INTO traces (brain_uid, id, trace, record_ids) VALUES ('brn_fk', 'trc_fk', '{}', '{}')",
      );
      const waited = sleep(5_000).then(() => 'waited for the unit');
      assert.equal(await Promise.race([insert.then(() => 'written'), waited]), 'written');
    });
    // Units of the Brain still run one at a time (the sequence test above), and forgetting the Brain
    // still waits for them: its lock is FOR UPDATE.
  });

  it("runs one Brain's units of a process in call order on one connection, leaving the others to other Brains", async () => {
    // Two connections: were each of Brain a's units to take one, b's unit would wait for all of them.
    const [db2] = await migratedDatabase(server.cluster(), 1, 2);
    await addBrain(db2!, 'brn_a');
    await addBrain(db2!, 'brn_b');
    const uow = pgUnitsOfWork(db2!);
    const done: string[] = [];
    const slow = Array.from({ length: 8 }, (_, i) =>
      uow.write('brn_a', async (w) => {
        const seq = await w.sequence.next();
        await sleep(100);
        done.push(`a${i}`);
        return seq;
      }),
    );
    const other = uow.write('brn_b', async (w) => {
      await w.sequence.next();
      done.push('b');
    });
    assert.deepEqual(await Promise.all(slow), [1, 2, 3, 4, 5, 6, 7, 8], 'steps in call order');
    await other;
    // brn_b's unit had the second connection at once: it ended while brn_a's first still held its row.
    assert.ok(done.indexOf('b') < done.indexOf('a1'), `brn_b waited for brn_a: ${done.join(' ')}`);
  });
});
