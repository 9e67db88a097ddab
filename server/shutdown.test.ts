import assert from 'node:assert/strict';
import { request as httpRequest, Agent } from 'node:http';
import { connect, type Socket } from 'node:net';
import { describe, it } from 'node:test';
import { slowCreateBrain } from './http/testing/slow-request.ts';
import { startServer } from './start-server.ts';

const key = 'sk_test_shutdown_secret1';

/** Whether `p` settles within `ms` (the timer is cleared once it does: it held the file open). */
const settled = async (p: Promise<unknown>, ms: number) => {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((r) => (timer = setTimeout(() => r(false), ms)));
  return Promise.race([p.then(() => true), late]).finally(() => clearTimeout(timer));
};

describe('close() drains in-flight requests before closing the store', () => {
  it('lets a request in flight finish, refuses new connections, then closes the engine', async () => {
    const server = await startServer({ engine: 'reference', port: 0 });
    // Which engine calls had finished when the store was closed.
    const events: string[] = [];
    const { engine } = server;
    const createBrain = engine.createBrain.bind(engine);
    engine.createBrain = async (...args) => {
      const created = await createBrain(...args);
      events.push('createBrain done');
      return created;
    };
    const close = engine.close.bind(engine);
    engine.close = async () => {
      events.push('engine closed');
      await close();
    };
    const slow = await slowCreateBrain(server.port, key, 'slow');
    const closing = server.close();
    // Longer than any fixed "moment" a close might give before dropping connections (it once was 2 s).
    assert.equal(await settled(closing, 2_500), false, 'close waits for the request in flight');
    assert.deepEqual(events, [], 'the store stays open while a handler may use it');
    const refused = await new Promise<boolean>((resolve) => {
      const s: Socket = connect(server.port, '127.0.0.1');
      s.once('error', () => resolve(true));
      s.once('connect', () => (s.destroy(), resolve(false)));
    });
    assert.ok(refused, 'no new connections once closing');
    slow.finish();
    const reply = await slow.reply;
    assert.equal(reply.status, 201, JSON.stringify(reply));
    assert.equal(reply.body.id, 'slow');
    assert.equal(reply.headers['connection'], 'close');
    await closing;
    assert.deepEqual(events, ['createBrain done', 'engine closed']);
  });

  it('closes idle keep-alive connections at once', async () => {
    const server = await startServer({ engine: 'reference', port: 0 });
    const agent = new Agent({ keepAlive: true });
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${server.url}/openapi.json`, { agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end();
    });
    assert.equal(status, 200);
    assert.equal(await settled(server.close(), 1_000), true);
    agent.destroy();
  });

  it('past the grace, a request still running gets a 500 in the error shape, not a dropped socket', async () => {
    const server = await startServer({ engine: 'reference', port: 0, shutdownGraceMs: 300 });
    const slow = await slowCreateBrain(server.port, key, 'never-finished');
    const started = Date.now();
    await server.close();
    assert.ok(Date.now() - started < 5_000);
    const reply = await slow.reply;
    assert.equal(reply.status, 500);
    assert.equal(reply.body.code, 'internal_error');
    assert.match(String(reply.body.request_id), /^req_/);
  });

  it('close({ force: true }) stops waiting at once', async () => {
    const server = await startServer({ engine: 'reference', port: 0, shutdownGraceMs: 60_000 });
    const slow = await slowCreateBrain(server.port, key, 'forced');
    const closing = server.close();
    assert.equal(await settled(closing, 300), false);
    void server.close({ force: true });
    assert.equal(await settled(closing, 3_000), true);
    assert.equal((await slow.reply).status, 500);
  });
});
