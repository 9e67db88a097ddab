import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { startServer } from '../../server/start-server.ts';

// A browser tab left open on the UI keeps a connection busy; closing the server must still finish.
test('close() finishes while a client holds a connection in the middle of a request', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'mnemo-close-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));
  const server = await startServer({ engine: 'reference', port: 0, dataDir, configDir: join(dataDir, 'c') });
  const socket = connect(server.port, '127.0.0.1');
  after(() => socket.destroy());
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  // Headers never finished: to the server this connection is busy, not idle.
  socket.write('GET /v1/brains HTTP/1.1\r\nHost: 127.0.0.1\r\n');
  await new Promise((r) => setTimeout(r, 100));
  const closed = server.close().then(() => 'closed' as const);
  const stuck = new Promise<'stuck'>((r) => setTimeout(() => r('stuck'), 15_000).unref());
  assert.equal(await Promise.race([closed, stuck]), 'closed');
  const ended = await new Promise<boolean>((r) => {
    if (socket.destroyed) r(true);
    socket.once('close', () => r(true));
  });
  assert.ok(ended, 'the busy connection was closed by the server');
});
