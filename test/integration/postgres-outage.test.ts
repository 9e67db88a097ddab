import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startCluster } from '../../engine/adapters/postgres/testing/cluster.ts';
import { startServer } from '../../server/start-server.ts';

/*
 * A hosted server whose database goes away and comes back, through a TCP relay on loopback that this
 * test closes and opens again: the operator is told once that the database cannot be reached, and
 * once that it is back; GET /v1/health says which; requests answer again without a restart.
 */
const started = await startCluster();
const skip = 'skip' in started ? started.skip : false;
const cluster = 'cluster' in started ? started.cluster : null;
after(() => cluster?.stop());

/** Relays 127.0.0.1:port to `target` while open; closing it refuses connections and cuts open ones. */
function relay(target: { host: string; port: number }) {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;
  const open = () =>
    new Promise<void>((resolve, reject) => {
      server = createServer((inbound) => {
        const outbound = createConnection(target);
        for (const s of [inbound, outbound]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => s.destroy());
        }
        inbound.pipe(outbound).pipe(inbound);
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as { port: number }).port;
        resolve();
      });
    });
  const close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server!.close(() => resolve());
    });
  return { open, close, port: () => port };
}

describe('a hosted server over a database that goes away and comes back', { skip }, () => {
  it('logs the outage once and its end once, and answers again without a restart', async () => {
    const url = new URL(await cluster!.freshDatabase());
    const line = relay({ host: url.hostname, port: Number(url.port) });
    await line.open();
    const proxied = new URL(url);
    proxied.port = String(line.port());
    const logged: string[] = [];
    const dataDir = mkdtempSync(join(tmpdir(), 'mnemo-outage-'));
    const running = await startServer({
      engine: 'postgres',
      databaseUrl: proxied.href,
      host: '127.0.0.1',
      port: 0,
      dataDir,
      configDir: join(dataDir, 'config'),
      ui: false,
      log: (l) => logged.push(l),
    });
    try {
      const { key } = await running.registry!.create({ env: 'test', project: 'outage' });
      const answer = async () => {
        const res = await fetch(`${running.url}/brains/b`, { headers: { authorization: `Bearer ${key}` } });
        return { status: res.status, body: (await res.json()) as Record<string, unknown> };
      };
      const get = async () => (await answer()).status;
      const made = await fetch(`${running.url}/brains`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ id: 'b' }),
      });
      assert.equal(made.status, 201);
      const lost = () => logged.filter((l) => /the database cannot be reached/.test(l));
      const back = () => logged.filter((l) => /the database is reachable again/.test(l));

      const health = async () => {
        const res = await fetch(`${running.url}/health`);
        return { status: res.status, body: (await res.json()) as Record<string, unknown> };
      };
      assert.equal((await health()).status, 200);

      await line.close();
      // Several requests while it is gone, and the background workers' own tries: one line.
      // The keys were dropped with the database's watch on them: each is checked there, and cannot be.
      for (let i = 0; i < 3; i++) {
        const r = await answer();
        assert.deepEqual([r.status, r.body.code], [500, 'key_registry_unreadable']);
        assert.doesNotMatch(String(r.body.message), /ECONNREFUSED|127\.0\.0\.1/);
      }
      // A failure the server knows, said once above rather than as an internal_error per request.
      assert.equal(logged.filter((l) => /internal_error/.test(l)).length, 0, logged.join('\n'));
      // A load balancer's check hears it, without the database's address or the cause.
      const down = await health();
      assert.deepEqual([down.status, down.body.code], [503, 'store_unavailable']);
      assert.doesNotMatch(String(down.body.message), /ECONNREFUSED|127\.0\.0\.1|\d{4,5}/);
      assert.equal(lost().length, 1, logged.join('\n'));
      // Its cause, whichever the pool met first: a refused connection, or one the relay cut (a cut
      // socket with bytes unread is reset, so the pool may read ECONNRESET rather than an end).
      assert.match(lost()[0]!, /ECONNREFUSED|ECONNRESET|Connection terminated/);
      assert.equal(back().length, 0);

      await line.open();
      assert.equal((await health()).status, 200);
      assert.equal(await get(), 200);
      assert.equal(back().length, 1, logged.join('\n'));
      assert.match(back()[0]!, /"after_s":\d/);
      assert.equal(lost().length, 1);
    } finally {
      await running.close({ force: true });
      await line.close().catch(() => {});
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
