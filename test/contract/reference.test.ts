import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ContextReady, Memory, MnemoRecord } from '../../engine/contract/index.ts';
import { startServer, type RunningServer } from '../../server/start-server.ts';
import { assertShape, client, freshKey, type Client } from './harness.ts';
import { runContractSuite } from './suite.ts';

runContractSuite(
  {
    name: 'reference',
    kinds: ['message', 'document', 'event', 'fact'],
    unknownKindCode: 'invalid_request_body',
    sharesMemories: false,
    assemblesAtOnce: true,
  },
  (o = {}) => startServer({ engine: 'reference', port: 0, rateLimit: 0, ...o }),
);

/*
 * The spec's minimum behaviours of the reference (conformance) engine, which the shared suite cannot
 * ask of every engine: one Memory per Record with subject `record`, a substring scan, no model calls.
 */
describe('reference engine minimum behaviours', () => {
  let server: RunningServer;
  let api: Client;
  before(async () => {
    server = await startServer({ engine: 'reference', port: 0, rateLimit: 0 });
    api = client(server, await freshKey(server));
    assert.equal((await api.post('/brains', { id: 'b' })).status, 201);
  });
  after(() => server.close());

  it('each Record gives exactly one Memory, with subject record, citing it', async () => {
    const ids: string[] = [];
    for (const content of ['I live in Porto. I work at Acme.', 'I live in Porto. I work at Acme.']) {
      const r = await api.post('/brains/b/records', { content });
      const record = assertShape(MnemoRecord, r.body);
      assert.equal(record.memory_ids.length, 1, 'one Memory, however many statements');
      ids.push(record.memory_ids[0]!);
      const m = assertShape(Memory, (await api.get(`/brains/b/memories/${record.memory_ids[0]}`)).body);
      assert.equal(m.subject, 'record');
      assert.deepEqual(
        m.citations.map((c) => c.record_id),
        [record.id],
      );
    }
    assert.notEqual(ids[0], ids[1], 'no entity resolution or merging: each Record its own Memory');
  });

  it('calls no model: every cost field is 0, on a hit, a miss and thorough; thorough returns what fast returns', async () => {
    await api.post('/brains/b/records', { content: 'The kayak is stored in the garage.' });
    const ask = async (body: Record<string, unknown>) =>
      assertShape(ContextReady, (await api.post('/brains/b/context', body)).body);
    const fast = await ask({ query: 'kayak garage' });
    const thorough = await ask({ query: 'kayak garage', mode: 'thorough' });
    const miss = await ask({ query: 'xylophone' });
    assert.ok(fast.citations.length > 0);
    for (const ctx of [fast, thorough, miss]) {
      assert.ok(Object.keys(ctx.cost).length >= 2);
      for (const [k, v] of Object.entries(ctx.cost)) assert.equal(v, 0, k);
    }
    assert.deepEqual(
      [thorough.text, thorough.citations, thorough.unknowns, thorough.budget],
      [fast.text, fast.citations, fast.unknowns, fast.budget],
    );
  });

  it('retrieval is a substring scan: a query must share a word with the evidence; a miss carries memories []', async () => {
    await api.post('/brains/b/records', { content: 'My cat sleeps on the piano.' });
    const ask = async (query: string) =>
      assertShape(ContextReady, (await api.post('/brains/b/context', { query, include: ['memories'] })).body);
    assert.ok((await ask('piano')).citations.length > 0);
    const miss = await ask('feline');
    assert.deepEqual([miss.citations, miss.text, miss.memories], [[], null, []]);
    assert.deepEqual(miss.unknowns, ['feline']);
  });
});
