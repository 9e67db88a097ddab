import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { MemoryPort } from './memory-port.ts';
import { createMcpServer } from './mcp-tools.ts';

// What remember hands the port (the bridge's goes to a /v1 server as it is): a kind this build does not
// know is the store's to judge, and must reach it with every other argument, as a known kind does. The
// port records instead of writing: no server here knows a kind this build does not.
test('remember checks and passes occurred_at, visibility and the idempotency key to the store, whatever the kind', async () => {
  const calls: unknown[] = [];
  const refuse = () => Promise.reject(new Error('not used'));
  const port: MemoryPort = {
    brainId: 'me',
    remember: (body, key) => {
      calls.push({ body, key });
      return Promise.resolve({ record: {} as never, watermark: null, replayed: null });
    },
    context: refuse,
    listMemories: refuse,
    getMemory: refuse,
    getRecord: refuse,
    listRecords: refuse,
    getProfile: refuse,
    forgetRecord: refuse,
    getTrace: refuse,
  };
  const [a, b] = InMemoryTransport.createLinkedPair();
  await createMcpServer(port).connect(a);
  const client = new Client({ name: 'remember-args-test', version: '1.0.0' });
  await client.connect(b);
  const rest = { occurred_at: '2024-03-01T10:00:00Z', visibility: 'local_only', idempotency_key: 'k1' };
  for (const content of [
    { kind: 'message', text: 'hello' },
    { kind: 'voice_note', text: 'from a newer build' },
  ]) {
    const r = await client.callTool({ name: 'remember', arguments: { content, ...rest } });
    assert.ok(!r.isError, JSON.stringify(r.content));
  }
  // The other arguments are checked here whatever the kind, in the same words: an empty key is no key
  // to retry with, and an unknown field is refused rather than dropped.
  const bad = { occurred_at: '', idempotency_key: '', bogus: 1 };
  const refusals = [];
  for (const kind of ['message', 'voice_note']) {
    const r = await client.callTool({
      name: 'remember',
      arguments: { content: { kind, text: 'hi' }, ...bad },
    });
    assert.ok(r.isError, JSON.stringify(r.content));
    // Each call has a request id of its own; the words are what must agree.
    refusals.push(JSON.stringify(r.content).replace(/req_\w+/, 'req_'));
  }
  assert.match(refusals[0]!, /occurred_at/);
  assert.match(refusals[0]!, /idempotency_key/);
  assert.match(refusals[0]!, /bogus/);
  assert.equal(refusals[1], refusals[0]);
  await client.close();
  const body = (content: unknown) => ({
    body: { content, source: { name: 'mcp' }, occurred_at: rest.occurred_at, visibility: rest.visibility },
    key: 'k1',
  });
  assert.deepEqual(calls, [
    body({ kind: 'message', text: 'hello' }),
    body({ kind: 'voice_note', text: 'from a newer build' }),
  ]);
});

test("remember passes a correction's valid_from to the store, and refuses one on a withdrawal", async () => {
  const calls: unknown[] = [];
  const refuse = () => Promise.reject(new Error('not used'));
  const port: MemoryPort = {
    brainId: 'me',
    remember: (body) => {
      calls.push(body.content);
      return Promise.resolve({ record: {} as never, watermark: null, replayed: null });
    },
    context: refuse,
    listMemories: refuse,
    getMemory: refuse,
    getRecord: refuse,
    listRecords: refuse,
    getProfile: refuse,
    forgetRecord: refuse,
    getTrace: refuse,
  };
  const [a, b] = InMemoryTransport.createLinkedPair();
  await createMcpServer(port).connect(a);
  const client = new Client({ name: 'remember-valid-from-test', version: '1.0.0' });
  await client.connect(b);
  const dated = {
    kind: 'correction',
    corrects: 'mem_01ABC',
    statement: 'Ana works at Sonae',
    valid_from: '2027-01-11T00:00:00+00:00',
  };
  const ok = await client.callTool({ name: 'remember', arguments: { content: dated } });
  assert.ok(!ok.isError, JSON.stringify(ok.content));
  const withdrawal = { kind: 'correction', corrects: 'mem_01ABC', valid_from: dated.valid_from };
  const no = await client.callTool({ name: 'remember', arguments: { content: withdrawal } });
  assert.ok(no.isError, JSON.stringify(no.content));
  assert.match(JSON.stringify(no.content), /content\.valid_from: needs a statement/);
  await client.close();
  assert.deepEqual(calls, [dated]);
});
