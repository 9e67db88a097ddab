import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { test } from 'node:test';
import { bindOn } from './serve-on.ts';

test('a request that reaches the socket before its app waits for it, or is answered 503 if start-up fails', async () => {
  const bound = await bindOn({ host: '127.0.0.1', port: 0 });
  // The request has reached the server (a connection still sending its request is closed by a shutdown
  // as idle, as for any server: on a loaded machine the fetch could still be on its way after 200 ms).
  const arrived = new Promise((r) => bound.listener.server.once('request', r));
  const waiting = fetch(`${bound.origin}/v1/health`);
  await arrived;
  // Not answered while nothing serves it.
  const early = await Promise.race([
    waiting.then(() => 'answered'),
    new Promise((r) => setTimeout(r, 200, 'waiting')),
  ]);
  assert.equal(early, 'waiting');
  await bound.abandon();
  const res = await waiting;
  assert.equal(res.status, 503);
  const body = (await res.json()) as { code: string; message: string };
  assert.equal(body.code, 'store_unavailable');
  assert.match(
    body.message,
    /^The server stopped while it was starting; nothing of this request was applied/,
  );
  // And the port is free again.
  const again = createServer();
  await new Promise<void>((resolve, reject) => {
    again.once('error', reject);
    again.listen(bound.listener.port, '127.0.0.1', resolve);
  });
  await new Promise<void>((resolve) => again.close(() => resolve()));
});
