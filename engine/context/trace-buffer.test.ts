import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createTraceBuffer, failedTrace } from './trace-buffer.ts';

const trace = (id: string) =>
  failedTrace(
    'life',
    {
      requestId: 'req_1',
      query: 'where do I live',
      mode: 'thorough',
      request: { query: 'where do I live' },
      error: { code: 'internal_error', message: 'x' },
    },
    '2026-01-01T00:00:00.000Z',
    id,
  );

describe('Traces in memory (TraceStore)', () => {
  it("a 202's processing Trace added after the finished one leaves the finished one", async () => {
    const traces = createTraceBuffer(10);
    await traces.add('brn_1', trace('ctx_1'));
    await traces.add('brn_1', { ...trace('ctx_1'), status: 'processing' });
    assert.equal((await traces.get('brn_1', 'ctx_1')).status, 'failed');
    // The other way round, the finished one replaces the 202's.
    await traces.add('brn_1', { ...trace('ctx_2'), status: 'processing' });
    await traces.add('brn_1', trace('ctx_2'));
    assert.equal((await traces.get('brn_1', 'ctx_2')).status, 'failed');
  });

  it('a forget takes a Trace that names the Record only as evidence left out, or in the reason why', async () => {
    const traces = createTraceBuffer(10);
    const dropped = (id: string) => ({
      ...trace(id),
      dropped: [{ record_id: 'rec_A', reason: 'repeated: the same words as rec_B, which is quoted instead' }],
    });
    await traces.add('brn_1', dropped('ctx_1'));
    await traces.add('brn_1', dropped('ctx_2'));
    await traces.add('brn_1', trace('ctx_3'));
    await traces.forgetRecords('brn_1', ['rec_A']);
    await assert.rejects(traces.get('brn_1', 'ctx_1'), { code: 'trace_not_found' });
    await traces.forgetRecords('brn_1', ['rec_B']);
    await assert.rejects(traces.get('brn_1', 'ctx_2'), { code: 'trace_not_found' });
    assert.equal((await traces.get('brn_1', 'ctx_3')).id, 'ctx_3');
  });
});
