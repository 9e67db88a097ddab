import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Trace } from '../../contract/index.ts';
import { failedTrace } from '../../context/trace-buffer.ts';
import { pgTraceStore } from './trace-store.ts';
import { addBrain, addRecord, migratedDatabase, migratedPglite, serverForTests } from './testing/fixtures.ts';
import type { PgClient } from './client.ts';

const db = await migratedPglite();

/** A Trace citing these Records. */
function trace(id: string, recordIds: string[] = [], query = 'where do I live'): Trace {
  const t = failedTrace(
    'life',
    {
      requestId: 'req_1',
      query,
      mode: 'fast',
      request: { query },
      error: { code: 'internal_error', message: 'x' },
    } as unknown as Parameters<typeof failedTrace>[1],
    '2026-01-01T00:00:00.000Z',
    id,
  );
  return { ...t, citations: recordIds.map((r) => ({ record_id: r }) as Trace['citations'][number]) };
}

describe('Traces over PostgreSQL (TraceStore)', () => {
  it('lists newest first in pages, reads one back as written, and replaces one of the same id', async () => {
    await addBrain(db, 'brn_t1');
    const traces = pgTraceStore(db);
    for (const id of ['trc_1', 'trc_2', 'trc_3']) await traces.add('brn_t1', trace(id));
    const first = await traces.list('brn_t1', 2);
    assert.deepEqual(
      first.data.map((s) => s.id),
      ['trc_3', 'trc_2'],
    );
    assert.equal(first.has_more, true);
    const second = await traces.list('brn_t1', 2, first.next_cursor!);
    assert.deepEqual(
      [second.data.map((s) => s.id), second.has_more, second.next_cursor],
      [['trc_1'], false, null],
    );
    const t = trace('trc_2', [], 'a second query');
    await traces.add('brn_t1', t);
    const back = await traces.get('brn_t1', 'trc_2');
    assert.equal(JSON.stringify(back), JSON.stringify(t), 'the same Trace, keys in the same order');
    assert.deepEqual(
      (await traces.list('brn_t1', 10)).data.map((s) => [s.id, s.query]),
      [
        ['trc_3', 'where do I live'],
        ['trc_2', 'a second query'],
        ['trc_1', 'where do I live'],
      ],
    );
    await assert.rejects(traces.get('brn_t1', 'trc_9'), { code: 'trace_not_found' });
    await assert.rejects(traces.get('brn_other', 'trc_1'), { code: 'trace_not_found' });
    await assert.rejects(traces.list('brn_t1', 2, 'bogus'), { code: 'invalid_request_body' });
  });

  it("a 202's processing Trace added after the finished one leaves the finished one", async () => {
    await addBrain(db, 'brn_t4');
    const traces = pgTraceStore(db);
    await traces.add('brn_t4', trace('trc_f'));
    await traces.add('brn_t4', { ...trace('trc_f'), status: 'processing' });
    assert.equal((await traces.get('brn_t4', 'trc_f')).status, 'failed');
    assert.deepEqual(
      (await traces.list('brn_t4', 10)).data.map((s) => [s.id, s.status]),
      [['trc_f', 'failed']],
    );
  });

  it('keeps the newest per Brain', async () => {
    await addBrain(db, 'brn_t2');
    const traces = pgTraceStore(db, { perBrain: 3 });
    for (let i = 1; i <= 5; i++) await traces.add('brn_t2', trace(`trc_c${i}`));
    assert.deepEqual(
      (await traces.list('brn_t2', 10)).data.map((s) => s.id),
      ['trc_c5', 'trc_c4', 'trc_c3'],
    );
  });

  it('forgetting Records drops the Traces naming them; a Trace naming a forgotten Record is not kept', async () => {
    await addBrain(db, 'brn_t3');
    for (const r of ['rec_a', 'rec_b']) await addRecord(db, 'brn_t3', r);
    const traces = pgTraceStore(db);
    await traces.add('brn_t3', trace('trc_a', ['rec_a']));
    await traces.add('brn_t3', trace('trc_b', ['rec_b']));
    await traces.add('brn_t3', trace('trc_none'));
    const before = traces.forgets();
    await db.query("DELETE FROM records WHERE brain_uid = 'brn_t3' AND id = 'rec_a'");
    await traces.forgetRecords('brn_t3', ['rec_a']);
    assert.equal(traces.forgets(), before + 1);
    assert.deepEqual(
      (await traces.list('brn_t3', 10)).data.map((s) => s.id),
      ['trc_none', 'trc_b'],
    );
    // Assembled before the forget, finished after it (in this process or another).
    await traces.add('brn_t3', trace('trc_late', ['rec_a', 'rec_b']));
    await assert.rejects(traces.get('brn_t3', 'trc_late'), { code: 'trace_not_found' });
    // A thorough one finished after a forget in another process: the Trace its 202 left goes too.
    await traces.add('brn_t3', { ...trace('trc_202'), status: 'processing' });
    await traces.add('brn_t3', trace('trc_202', ['rec_a', 'rec_b']));
    await assert.rejects(traces.get('brn_t3', 'trc_202'), { code: 'trace_not_found' });
    await traces.remove('brn_t3', 'trc_none');
    await traces.purge('brn_t3');
    assert.deepEqual((await traces.list('brn_t3', 10)).data, []);
  });
});

/** Waits until a statement of another connection whose text holds `marker` waits for a lock. */
async function waitsForLock(db: PgClient, marker: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    const r = await db.query(
      `SELECT 1 FROM pg_stat_activity
       WHERE wait_event_type = 'Lock' AND query LIKE '%' || $1 || '%' AND pid <> pg_backend_pid()`,
      [marker],
    );
    if (r.rows.length > 0) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  assert.fail(`no statement with ${marker} waited for a lock`);
}

const server = await serverForTests();
describe('Traces beside the units of work of other processes', { skip: server.skip }, () => {
  it('a Trace added while a forget holds its Brain and deletes a Record it names: no deadlock, not kept', async () => {
    const [forgetting, tracing] = await migratedDatabase(server.cluster(), 2, 2);
    await addBrain(forgetting!, 'brn_d');
    await addRecord(forgetting!, 'brn_d', 'rec_d');
    let adding: Promise<unknown> | null = null;
    // A transaction that holds the Brain's row FOR UPDATE, as forgetting the Brain does, and then
    // deletes a Record the Trace names (a unit of work, FOR NO KEY UPDATE, lets the Trace by).
    await forgetting!.transaction(async (tx) => {
      await tx.query("SELECT seq FROM brains WHERE uid = 'brn_d' FOR UPDATE");
      adding = pgTraceStore(tracing!)
        .add('brn_d', trace('trc_d', ['rec_d']))
        .then(
          () => 'added',
          (e: unknown) => e,
        );
      await waitsForLock(forgetting!, 'INSERT INTO traces');
      await tx.query("DELETE FROM records WHERE brain_uid = 'brn_d' AND id = 'rec_d'");
    });
    assert.equal(await adding!, 'added');
    await assert.rejects(pgTraceStore(forgetting!).get('brn_d', 'trc_d'), { code: 'trace_not_found' });
  });

  it("a 202's Trace and the finished one added at once by two connections: both calls succeed, the finished one stays", async () => {
    const [a, b] = await migratedDatabase(server.cluster(), 2, 2);
    await addBrain(a!, 'brn_r');
    for (let i = 0; i < 20; i++) {
      const id = `trc_r${i}`;
      await Promise.all([
        pgTraceStore(a!).add('brn_r', { ...trace(id), status: 'processing' }),
        pgTraceStore(b!).add('brn_r', trace(id)),
      ]);
      assert.equal((await pgTraceStore(a!).get('brn_r', id)).status, 'failed', id);
    }
  });
});
