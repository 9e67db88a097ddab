import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Trace } from '../../contract/index.ts';
import { failedTrace } from '../../context/trace-buffer.ts';
import { pgTraceStore } from './trace-store.ts';
import { addBrain, addRecord, migratedPglite } from './testing/fixtures.ts';

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
    await traces.remove('brn_t3', 'trc_none');
    await traces.purge('brn_t3');
    assert.deepEqual((await traces.list('brn_t3', 10)).data, []);
  });
});
