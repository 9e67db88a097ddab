import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { LineTransport } from './line-transport.ts';

function setup(maxLineBytes: number, drainMs?: number) {
  const input = new PassThrough();
  const output = new PassThrough();
  const logs: string[] = [];
  const got: unknown[] = [];
  const t = new LineTransport(input, output, (l) => logs.push(l), maxLineBytes, drainMs);
  t.onmessage = (m) => got.push(m);
  return { input, output, logs, got, t };
}
const tick = () => new Promise((r) => setImmediate(r));

test('messages split across chunks, CRLF and blank lines are read', async () => {
  const { input, got, t } = setup(1024);
  await t.start();
  input.write('{"jsonrpc":"2.0","id":1,');
  input.write('"method":"ping"}\r\n\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
  await tick();
  assert.deepEqual(got, [
    { jsonrpc: '2.0', id: 1, method: 'ping' },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
  ]);
});

test('garbage and over-long lines are dropped and answered with JSON-RPC errors, and reading goes on', async () => {
  const { input, output, got, logs, t } = setup(64);
  let written = '';
  output.on('data', (c: Buffer) => (written += c.toString()));
  let closed = false;
  t.onclose = () => (closed = true);
  await t.start();
  input.write('not json\n{"jsonrpc":"1.0","id":2}\n[{"jsonrpc":"2.0","id":4,"method":"ping"},{"id":5}]\n');
  input.write('x'.repeat(50));
  input.write('y'.repeat(50)); // over the limit without a newline yet
  input.write('z'.repeat(500) + '\n{"jsonrpc":"2.0","id":3,"method":"ping"}\n');
  await tick();
  assert.deepEqual(got, [{ jsonrpc: '2.0', id: 3, method: 'ping' }]);
  assert.equal(closed, false);
  assert.equal(logs.length, 4, logs.join('\n'));
  // Each one is told, with its id when it has one: a client must not wait forever for an answer.
  const errors = written
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { id: unknown; error: { code: number; message: string } });
  assert.deepEqual(
    errors.map((e) => [e.id, e.error.code]),
    [
      [null, -32700],
      [2, -32600],
      [4, -32600],
      [5, -32600],
      [null, -32700],
    ],
  );
  assert.match(errors[2]!.error.message, /batches are not supported; send each message on a line of its own/);
  await t.send({ jsonrpc: '2.0', id: 3, result: {} });
  input.end();
  await tick();
  assert.equal(closed, true, 'end of input closes the transport');
});

test('send writes one newline-terminated JSON message and nothing after close', async () => {
  const { output, t } = setup(1024);
  let written = '';
  output.on('data', (c: Buffer) => (written += c.toString()));
  await t.start();
  await t.send({ jsonrpc: '2.0', id: 1, result: {} });
  await t.close();
  await t.send({ jsonrpc: '2.0', id: 2, result: {} });
  await tick();
  assert.equal(written, '{"jsonrpc":"2.0","id":1,"result":{}}\n');
});

test('requests read before the input ends are still answered, then the transport closes', async () => {
  const { input, output, t } = setup(1024);
  let written = '';
  output.on('data', (c: Buffer) => (written += c.toString()));
  let closed = false;
  t.onclose = () => (closed = true);
  await t.start();
  input.end('{"jsonrpc":"2.0","id":7,"method":"tools/call"}\n{"jsonrpc":"2.0","id":"b","method":"ping"}\n');
  await tick();
  assert.equal(closed, false, 'two answers are owed');
  await t.send({ jsonrpc: '2.0', id: 7, result: {} });
  assert.equal(closed, false, 'one answer is still owed');
  await t.send({ jsonrpc: '2.0', id: 'b', error: { code: -1, message: 'no' } });
  await tick();
  assert.equal(closed, true);
  assert.equal(written.trim().split('\n').length, 2);
});

test('an answer that never comes does not keep the transport open past drainMs', async (ctx) => {
  // The clock is the test's: on a loaded machine a real 20 ms timer can fire before the next tick.
  ctx.mock.timers.enable({ apis: ['setTimeout'] });
  const { input, logs, t } = setup(1024, 20);
  let closed = false;
  t.onclose = () => (closed = true);
  await t.start();
  input.end('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
  await tick();
  ctx.mock.timers.tick(19);
  assert.equal(closed, false);
  ctx.mock.timers.tick(1);
  assert.equal(closed, true);
  assert.match(logs.at(-1)!, /1 request\(s\) still unanswered/);
});

test('a request cancelled after the input ended is owed no answer: the transport closes', async () => {
  const { input, t } = setup(1024);
  let closed = false;
  t.onclose = () => (closed = true);
  await t.start();
  input.end(
    '{"jsonrpc":"2.0","id":4,"method":"tools/call"}\n' +
      '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":4,"reason":"user"}}\n',
  );
  await tick();
  assert.equal(closed, true);
});

test('an over-long request is answered with its id, read from where clients write it, so its call fails at once', async () => {
  const { input, output, got, t } = setup(256);
  let written = '';
  output.on('data', (c: Buffer) => (written += c.toString()));
  await t.start();
  const big = 'x'.repeat(2_000);
  const params = { name: 'remember', arguments: { content: big } };
  // The TypeScript SDK writes the id last; the Python SDK writes it first, after jsonrpc.
  input.write(`${JSON.stringify({ method: 'tools/call', params, jsonrpc: '2.0', id: 7 })}\n`);
  input.write(`${JSON.stringify({ jsonrpc: '2.0', id: 'req-8', method: 'tools/call', params })}\r\n`);
  // An "id" of the arguments is not the request's.
  const nested = { name: 'remember', arguments: { content: big, id: 9 } };
  input.write(`${JSON.stringify({ method: 'tools/call', params: nested, jsonrpc: '2.0' })}\n`);
  // Written in many chunks, as a pipe delivers a large line.
  const chunked = JSON.stringify({ method: 'tools/call', params, jsonrpc: '2.0', id: 10 });
  for (let i = 0; i < chunked.length; i += 100) input.write(chunked.slice(i, i + 100));
  input.write('\n{"jsonrpc":"2.0","id":11,"method":"ping"}\n');
  await tick();
  assert.deepEqual(got, [{ jsonrpc: '2.0', id: 11, method: 'ping' }]);
  const errors = written
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { id: unknown; error: { code: number; message: string } });
  assert.deepEqual(
    errors.map((e) => e.id),
    [7, 'req-8', null, 10],
  );
  for (const e of errors) assert.match(e.error.message, /a line longer than 256 bytes is not read/);
});

test('an over-long request cut off by the end of input is still answered with its id', async () => {
  const { input, output, t } = setup(256);
  let written = '';
  output.on('data', (c: Buffer) => (written += c.toString()));
  await t.start();
  input.end(
    JSON.stringify({ method: 'tools/call', params: { x: 'y'.repeat(1_000) }, jsonrpc: '2.0', id: 5 }),
  );
  await tick();
  assert.deepEqual(
    written
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { id: unknown }).id),
    [5],
  );
});
