import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { recordingProxy, startNode, tempRoot, type Node } from './sync-helpers.ts';

const until = async (what: string, check: () => Promise<boolean>, ms = 15_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe('the background sync of a running server', () => {
  const { root, remove } = tempRoot();
  let h: Node;
  let a: Node;
  let b: Node;
  let proxy: Awaited<ReturnType<typeof recordingProxy>>;
  before(async () => {
    h = await startNode(root, 'h', { deployment: 'hosted' });
    // A pushes soon after writes but otherwise rarely; B pulls often.
    a = await startNode(root, 'a', { sync: { debounceMs: 100, intervalMs: 200 } });
    b = await startNode(root, 'b', { sync: { debounceMs: 100, intervalMs: 300, maxBackoffMs: 1_000 } });
    proxy = await recordingProxy(() => h.server.url);
    for (const d of [a, b]) {
      await d.client.createBrain({ id: 'ana' });
      await d.client.pairSync('ana', { remote: proxy.url, remote_key: h.key });
    }
  });
  after(async () => {
    await proxy.close();
    await Promise.all([h, a, b].map((n) => n.stop().catch(() => {})));
    remove();
  });

  it('pushes a write soon after it, and the other device pulls it by itself', async () => {
    const { record } = await a.client.rememberRecord('ana', { content: 'The ferry leaves at seven.' });
    await until('B to pull the write', async () => {
      const page = await b.client.listRecords('ana');
      return page.data.some((r) => r.id === record.id);
    });
    assert.equal((await a.client.getSync('ana')).pending, 0);
  });

  it('backs off while the remote is unreachable, and catches up after a restart once it is back', async () => {
    proxy.down = true;
    const before = proxy.refused;
    const { record } = await a.client.rememberRecord('ana', { content: 'Written while the hub is away.' });
    await new Promise((r) => setTimeout(r, 3_000));
    // A run tries twice (a dropped connection is tried once more, 250 ms later). Without backoff A and
    // B would run every 0.45 and 0.55 s, some 24 attempts in 3 s; waits doubling from the interval
    // (B's capped at 1 s) make it 4 runs each, 16 attempts.
    const attempts = proxy.refused - before;
    assert.ok(attempts >= 2 && attempts <= 19, `${attempts} attempts in 3 s`);
    const failing = await a.client.getSync('ana');
    assert.ok(failing.last_error !== null && failing.pending === 1);
    await a.restart();
    proxy.down = false;
    await until('B to pull the write made while the hub was away', async () => {
      const page = await b.client.listRecords('ana');
      return page.data.some((r) => r.id === record.id);
    });
  });

  it('runs no pairing of a store served as a hosted deployment', async () => {
    const own = await recordingProxy(() => h.server.url);
    const c = await startNode(root, 'c', { sync: { debounceMs: 3_600_000, intervalMs: 3_600_000 } });
    await c.client.createBrain({ id: 'ana' });
    await c.client.pairSync('ana', { remote: own.url, remote_key: h.key });
    await c.client.rememberRecord('ana', { content: 'Paired while this store was a device.' });
    await c.stop();
    const seen = own.bodies.length;
    const hosted = await startNode(root, 'c', {
      deployment: 'hosted',
      sync: { debounceMs: 50, intervalMs: 100 },
    });
    try {
      await new Promise((r) => setTimeout(r, 1_000));
      assert.equal(own.bodies.length, seen, 'requests the hosted server sent for its stored pairing');
    } finally {
      await hosted.stop();
      await own.close();
    }
  });
});
