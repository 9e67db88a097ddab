import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RecordCreate } from '../../engine/contract/index.ts';
import {
  afterCheck,
  allRecords,
  anaCurrent,
  convergeAna,
  editStore,
  fakeRemote,
  feedPage,
  hubAndTwoDevices,
  hubAnswer,
  json,
  pairAnaOnBoth,
  startNode,
  syncOk,
  tempRoot,
  writeTo,
  type Answer,
  type HubAndDevices,
  type Node,
} from './sync-helpers.ts';

type Db = Parameters<Parameters<typeof editStore>[2]>[0];

/**
 * A store as a version before migration 028 left it: what the pull skipped was kept nowhere (and
 * migration 036's counts not yet split).
 */
function beforePullRereads(db: Db): void {
  db.exec(`ALTER TABLE sync_pairings RENAME COLUMN pull_skipped TO skipped;
    ALTER TABLE sync_pairings ADD COLUMN held_back INTEGER NOT NULL DEFAULT 0`);
  for (const c of ['pull_skipped_from', 'pull_skipped_under', 'reread_watermark'])
    db.exec(`ALTER TABLE sync_pairings DROP COLUMN ${c}`);
  db.pragma('user_version = 27');
}

/** The feed requests of a recording proxy since `from`, as the watermark each was read from. */
const feedReads = (requests: readonly string[], from = 0) =>
  requests
    .slice(from)
    .filter((r) => r.startsWith('GET ') && r.includes('/records?'))
    .map((r) => new URL(r.slice(4), 'http://x').searchParams.get('since_watermark'));

describe('a correction an older version skipped while pulling', () => {
  let h: Node;
  let a: Node;
  let b: Node;
  let nodes: HubAndDevices;
  const write = (n: Node, body: RecordCreate) => writeTo(n, 'ana', body);

  before(async () => {
    nodes = await hubAndTwoDevices();
    ({ h, a, b } = nodes);
    await pairAnaOnBoth(nodes);
  });
  after(() => nodes.stop());

  it('reaches the device on its first runs after the upgrade, changing nothing else there', async () => {
    await write(a, { content: { kind: 'fact', subject: 'Ana Lima', predicate: 'sails', value: 'a dinghy' } });
    await a.server.engine.idle();
    await convergeAna(nodes);
    const [dinghy] = (await h.client.listMemories('ana', { limit: 100 })).data.filter((m) =>
      m.statement.includes('sails'),
    );
    assert.ok(dinghy);
    // An agent corrects the hub's Memory; b's next pull is an older version's, which could not take a
    // correction (its content was no replica then): it skipped it, counted it, and kept the watermark
    // past it, keeping no place of it.
    const fix = await h.client.rememberRecord('ana', {
      content: { kind: 'correction', corrects: dinghy.id, statement: 'Ana Lima sails a catamaran' },
    });
    await h.server.engine.idle();
    await b.stop();
    let kept: string | null = null;
    editStore(nodes.root, 'b', (db) => {
      kept = (db.prepare('SELECT pull_watermark AS w FROM sync_pairings').get() as { w: string | null }).w;
    });
    const page = await h.client.listRecords('ana', { since_watermark: kept ?? 'start', limit: 200 });
    assert.deepEqual(
      page.data.map((r) => r.id),
      [fix.record.id],
    );
    assert.equal(page.has_more, false);
    editStore(nodes.root, 'b', (db) => {
      db.prepare('UPDATE sync_pairings SET pull_watermark = ?, pull_skipped = pull_skipped + 1').run(
        page.watermark!,
      );
      beforePullRereads(db);
    });
    await b.restart();
    const before = await b.client.getSync('ana');
    const recordsBefore = (await allRecords(b.client, 'ana')).length;
    const memoriesBefore = (await b.client.listMemories('ana', { limit: 100 })).data.length;
    assert.deepEqual(await anaCurrent(b, 'sails'), ['Ana Lima sails: a dinghy']);

    const from = nodes.proxy.requests.length;
    await convergeAna(nodes);
    for (const n of [a, h, b])
      assert.deepEqual(await anaCurrent(n, 'sails'), ['Ana Lima sails a catamaran'], n.name);
    const after = await b.client.getSync('ana');
    assert.equal(after.pulled, before.pulled + 1, 'the correction alone was written');
    assert.equal(after.skipped, before.skipped - 1, 'no longer counted as skipped');
    assert.equal((await allRecords(b.client, 'ana')).length, recordsBefore + 1);
    // The correction's new version replaces the one it corrects: nothing else came twice.
    assert.equal((await b.client.listMemories('ana', { limit: 100 })).data.length, memoriesBefore);
    assert.deepEqual(
      (await allRecords(b.client, 'ana')).map((r) => r.id).sort(),
      (await allRecords(h.client, 'ana')).map((r) => r.id).sort(),
    );
    // The whole feed was read again once: the older version kept no place of what it skipped.
    assert.equal(feedReads(nodes.proxy.requests, from).filter((w) => w === 'start').length, 1);
    const later = nodes.proxy.requests.length;
    await convergeAna(nodes);
    assert.deepEqual(
      feedReads(nodes.proxy.requests, later).filter((w) => w === 'start'),
      [],
      'once, not every run',
    );
    assert.deepEqual(await b.client.getSync('ana').then((s) => [s.pulled, s.skipped]), [
      after.pulled,
      after.skipped,
    ]);
  });

  it('is not looked for by a device that pulled before the upgrade and skipped nothing', async () => {
    await a.stop();
    editStore(nodes.root, 'a', (db) => {
      const p = db
        .prepare('SELECT pull_watermark AS w, pull_skipped AS skipped FROM sync_pairings')
        .get() as {
        w: string | null;
        skipped: number;
      };
      assert.ok(p.w !== null && p.skipped === 0, JSON.stringify(p));
      beforePullRereads(db);
    });
    await a.restart();
    const from = nodes.proxy.requests.length;
    await syncOk(a, 'ana');
    assert.equal(feedReads(nodes.proxy.requests, from).length, 1);
    assert.ok(!feedReads(nodes.proxy.requests, from).includes('start'));
  });
});

describe('what a version skipped of its remote’s feed', () => {
  const { root, remove } = tempRoot();
  let d: Node;
  let remote: Awaited<ReturnType<typeof fakeRemote>>;
  const odd = 'rec_01JODD0000000000000000000A';
  /** Whether the Record `odd` is of a kind the device knows: a later version's reading of it. */
  let known = false;
  /**
   * Four pages (wm_0 to wm_3), one message each, the second also holding `odd`; then nothing more.
   */
  const feed: Answer = (seen, res) => {
    if (!(seen.method === 'GET' && seen.path.endsWith('/records'))) return hubAnswer(seen, res);
    const since = seen.query.get('since_watermark');
    const n = Number(/^wm_(\d+)$/.exec(since ?? '')?.[1] ?? 0);
    if (n >= 4)
      return json(res, { data: [], has_more: false, next_cursor: null, watermark: 'wm_4', removed: [] });
    const page = feedPage(since, n < 3) as { data: unknown[] };
    if (n === 1)
      page.data.push({
        id: odd,
        object: 'record',
        content: { kind: known ? 'message' : 'hologram', text: 'A Record of a kind to come.' },
        source: {},
        visibility: 'shareable',
        occurred_at: '2026-01-01T00:00:00.000Z',
      });
    json(res, page);
  };
  const reads = () =>
    remote.seen
      .filter((s) => !s.check && s.path === '/v1/brains/ana/records')
      .map((s) => s.query.get('since_watermark'));

  before(async () => {
    remote = await fakeRemote();
    remote.byBrain.set('ana', afterCheck(feed));
    // Two pages a run: the pull and a re-read share them.
    d = await startNode(root, 'd', {
      sync: { debounceMs: 3_600_000, intervalMs: 3_600_000, limits: { pagesPerRun: 2 } },
    });
  });
  after(async () => {
    await remote.close();
    await d.stop().catch(() => {});
    remove();
  });

  /** Runs until one is through (its follow-ups come at the test's call, not 2 s later). */
  const settled = async () => {
    for (let i = 0; i < 10; i++) {
      const s = await d.client.runSync('ana');
      if (!s.catching_up) return s;
    }
    return assert.fail('still catching up after 10 runs');
  };

  it('is read again once a version that may take it runs, from where it was, page by page', async () => {
    await d.client.createBrain({ id: 'ana' });
    await d.client.pairSync('ana', { remote: remote.url, remote_key: 'sk_test_remote_key' });
    const first = await settled();
    assert.deepEqual([first.pulled, first.skipped, first.last_error], [4, 1, null]);
    assert.deepEqual(await syncOk(d, 'ana').then((s) => [s.pulled, s.skipped]), [4, 1]);
    // The rules of now skipped it: nothing to read again until they change.
    assert.deepEqual(reads(), ['start', 'wm_1', 'wm_2', 'wm_3', 'wm_4']);

    // As if an older version had skipped it: a version of now may take it.
    await d.stop();
    editStore(root, 'd', (db) => {
      const p = db.prepare('SELECT pull_skipped_from AS f FROM sync_pairings').get() as { f: string };
      assert.equal(p.f, 'wm_1', 'kept from where the page that skipped it was read');
      db.prepare('UPDATE sync_pairings SET pull_skipped_under = 0').run();
    });
    known = true;
    await d.restart();
    const upgraded = await d.client.runSync('ana');
    assert.equal(upgraded.catching_up, true, 'two pages a run: the re-read goes on in the next runs');
    // Kept page by page: a restart goes on from there.
    await d.restart();
    const last = await settled();
    assert.deepEqual(
      reads().slice(5),
      ['wm_4', 'wm_1', 'wm_4', 'wm_2', 'wm_4', 'wm_3'],
      'the pull first, then the re-read, within each run’s pages',
    );
    assert.deepEqual([last.pulled, last.skipped, last.last_error], [5, 0, null]);
    assert.equal((await d.client.getRecord('ana', odd)).content.kind, 'message');
    await syncOk(d, 'ana');
    assert.deepEqual(reads().slice(11), ['wm_4'], 'once');
  });
});
