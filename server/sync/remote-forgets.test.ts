import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { createMnemoClient } from '../client/index.ts';
import {
  allRecords,
  fakeRemote,
  hubAnswer,
  json,
  startNode,
  tempRoot,
  type Node,
  type Seen,
} from '../../test/integration/sync-helpers.ts';

/**
 * A hub that may be hostile (docs/sync.md, "Forgets the remote asks for"): it answers every push as
 * `push` says, and its change feed brings `data` (in pages of the limit asked for) and names `removed`
 * with its last page once, then nothing; with
 * `removeSent`, it names under `removed` every id pushed to it since its last page too.
 */
function hostileHub(): {
  push: 'created' | 'forgotten' | 'fail';
  removed: string[];
  data: unknown[];
  removeSent: boolean;
  answer: (seen: Seen, res: ServerResponse) => void;
} {
  let sent: string[] = [];
  let pages = 0;
  const hub = {
    push: 'created' as 'created' | 'forgotten' | 'fail',
    removed: [] as string[],
    data: [] as unknown[],
    removeSent: false,
    answer: (seen: Seen, res: ServerResponse) => {
      const records = seen.method === 'POST' && seen.path.endsWith('/sync/records');
      if (records && seen.body !== '{"records":[]}') {
        if (hub.push === 'fail')
          return res
            .writeHead(500, { 'content-type': 'application/json' })
            .end(JSON.stringify({ type: 'internal', code: 'internal_error', message: 'down a moment' }));
        const batch = (JSON.parse(seen.body) as { records: { id: string }[] }).records;
        sent.push(...batch.map((r) => r.id));
        return json(res, {
          object: 'replication',
          data: batch.map((r) => ({ id: r.id, outcome: hub.push })),
          watermark: 'wm_pushed',
        });
      }
      if (seen.method === 'GET' && seen.path.endsWith('/records')) {
        // `data` in pages of the limit asked for, `removed` with the last.
        const limit = Number(seen.query.get('limit') ?? 200);
        const data = hub.data.slice(0, limit);
        hub.data = hub.data.slice(limit);
        if (hub.data.length > 0)
          return json(res, {
            data,
            has_more: true,
            next_cursor: null,
            watermark: `wm_${++pages}`,
            removed: [],
          });
        const removed = [...hub.removed, ...(hub.removeSent ? sent : [])].map((id) => ({
          id,
          forgotten_at: '2026-01-02T00:00:00.000Z',
        }));
        [hub.removed, sent] = [[], []];
        return json(res, { data, has_more: false, next_cursor: null, watermark: `wm_${++pages}`, removed });
      }
      hubAnswer(seen, res);
    },
  };
  return hub;
}

/** A device paired with a hostile hub; its log lines are kept. */
function deviceWithHub(name: string) {
  const ctx = {} as {
    node: Node;
    remote: Awaited<ReturnType<typeof fakeRemote>>;
    hub: ReturnType<typeof hostileHub>;
    lines: string[];
  };
  const { root, remove } = tempRoot(`mnemo-${name}-`);
  before(async () => {
    ctx.lines = [];
    ctx.node = await startNode(root, name, { log: (line) => ctx.lines.push(line) });
    ctx.remote = await fakeRemote();
    ctx.hub = hostileHub();
    ctx.remote.answer = ctx.hub.answer;
  });
  after(async () => {
    await ctx.remote.close();
    await ctx.node.stop();
    remove();
  });
  return ctx;
}

/** Writes `n` shareable notes to Brain `brain`, and pairs it with the hub; their ids. */
async function notesPaired(
  ctx: ReturnType<typeof deviceWithHub>,
  brain: string,
  n: number,
): Promise<string[]> {
  const { node, remote } = ctx;
  await node.client.createBrain({ id: brain });
  const ids: string[] = [];
  for (let i = 0; i < n; i++)
    ids.push((await node.client.rememberRecord(brain, { content: `Note ${i} of ${brain}.` })).record.id);
  await node.client.pairSync(brain, { remote: remote.url, remote_key: 'sk_test_hub_secret' });
  return ids;
}

const ids = async (node: Node, brain: string) =>
  (await allRecords(node.client, brain)).map((r) => r.id).sort();

describe('a push the remote answers `forgotten` for Records it was never sent', () => {
  const ctx = deviceWithHub('first-send');

  it('forgets none of them, the original of a redacted_summary Record least of all', async () => {
    const { node, hub } = ctx;
    hub.push = 'forgotten';
    const shared = await notesPaired(ctx, 'vic', 3);
    const secret = await node.client.rememberRecord('vic', {
      content: 'call Ivo Ivić at +385 91 555 0101',
      visibility: 'redacted_summary',
    });
    const s = await node.client.runSync('vic');
    assert.equal(s.last_error, null);
    assert.deepEqual(await ids(node, 'vic'), [...shared, secret.record.id].sort());
    // The original, whole: only its copy went.
    const kept = (await node.client.getRecord('vic', secret.record.id)).content as { text: string };
    assert.equal(kept.text, 'call Ivo Ivić at +385 91 555 0101');
    assert.deepEqual([s.forgotten_by_remote, s.forgets_held, s.pushed, s.skipped], [0, 0, 0, 4]);
  });

  it('nor when its feed then names their ids as removed, in the same run or a later one', async () => {
    const { node, hub, remote } = ctx;
    hub.push = 'forgotten';
    hub.removeSent = true;
    const plain = await notesPaired(ctx, 'ida', 2);
    const secret = await node.client.rememberRecord('ida', {
      content: 'call Ivo Ivić at +385 91 555 0101',
      visibility: 'redacted_summary',
    });
    const all = [...plain, secret.record.id].sort();
    let s = await node.client.runSync('ida');
    assert.equal(s.last_error, null);
    assert.deepEqual(await ids(node, 'ida'), all, 'the same run’s feed forgets none');
    // A later run's feed names them again: they never travelled, so still none.
    hub.removed = [...plain, redactedIdOf(remote.seen, secret.record.id)];
    s = await node.client.runSync('ida');
    assert.deepEqual(await ids(node, 'ida'), all, 'a later feed forgets none');
    assert.deepEqual([s.forgotten_by_remote, s.forgets_held], [0, 0]);
    const kept = (await node.client.getRecord('ida', secret.record.id)).content as { text: string };
    assert.equal(kept.text, 'call Ivo Ivić at +385 91 555 0101');

    // Forgotten here, it still sends its tombstone, under the id the hub was sent.
    hub.removeSent = false;
    await node.client.forgetRecord('ida', plain[0]!);
    const before = remote.seen.length;
    await node.client.runSync('ida');
    const sent = remote.seen.slice(before).filter((r) => r.path.endsWith('/sync/tombstones'));
    assert.ok(
      sent.some((r) => r.body.includes(plain[0]!)),
      'its tombstone went',
    );

    // Once a later push is taken (the pairing starts over with another hub Brain), the hub may.
    hub.push = 'created';
    await node.client.pairSync('ida', {
      remote: remote.url,
      remote_brain: 'ida-2',
      remote_key: 'sk_test_hub_secret',
    });
    assert.equal((await node.client.runSync('ida')).pushed, 2);
    hub.removed = [plain[1]!];
    s = await node.client.runSync('ida');
    assert.deepEqual(await ids(node, 'ida'), [secret.record.id]);
    assert.equal(s.forgotten_by_remote, 1);
  });
});

/** The id the redacted copy of `recordId` was pushed under, read from what the hub was sent. */
function redactedIdOf(seen: readonly Seen[], recordId: string): string {
  const pushed = seen
    .filter((r) => r.method === 'POST' && r.path.endsWith('/sync/records'))
    .flatMap(
      (r) => (JSON.parse(r.body) as { records: { id: string; content: { text?: string } }[] }).records,
    );
  const copy = pushed.find((r) => r.id !== recordId && (r.content.text ?? '').startsWith('call '));
  assert.ok(copy, `no redacted copy of ${recordId} was pushed`);
  return copy.id;
}

describe('a feed that brings Records of its own with its removals', () => {
  const ctx = deviceWithHub('inflate');
  const junkId = (i: number) => `rec_01JJUNK${String(i).padStart(18, '0')}`;

  it('cannot raise the share the guard allows: the Records it pulled are not counted as travelled', async () => {
    const { node, hub } = ctx;
    const own = await notesPaired(ctx, 'vic', 60);
    assert.equal((await node.client.runSync('vic')).pushed, 60);
    hub.data = Array.from({ length: 600 }, (_, i) => ({
      id: junkId(i),
      object: 'record',
      content: { kind: 'message', text: 'ok' },
      source: {},
      visibility: 'shareable',
      occurred_at: '2026-01-01T00:00:00.000Z',
    }));
    hub.removed = own;
    const s = await node.client.runSync('vic');
    assert.equal(s.last_error, null);
    assert.equal(s.pulled, 600);
    assert.deepEqual([s.forgotten_by_remote, s.forgets_held], [0, 60]);
    const left = new Set(await ids(node, 'vic'));
    assert.equal(own.filter((id) => left.has(id)).length, 60, 'every own Record stays');
  });
});

describe('a push the remote answers `forgotten` for most of a Brain it was sent before', () => {
  const ctx = deviceWithHub('held-push');

  it('holds the forgets, says so, and forgets only once the person confirms that many', async () => {
    const { node, hub, lines } = ctx;
    hub.push = 'fail';
    const written = await notesPaired(ctx, 'vic', 40);
    // The batch went, and its answer was lost: the next run sends it again.
    assert.match((await node.client.runSync('vic')).last_error ?? '', /internal_error/);
    hub.push = 'forgotten';
    const s = await node.client.runSync('vic');
    assert.equal(s.last_error, null);
    assert.deepEqual(await ids(node, 'vic'), [...written].sort(), 'nothing forgotten yet');
    assert.deepEqual([s.forgotten_by_remote, s.forgets_held], [0, 40]);
    assert.match(s.warning ?? '', /asked this device to forget 40 Records/);
    assert.match(s.warning ?? '', /mnemo sync accept-forgets --brain vic --count 40/);
    assert.ok(
      lines.some((l) => /Brain vic: its remote asked to forget 40 more Records/.test(l)),
      lines.join('\n'),
    );

    // An agent's key may not confirm; nor may a count the person did not see.
    const agent = await node.server.registry!.create({ env: 'test', project: 'home' });
    const asAgent = createMnemoClient({ baseUrl: node.server.url, apiKey: agent.key });
    await assert.rejects(asAgent.acceptSyncForgets('vic', 40), { code: 'http_403' });
    await assert.rejects(node.client.acceptSyncForgets('vic', 39), { code: 'sync_forgets_changed' });
    assert.equal((await ids(node, 'vic')).length, 40);

    const done = await node.client.acceptSyncForgets('vic', 40);
    assert.deepEqual(await ids(node, 'vic'), []);
    assert.deepEqual([done.forgotten_by_remote, done.forgets_held, done.warning], [40, 0, null]);
    assert.ok(lines.some((l) => /Brain vic: the person confirmed 40 held forgets/.test(l)));
    // Nothing goes back to the hub: it asked for them.
    const before = ctx.remote.seen.length;
    await node.client.runSync('vic');
    assert.ok(!ctx.remote.seen.slice(before).some((r) => r.path.endsWith('/sync/tombstones')));
  });
});

describe("removals in a remote's change feed", () => {
  const ctx = deviceWithHub('feed-removals');

  it('forget a few at once and count them; past the guard, wait with every later one to be confirmed', async () => {
    const { node, hub, lines } = ctx;
    const written = await notesPaired(ctx, 'ana', 40);
    assert.equal((await node.client.runSync('ana')).pushed, 40);

    // A forget made on the hub or another device reaches this device, counted and logged.
    hub.removed = written.slice(0, 3);
    let s = await node.client.runSync('ana');
    assert.deepEqual(await ids(node, 'ana'), written.slice(3).sort());
    assert.deepEqual([s.forgotten_by_remote, s.forgets_held, s.warning], [3, 0, null]);
    assert.ok(lines.some((l) => /Brain ana: its remote said 3 Records were forgotten there/.test(l)));

    // 30 more within the day: 33 is over 25 and over 10% of what travelled. Ids that name nothing
    // here ride along; they are held too, but neither counted nor named.
    hub.removed = [...written.slice(3, 33), 'rec_NOTHINGHERE1', 'rec_NOTHINGHERE2'];
    s = await node.client.runSync('ana');
    assert.equal(s.last_error, null);
    assert.deepEqual([s.forgotten_by_remote, s.forgets_held], [3, 30]);
    assert.equal((await ids(node, 'ana')).length, 37);
    // Which ones, to open before confirming: the newest five, by their ids here.
    assert.deepEqual(s.forgets_held_examples, written.slice(3, 33).sort().reverse().slice(0, 5));
    assert.doesNotMatch(s.warning ?? '', /at once/);
    // A single forget waits too while some do: a hub cannot drip the rest through.
    hub.removed = [written[39]!];
    s = await node.client.runSync('ana');
    assert.deepEqual([s.forgotten_by_remote, s.forgets_held], [3, 31]);
    assert.equal((await ids(node, 'ana')).length, 37);

    s = await node.client.acceptSyncForgets('ana', 31);
    assert.deepEqual(await ids(node, 'ana'), written.slice(33, 39).sort());
    assert.deepEqual([s.forgotten_by_remote, s.forgets_held], [34, 0]);
  });

  it('held for a pairing, are dropped when the Brain is unpaired: its Records stay', async () => {
    const { node, hub } = ctx;
    const written = await notesPaired(ctx, 'bea', 30);
    await node.client.runSync('bea');
    hub.removed = written;
    assert.equal((await node.client.runSync('bea')).forgets_held, 30);
    await node.client.unpairSync('bea');
    await node.client.pairSync('bea', { remote: ctx.remote.url, remote_key: 'sk_test_hub_secret' });
    const s = await node.client.getSync('bea');
    assert.deepEqual([s.forgets_held, s.warning], [0, null]);
    assert.equal((await ids(node, 'bea')).length, 30);
  });
});
