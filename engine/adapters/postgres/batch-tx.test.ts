import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RecordRow } from '../../ports/index.ts';
import type { PgClient, PgTransaction } from './client.ts';
import { addBrain, addRecord, migratedPglite, recordRow } from './testing/fixtures.ts';
import { pgUnitsOfWork, type PgUnitOfWork } from './unit-of-work.ts';

const db = await migratedPglite();

/**
 * The client, and every round trip its transactions made, in order (first words only): a script sent
 * with the COMMIT is one, `finish:` and the first three words of each of its statements.
 */
function counted(client: PgClient): { client: PgClient; statements: string[] } {
  const statements: string[] = [];
  const short = (sql: string) => sql.replace(/\s+/g, ' ').trim().slice(0, 40);
  const log = (sql: string, then?: string) =>
    statements.push(then === undefined ? short(sql) : `${short(sql)} + ${short(then)}`);
  const spy = (tx: PgTransaction): PgTransaction => ({
    query: (sql, params) => {
      log(sql);
      return tx.query(sql, params);
    },
    exec: (sql) => {
      log(sql);
      return tx.exec(sql);
    },
    ...(tx.finishWith && {
      finishWith: (script: string) => {
        statements.push(
          `finish: ${script
            .split(';\n')
            .map((s) => s.replace(/\s+/g, ' ').trim().split(' ').slice(0, 3).join(' '))
            .join(' | ')}`,
        );
        tx.finishWith!(script);
      },
    }),
  });
  return {
    statements,
    client: {
      ...client,
      transaction: (work, options) =>
        client.transaction((tx, opened, then) => {
          // The opening statements are sent with BEGIN, in its round trip, not through the connection
          // the work is given: logged as one.
          const opening = options?.opening;
          if (opening) log(opening.sql, opening.then);
          return work(spy(tx), opened, then);
        }, options),
    },
  };
}

/** A round trip as `counted` logs it, a statement by its first three words. */
const firstWords = (s: string) => (s.startsWith('finish:') ? s : s.split(' ').slice(0, 3).join(' '));

/** A unit that appends Record `id` at the next step, queues its derivation and names it by `key`. */
const append = (brainUid: string, id: string, key?: string) => async (u: PgUnitOfWork) => {
  const seq = await u.sequence.next();
  await u.records.insert(recordRow(brainUid, id, seq));
  await u.jobs.enqueue({ job: 'derive', brainUid, recordId: id, recordSeq: seq });
  if (key !== undefined)
    await u.idempotency.remember('rememberRecord', key, {
      bodyHash: `hash of ${id}`,
      target: { record: id },
    });
  return seq;
};

const stored = async (brainUid: string) => ({
  records: (
    await db.query<{ id: string; seq: number }>(
      'SELECT id, seq FROM records WHERE brain_uid = $1 ORDER BY seq',
      [brainUid],
    )
  ).rows.map((r) => `${r.id}@${r.seq}`),
  jobs: (
    await db.query<{ record_id: string }>(
      'SELECT record_id FROM derive_jobs WHERE brain_uid = $1 ORDER BY record_seq',
      [brainUid],
    )
  ).rows.map((r) => r.record_id),
  keys: (
    await db.query<{ key: string }>('SELECT key FROM idempotency WHERE brain_uid = $1 ORDER BY key', [
      brainUid,
    ])
  ).rows.map((r) => r.key),
  seq: (await db.query<{ seq: number }>('SELECT seq FROM brains WHERE uid = $1', [brainUid])).rows[0]!.seq,
});

describe('batched units of one transaction over PostgreSQL', () => {
  it('write what they queued in one INSERT per table and the Brain step once, sent with the COMMIT', async () => {
    await addBrain(db, 'brn_q');
    const { client, statements } = counted(db);
    const uow = pgUnitsOfWork(client);
    const steps = await Promise.all(
      ['a', 'b', 'c'].map((x) => uow.write('brn_q', append('brn_q', `rec_q${x}`, `k${x}`), { batch: true })),
    );
    assert.deepEqual(steps, [1, 2, 3]);
    assert.deepEqual(statements.map(firstWords), [
      'SELECT seq, self_type,',
      'finish: INSERT INTO records | INSERT INTO derive_jobs | INSERT INTO idempotency | UPDATE brains SET',
    ]);
    assert.deepEqual(await stored('brn_q'), {
      records: ['rec_qa@1', 'rec_qb@2', 'rec_qc@3'],
      jobs: ['rec_qa', 'rec_qb', 'rec_qc'],
      keys: ['ka', 'kb', 'kc'],
      seq: 3,
    });
  });

  it('take in units that arrive while their transaction waits for the connection, and read their keys at once', async () => {
    await addBrain(db, 'brn_wait');
    const { client, statements } = counted(db);
    const uow = pgUnitsOfWork(client);
    /** Appends `id` under the key `id` unless the key names a Record already. */
    const keyed = (id: string) =>
      uow.write(
        'brn_wait',
        async (u) => ((await u.idempotency.find('rememberRecord', id)) ? 0 : append('brn_wait', id, id)(u)),
        { batch: true, idempotencyKey: { operation: 'rememberRecord', key: id } },
      );
    let open!: () => void;
    // Another transaction holds PGlite's one connection, as another process's would hold the row.
    const other = db.transaction(() => new Promise<void>((resolve) => (open = resolve)));
    const first = keyed('rec_w1');
    await new Promise((resolve) => setTimeout(resolve, 20));
    const later = ['rec_w2', 'rec_w3'].map(keyed);
    await new Promise((resolve) => setTimeout(resolve, 20));
    open();
    await other;
    assert.deepEqual(await Promise.all([first, ...later]), [1, 2, 3]);
    assert.equal(
      statements.filter((s) => s.startsWith('SELECT seq, self_type')).length,
      1,
      'one transaction',
    );
    // The first unit's key went with BEGIN; the two that joined later are read in one statement.
    assert.equal(statements.filter((s) => s.startsWith('SELECT i.operation')).length, 1);
    assert.equal(statements.filter((s) => s.startsWith('SELECT body_hash')).length, 0);
    assert.deepEqual((await stored('brn_wait')).records, ['rec_w1@1', 'rec_w2@2', 'rec_w3@3']);
  });

  it('start in the order they were called: a unit batched after one that is not runs after it', async () => {
    await addBrain(db, 'brn_order');
    const uow = pgUnitsOfWork(db);
    let open!: () => void;
    const other = db.transaction(() => new Promise<void>((resolve) => (open = resolve)));
    const first = uow.write('brn_order', append('brn_order', 'rec_o1'), { batch: true });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const alone = uow.write('brn_order', append('brn_order', 'rec_o2'));
    const after = uow.write('brn_order', append('brn_order', 'rec_o3'), { batch: true });
    open();
    await other;
    assert.deepEqual(await Promise.all([first, alone, after]), [1, 2, 3]);
  });

  it('Records read ahead answer the later units of the transaction without a statement, until one is removed', async () => {
    await addBrain(db, 'brn_r');
    for (const [i, id] of ['rec_r1', 'rec_r2', 'rec_r3'].entries()) await addRecord(db, 'brn_r', id, i + 1);
    const { client, statements } = counted(db);
    const uow = pgUnitsOfWork(client);
    const ids = (u: Pick<PgUnitOfWork, 'records'>, ...wanted: string[]) =>
      Promise.all(wanted.map(async (id) => (await u.records.get(id))?.id ?? null));
    const [first, second, third, fourth] = await Promise.all([
      uow.write(
        'brn_r',
        async (u) => {
          await u.records.prefetch(['rec_r1', 'rec_r2', 'rec_gone']);
          return ids(u, 'rec_r1');
        },
        { batch: true },
      ),
      uow.write('brn_r', (u) => ids(u, 'rec_r2', 'rec_gone'), { batch: true }),
      uow.write(
        'brn_r',
        async (u) => {
          await u.records.remove(['rec_r2']);
          return ids(u, 'rec_r1');
        },
        { batch: true },
      ),
      uow.write('brn_r', (u) => ids(u, 'rec_r2', 'rec_r3'), { batch: true }),
    ]);
    assert.deepEqual(first, ['rec_r1']);
    assert.deepEqual(second, ['rec_r2', null], 'an id not found ahead is asked for');
    assert.deepEqual(third, ['rec_r1']);
    assert.deepEqual(fourth, [null, 'rec_r3'], 'a removal drops what was read ahead');
    const reads = statements.filter((s) => s.startsWith('SELECT r.n, r.id'));
    // The read ahead, rec_gone (not there to keep), then every get after the removal.
    assert.equal(reads.length, 5);
    assert.deepEqual(await pgUnitsOfWork(db).read('brn_r', (u) => ids(u, 'rec_r1', 'rec_r2')), [
      'rec_r1',
      null,
    ]);
  });

  it('a read ahead outside a write reads nothing', async () => {
    await addBrain(db, 'brn_ro');
    await addRecord(db, 'brn_ro', 'rec_ro');
    const { client, statements } = counted(db);
    await pgUnitsOfWork(client).read('brn_ro', (u) => u.records.prefetch(['rec_ro']));
    assert.deepEqual(
      statements.filter((s) => s.startsWith('SELECT r.n')),
      [],
    );
  });

  for (const when of ['before any statement', 'after a statement of its own'] as const) {
    it(`a unit failing ${when} gives its steps and rows back: the others take consecutive steps`, async () => {
      const brain = when === 'before any statement' ? 'brn_f1' : 'brn_f2';
      await addBrain(db, brain);
      const uow = pgUnitsOfWork(db);
      const failing = async (u: PgUnitOfWork) => {
        await append(brain, `${brain}_x`, 'kx')(u);
        if (when === 'after a statement of its own') await u.records.get(`${brain}_a`);
        throw new Error('this one fails');
      };
      const results = await Promise.allSettled([
        uow.write(brain, append(brain, `${brain}_a`, 'ka'), { batch: true }),
        uow.write(brain, failing, { batch: true }),
        uow.write(brain, append(brain, `${brain}_b`, 'kb'), { batch: true }),
      ]);
      assert.deepEqual(
        results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message)),
        [1, 'this one fails', 2],
      );
      assert.deepEqual(await stored(brain), {
        records: [`${brain}_a@1`, `${brain}_b@2`],
        jobs: [`${brain}_a`, `${brain}_b`],
        keys: ['ka', 'kb'],
        seq: 2,
      });
    });
  }

  it('the same Idempotency-Key twice in one batch: the second unit finds the first, unless it failed', async () => {
    await addBrain(db, 'brn_k');
    const uow = pgUnitsOfWork(db);
    const find = (u: PgUnitOfWork) => u.idempotency.find('rememberRecord', 'same');
    const [first, second, , afterFailure] = await Promise.allSettled([
      uow.write('brn_k', append('brn_k', 'rec_k1', 'same'), { batch: true }),
      uow.write('brn_k', find, { batch: true }),
      uow.write(
        'brn_k',
        async (u) => {
          await u.idempotency.remember('rememberRecord', 'other', {
            bodyHash: 'h',
            target: { record: 'rec_k1' },
          });
          throw new Error('gone');
        },
        { batch: true },
      ),
      uow.write('brn_k', (u) => u.idempotency.find('rememberRecord', 'other'), { batch: true }),
    ]);
    assert.equal(first.status, 'fulfilled');
    assert.deepEqual(second.status === 'fulfilled' && second.value, {
      bodyHash: 'hash of rec_k1',
      target: { record: 'rec_k1' },
    });
    assert.deepEqual(afterFailure.status === 'fulfilled' && afterFailure.value, null);
    // And in a later transaction, from the table.
    assert.deepEqual(await uow.write('brn_k', find), {
      bodyHash: 'hash of rec_k1',
      target: { record: 'rec_k1' },
    });
  });

  it("read a batch's Idempotency-Keys with its BEGIN, and find each as the batch has left it", async () => {
    await addBrain(db, 'brn_ka');
    await pgUnitsOfWork(db).write('brn_ka', append('brn_ka', 'rec_ka0', 'k0'));
    const { client, statements } = counted(db);
    const uow = pgUnitsOfWork(client);
    /** Replays the key's Record, or appends `id` under it; first writing the queue when `flushing`. */
    const remember = (id: string, key: string, flushing = false) =>
      uow.write(
        'brn_ka',
        async (u) => {
          if (flushing) await u.records.get('rec_none');
          const prior = await u.idempotency.find('rememberRecord', key);
          if (prior) return 'record' in prior.target ? `replays ${prior.target.record}` : 'an Object';
          await append('brn_ka', id, key)(u);
          return `appends ${id}`;
        },
        { batch: true, idempotencyKey: { operation: 'rememberRecord', key } },
      );
    const answers = await Promise.all([
      remember('rec_ka1', 'k0'),
      remember('rec_ka2', 'k2'),
      remember('rec_ka3', 'k2'),
      // Its statement writes rec_ka2's key to the table first: the keys read ahead follow it there.
      remember('rec_ka4', 'k2', true),
      remember('rec_ka5', 'k5'),
    ]);
    assert.deepEqual(answers, [
      'replays rec_ka0',
      'appends rec_ka2',
      'replays rec_ka2',
      'replays rec_ka2',
      'appends rec_ka5',
    ]);
    assert.deepEqual(
      statements.filter((s) => /^SELECT (i\.operation|body_hash)/.test(s)),
      [],
      'no round trip of their own',
    );
    assert.match(statements[0]!, /^SELECT seq, self_type.* \+ SELECT i\.operation/, 'read with BEGIN');
    assert.deepEqual((await stored('brn_ka')).keys, ['k0', 'k2', 'k5']);
  });

  it('a key written by a unit that then fails is not found by the next', async () => {
    await addBrain(db, 'brn_kf');
    const uow = pgUnitsOfWork(db);
    const key = { operation: 'rememberRecord', key: 'kf' };
    const [failed, next] = await Promise.allSettled([
      uow.write(
        'brn_kf',
        async (u) => {
          await append('brn_kf', 'rec_kf1', 'kf')(u);
          // A statement: the unit's rows, its key among them, are written (after its savepoint).
          await u.records.get('rec_none');
          throw new Error('then it fails');
        },
        { batch: true, idempotencyKey: key },
      ),
      uow.write('brn_kf', (u) => u.idempotency.find('rememberRecord', 'kf'), {
        batch: true,
        idempotencyKey: key,
      }),
    ]);
    assert.equal(failed.status, 'rejected');
    assert.deepEqual(next.status === 'fulfilled' && next.value, null);
    assert.deepEqual((await stored('brn_kf')).keys, []);
  });

  it('a Record this server cannot store (a NUL) fails its own unit, not its batch', async () => {
    await addBrain(db, 'brn_nul');
    const uow = pgUnitsOfWork(db);
    // A Record of the Brain whose row says `over` instead.
    const insert = (id: string, over: Partial<RecordRow>) =>
      uow.write(
        'brn_nul',
        async (u) => {
          const seq = await u.sequence.next();
          await u.records.insert({ ...recordRow('brn_nul', id, seq), ...over });
        },
        { batch: true },
      );
    const outcomes = await Promise.allSettled([
      uow.write('brn_nul', append('brn_nul', 'rec_n1'), { batch: true }),
      insert('rec_n2', { text: 'a\u0000b' }),
      insert('rec_n3', { content: '{"text":"a\\u0000b"}' }),
      // The six characters \u0000 typed as text are no NUL.
      insert('rec_n4', { content: '{"text":"a\\\\u0000b"}' }),
    ]);
    assert.deepEqual(
      outcomes.map((o) => (o.status === 'rejected' ? (o.reason as { code?: string }).code : 'ok')),
      ['ok', 'invalid_request_body', 'invalid_request_body', 'ok'],
    );
    assert.deepEqual((await stored('brn_nul')).records, ['rec_n1@1', 'rec_n4@2']);
  });

  it('a Record deleted after a step taken in memory leaves its tombstone at that step', async () => {
    await addBrain(db, 'brn_t');
    await addRecord(db, 'brn_t', 'rec_t');
    const uow = pgUnitsOfWork(db);
    const steps = await Promise.all([
      uow.write('brn_t', (u) => u.sequence.next(), { batch: true }),
      uow.write(
        'brn_t',
        async (u) => {
          const seq = await u.sequence.next();
          await u.records.remove(['rec_t']);
          return seq;
        },
        { batch: true },
      ),
    ]);
    assert.deepEqual(steps, [1, 2]);
    const t = await db.query<{ seq: number }>("SELECT seq FROM record_tombstones WHERE record_id = 'rec_t'");
    assert.deepEqual(t.rows, [{ seq: 2 }]);
  });

  it("write a batch's Memories and citations in one INSERT each, their lookups taking no savepoint", async () => {
    await addBrain(db, 'brn_m');
    await addRecord(db, 'brn_m', 'rec_m');
    const { client, statements } = counted(db);
    const uow = pgUnitsOfWork(client);
    const derive = (id: string) => async (u: PgUnitOfWork) => {
      const seq = await u.sequence.next();
      const norm = `statement ${id}`;
      const same = await u.memories.sameStatement({
        norm,
        subject: 'Ana',
        owner_state: 'self',
        owner_entity: null,
      });
      if (same) return same;
      await u.memories.insert(
        {
          brain_uid: 'brn_m',
          id,
          lineage: `lin_${id}`,
          slot: null,
          version: 1,
          statement: norm,
          norm,
          subject: 'Ana',
          predicate: null,
          owner_state: 'self',
          owner_entity: null,
          source_key: '',
          valid_from: '2026-01-01T00:00:00.000Z',
          valid_from_ms: Date.parse('2026-01-01T00:00:00.000Z'),
          valid_to: null,
          valid_to_ms: null,
          status: 'active',
          pending: false,
          corrects: null,
          retracted_by: null,
          revised_by: null,
          seq,
          learned_at: '2026-01-01T00:00:00.000Z',
          cause: 'derived',
        },
        [{ record_id: 'rec_m', quote: id }],
      );
      return id;
    };
    const ids = await Promise.all(
      ['mem_1', 'mem_2', 'mem_1'].map((id) => uow.write('brn_m', derive(id), { batch: true })),
    );
    assert.deepEqual(ids, ['mem_1', 'mem_2', 'mem_1'], 'the third unit finds the first one queued');
    assert.deepEqual(statements.map(firstWords), [
      'SELECT seq, self_type,',
      'SELECT id FROM',
      'SELECT id FROM',
      'SELECT id FROM',
      'finish: INSERT INTO memories | INSERT INTO citations | UPDATE brains SET',
    ]);
    const rows = await db.query<{ id: string; quotes: string[] }>(
      `SELECT m.id, array_agg(c.quote) AS quotes FROM memories m JOIN citations c ON c.memory_id = m.id
       WHERE m.brain_uid = 'brn_m' GROUP BY m.id, m.n ORDER BY m.n`,
    );
    assert.deepEqual(rows.rows, [
      { id: 'mem_1', quotes: ['mem_1'] },
      { id: 'mem_2', quotes: ['mem_2'] },
    ]);
  });

  it('a queued row the database refuses fails every unit of the batch, as a failed COMMIT does', async () => {
    await addBrain(db, 'brn_c');
    const uow = pgUnitsOfWork(db);
    // Written only at the end, after every unit resolved: no unit is left to blame alone.
    const results = await Promise.allSettled([
      uow.write('brn_c', append('brn_c', 'rec_c1'), { batch: true }),
      uow.write(
        'brn_c',
        (u) => u.jobs.enqueue({ job: 'derive', brainUid: 'brn_c', recordId: 'rec_none', recordSeq: 1 }),
        { batch: true },
      ),
    ]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['rejected', 'rejected'],
    );
    assert.deepEqual(await stored('brn_c'), { records: [], jobs: [], keys: [], seq: 0 });
  });
});
