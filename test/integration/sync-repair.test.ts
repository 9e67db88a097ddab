import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { allRecords, recordingProxy, startNode, tempRoot, type Node } from './sync-helpers.ts';

const until = async (what: string, check: () => Promise<boolean> | boolean, ms = 15_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};

describe('pairing a Brain again while a sync run is in flight', () => {
  const { root, remove } = tempRoot();
  let one: Node;
  let two: Node;
  let a: Node;
  let toOne: Awaited<ReturnType<typeof recordingProxy>>;
  let toTwo: Awaited<ReturnType<typeof recordingProxy>>;
  before(async () => {
    [one, two, a] = await Promise.all([
      startNode(root, 'one', { deployment: 'hosted' }),
      startNode(root, 'two', { deployment: 'hosted' }),
      startNode(root, 'a', { sync: { debounceMs: 3_600_000, intervalMs: 3_600_000 } }),
    ]);
    toOne = await recordingProxy(() => one.server.url);
    toTwo = await recordingProxy(() => two.server.url);
  });
  after(async () => {
    await Promise.all([toOne.close(), toTwo.close()]);
    await Promise.all([one, two, a].map((n) => n.stop().catch(() => {})));
    remove();
  });

  it('leaves the new pairing its own cursors: every Record reaches the new hub', async () => {
    await a.client.createBrain({ id: 'ana' });
    for (const text of ['The ferry leaves at seven.', 'My dentist is Dr. Costa.', 'I moved to Porto.']) {
      await a.client.rememberRecord('ana', { content: text });
    }
    // The first pairing's run is held at its push.
    let release = () => {};
    toOne.hold = { path: /\/sync\/records$/, until: new Promise<void>((r) => (release = r)), held: 0 };
    await a.client.pairSync('ana', { remote: toOne.url, remote_key: one.key });
    await until('the first run to reach its push', () => toOne.hold!.held > 0);

    // Paired again with another hub meanwhile; that hub goes away once the pairing has checked it,
    // so the new pairing's first run fails.
    toTwo.downAfterCheck = true;
    await a.client.pairSync('ana', { remote: toTwo.url, remote_key: two.key });
    await until(
      'the new pairing to try its hub',
      async () => (await a.client.getSync('ana')).last_error !== null,
    );

    // The first run's push goes through now, too late: what it learns belongs to a pairing that is gone.
    release();
    await until(
      'the first hub to receive the push',
      async () => (await allRecords(one.client, 'ana')).length === 3,
    );
    await new Promise((r) => setTimeout(r, 300));
    const between = await a.client.getSync('ana');
    assert.deepEqual([between.remote, between.pending, between.pushed], [toTwo.url, 3, 0]);

    toTwo.down = false;
    const status = await a.client.runSync('ana');
    assert.equal(status.last_error, null);
    assert.deepEqual([status.pending, status.pushed], [0, 3]);
    assert.equal((await allRecords(two.client, 'ana')).length, 3);
  });
});

describe('a hub Brain deleted and made again', () => {
  const { root, remove } = tempRoot();
  let hub: Node;
  let a: Node;
  before(async () => {
    [hub, a] = await Promise.all([startNode(root, 'hub', { deployment: 'hosted' }), startNode(root, 'a')]);
  });
  after(async () => {
    await Promise.all([hub, a].map((n) => n.stop().catch(() => {})));
    remove();
  });

  it('gets every Record again from the device, which then pulls from the start without an error', async () => {
    await a.client.createBrain({ id: 'ana' });
    for (const text of ['The ferry leaves at seven.', 'My dentist is Dr. Costa.']) {
      await a.client.rememberRecord('ana', { content: text });
    }
    // The redactor is unsure of a handle: held back.
    const handle = await a.client.rememberRecord('ana', {
      content: 'ping me @someone',
      visibility: 'redacted_summary',
    });
    await a.client.pairSync('ana', { remote: hub.server.url, remote_key: hub.key });
    const first = await a.client.runSync('ana');
    assert.deepEqual([first.last_error, first.pushed, first.held_back], [null, 2, 1]);
    // Which one, to open it: a count alone left no way to find it.
    assert.deepEqual([first.held_back_examples, first.skipped_examples], [[handle.record.id], []]);
    assert.equal((await allRecords(hub.client, 'ana')).length, 2);

    await hub.client.forgetBrain('ana');
    const status = await a.client.runSync('ana');
    assert.equal(status.last_error, null);
    assert.equal((await allRecords(hub.client, 'ana')).length, 2);
    // Counted for the new Brain: the Record held back is one Record held back, not two.
    assert.deepEqual([status.pushed, status.held_back, status.skipped], [2, 1, 0]);
    // The next run goes on from the new Brain's watermark.
    assert.equal((await a.client.runSync('ana')).last_error, null);
  });
});

describe('a hub Brain made again after the device that wrote its Records stopped syncing', () => {
  const { root, remove } = tempRoot();
  let hub: Node;
  let a: Node;
  let b: Node;
  let c: Node;
  before(async () => {
    [hub, a, b, c] = await Promise.all([
      startNode(root, 'hub', { deployment: 'hosted' }),
      startNode(root, 'a'),
      startNode(root, 'b'),
      startNode(root, 'c'),
    ]);
  });
  after(async () => {
    await Promise.all([hub, a, b, c].map((n) => n.stop().catch(() => {})));
    remove();
  });
  const pair = async (n: Node) => {
    await n.client.createBrain({ id: 'ana' });
    await n.client.pairSync('ana', { remote: hub.server.url, remote_key: hub.key });
    const status = await n.client.runSync('ana');
    assert.equal(status.last_error, null);
    return status;
  };
  const ids = async (n: Node) => (await allRecords(n.client, 'ana')).map((r) => r.id).sort();

  it('gets the Records another device pulled from the old Brain, as they are, once', async () => {
    await a.client.createBrain({ id: 'ana' });
    await a.client.rememberRecord('ana', { content: 'The ferry leaves at seven.' });
    await a.client.rememberRecord('ana', {
      content: 'Call the plumber on +351 912 345 678.',
      visibility: 'redacted_summary',
    });
    await a.client.pairSync('ana', { remote: hub.server.url, remote_key: hub.key });
    assert.equal((await a.client.runSync('ana')).last_error, null);
    await pair(b);
    const onHub = await ids(hub);
    assert.equal(onHub.length, 2);
    assert.deepEqual(await ids(b), onHub);

    // Device a stops syncing; the hub's Brain is forgotten, and made again by b's next run.
    await a.client.unpairSync('ana');
    await hub.client.forgetBrain('ana');
    const again = await b.client.runSync('ana');
    assert.equal(again.last_error, null);
    assert.deepEqual(await ids(hub), onHub, 'the same Records, under the same ids');
    const copy = (await allRecords(hub.client, 'ana')).find((r) => r.visibility === 'redacted_summary')!;
    assert.deepEqual(copy.content, { kind: 'document', text: 'Call the plumber on [phone].' });
    assert.equal((await b.client.runSync('ana')).last_error, null);
    assert.deepEqual(await ids(b), onHub, 'nothing pulled back as a second copy');

    // A new device gets them; device a, paired again, adds no second copy of its own.
    await pair(c);
    assert.deepEqual(await ids(c), onHub);
    await a.client.pairSync('ana', { remote: hub.server.url, remote_key: hub.key });
    assert.equal((await a.client.runSync('ana')).last_error, null);
    assert.deepEqual(await ids(hub), onHub);
  });
});

describe('a hub Brain made again before another device learnt of a forget', () => {
  const { root, remove } = tempRoot();
  let hub: Node;
  let a: Node;
  let b: Node;
  before(async () => {
    [hub, a, b] = await Promise.all([
      startNode(root, 'hub', { deployment: 'hosted' }),
      startNode(root, 'a'),
      startNode(root, 'b'),
    ]);
  });
  after(async () => {
    await Promise.all([hub, a, b].map((n) => n.stop().catch(() => {})));
    remove();
  });
  const ids = async (n: Node) => (await allRecords(n.client, 'ana')).map((r) => r.id).sort();
  const run = async (n: Node) => assert.equal((await n.client.runSync('ana')).last_error, null, n.name);

  it('does not bring the forgotten Record back: the forget is sent to the new Brain too', async () => {
    for (const n of [a, b]) await n.client.createBrain({ id: 'ana' });
    const kept = await a.client.rememberRecord('ana', { content: 'The ferry leaves at seven.' });
    const gone = await a.client.rememberRecord('ana', { content: 'My old door code is 4471.' });
    for (const n of [a, b]) {
      await n.client.pairSync('ana', { remote: hub.server.url, remote_key: hub.key });
      await run(n);
    }
    assert.equal((await ids(b)).length, 2);

    // Forgotten on a, and sent; b has not run since. Then the hub's Brain is forgotten, and b's next
    // run makes it again, pushing what b holds: the Record a forgot among it.
    await a.client.forgetRecord('ana', gone.record.id);
    await run(a);
    await hub.client.forgetBrain('ana');
    await run(b);
    await run(a);
    await run(b);
    for (const n of [hub, a, b]) assert.deepEqual(await ids(n), [kept.record.id], n.name);
    await run(b);
    assert.deepEqual(await ids(hub), [kept.record.id], 'and it stays gone');
  });
});

describe('a forgotten import on a paired device', () => {
  const { root, remove } = tempRoot();
  let hub: Node;
  let a: Node;
  let proxy: Awaited<ReturnType<typeof recordingProxy>>;
  before(async () => {
    [hub, a] = await Promise.all([
      startNode(root, 'hub', { deployment: 'hosted' }),
      startNode(root, 'a', {
        sync: { debounceMs: 3_600_000, intervalMs: 3_600_000, limits: { tombstonesPerRequest: 2 } },
      }),
    ]);
    proxy = await recordingProxy(() => hub.server.url);
  });
  after(async () => {
    await proxy.close();
    await Promise.all([hub, a].map((n) => n.stop().catch(() => {})));
    remove();
  });

  it('sends its tombstones in requests the hub takes, however many one step holds', async () => {
    await a.client.createBrain({ id: 'ana' });
    for (const n of [1, 2, 3, 4, 5])
      await a.client.rememberRecord('ana', { content: `Mail ${n}`, source: { name: 'mail' } });
    await a.client.pairSync('ana', { remote: proxy.url, remote_key: hub.key });
    assert.equal((await a.client.runSync('ana')).last_error, null);
    assert.equal((await allRecords(hub.client, 'ana')).length, 5);

    await a.client.forgetSource('ana', 'mail');
    proxy.bodies.length = 0;
    assert.equal((await a.client.runSync('ana')).last_error, null);
    const sent = proxy.bodies
      .filter((b) => b.startsWith('{"ids"'))
      .map((b) => (JSON.parse(b) as { ids: string[] }).ids.length);
    assert.deepEqual(sent, [2, 2, 1]);
    assert.equal((await allRecords(hub.client, 'ana')).length, 0);
  });
});
