import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { SyncStatus } from '../../engine/contract/index.ts';
import type { ServerOptions } from '../../server/start-server.ts';
import {
  afterCheck,
  type Answer,
  fakeRemote,
  feedPage,
  hubAnswer,
  json,
  type Node,
  startNode,
  tempRoot,
  within,
} from './sync-helpers.ts';

const until = async (what: string, check: () => Promise<boolean> | boolean, ms = 15_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};

/**
 * The feed of a remote that always has more: each page's watermark one further than the one sent
 * (`empty`: nothing in its pages).
 */
const endlessFeed =
  (o: { empty?: boolean } = {}): Answer =>
  (seen, res) => {
    if (!(seen.method === 'GET' && seen.path.endsWith('/records'))) return hubAnswer(seen, res);
    const page = feedPage(seen.query.get('since_watermark'), true);
    json(res, o.empty ? { ...page, data: [] } : page);
  };

describe('a sync run against a remote that misbehaves', () => {
  const { root, remove } = tempRoot();
  let a: Node;
  let remote: Awaited<ReturnType<typeof fakeRemote>>;
  before(async () => {
    remote = await fakeRemote();
    // Runs only when the test asks; each request to the remote bounded tightly, though not so tightly
    // that a loaded machine's pause between a flooding remote's chunks reads as silence.
    a = await startNode(root, 'a', {
      sync: {
        debounceMs: 3_600_000,
        intervalMs: 3_600_000,
        limits: { idleMs: 1_500, totalMs: 5_000, maxResponseBytes: 1024 * 1024, pagesPerRun: 5 },
      },
    });
  });
  after(async () => {
    await remote.close();
    await a.stop().catch(() => {});
    remove();
  });

  /**
   * Pairs a new Brain with the remote, which answers the check before the pairing as a hub and then as
   * `answer`; the status once the pairing's first run is over.
   */
  const paired = async (brain: string, answer: Answer, records: string[] = []): Promise<SyncStatus> => {
    remote.byBrain.set(brain, afterCheck(answer));
    await a.client.createBrain({ id: brain });
    for (const content of records) await a.client.rememberRecord(brain, { content });
    await a.client.pairSync(brain, { remote: remote.url, remote_key: 'sk_test_remote_key' });
    let status: SyncStatus | undefined;
    await until(`the first run of ${brain}`, async () => {
      status = await a.client.getSync(brain);
      return status.last_attempt_at !== null;
    });
    return status!;
  };
  const asked = (brain: string, since: number, what = '/records') =>
    remote.seen.filter((s) => !s.check && s.at >= since && s.path === `/v1/brains/${brain}${what}`);

  it('fails a run whose remote accepts requests and never answers, and keeps when it tried', async () => {
    const first = await paired('silent', () => {});
    assert.match(first.last_error ?? '', /remote_timeout: GET \/v1\/brains\/silent: no answer for 1\.5 s/);
    const started = Date.now();
    const status = await within('a run against a silent remote', 10_000, a.client.runSync('silent'));
    // Within the run's whole budget (totalMs), however many requests it made.
    assert.ok(Date.now() - started < 6_000, `${Date.now() - started} ms`);
    assert.match(status.last_error ?? '', /^http:\/\/127\.0\.0\.1:\d+\/v1: remote_timeout: /);
    assert.ok(status.last_attempt_at! > first.last_attempt_at!, 'the second attempt is kept');
    assert.equal(status.last_success_at, null);
    assert.equal(status.catching_up, false);
  });

  it('stops a pull whose change feed says has_more without moving its watermark', async () => {
    await paired('circling', (seen, res) => {
      if (!seen.path.endsWith('/records')) return hubAnswer(seen, res);
      const removed = [{ id: 'rec_01JCIRCLING', forgotten_at: '2026-01-01T00:00:00.000Z' }];
      json(res, { data: [], has_more: true, watermark: 'wm_same', removed });
    });
    const status = await within('a run against a circling feed', 10_000, a.client.runSync('circling'));
    assert.match(
      status.last_error ?? '',
      /the change feed does not advance: after watermark "wm_same" it answered has_more with the watermark "wm_same" again; the pull stops here/,
    );
    // The first run read from the start and once more; the second, once from the watermark it kept.
    assert.deepEqual(
      asked('circling', 0).map((s) => s.query.get('since_watermark')),
      ['start', 'wm_same', 'wm_same'],
    );
  });

  it('stops a pull whose change feed says has_more with empty pages, though each has a new watermark', async () => {
    const status = await paired('hollow', endlessFeed({ empty: true }));
    assert.match(
      status.last_error ?? '',
      /the change feed does not advance: after watermark "start" it answered has_more with an empty page; the pull stops here/,
    );
    assert.equal(status.catching_up, false, 'a failure, which waits its backoff, not a catching-up run');
    assert.deepEqual(
      asked('hollow', 0).map((s) => s.query.get('since_watermark')),
      ['start'],
    );
  });

  it('reads at most a run’s pages of a feed that never ends, and the next run reads on from there', async () => {
    const first = await paired('endless', endlessFeed());
    assert.equal(first.last_error, null);
    // More to read: a success that is still catching up.
    assert.equal(first.catching_up, true);
    const started = Date.now();
    const status = await a.client.runSync('endless');
    assert.deepEqual([status.last_error, status.catching_up], [null, true]);
    assert.deepEqual(
      asked('endless', started).map((s) => s.query.get('since_watermark')),
      ['wm_5', 'wm_6', 'wm_7', 'wm_8', 'wm_9'],
    );
  });

  it('fails the run when every answer is larger than the limit, having read little of them', async () => {
    let written = 0;
    await paired('flooding', (seen, res) => {
      if (!seen.path.endsWith('/records')) return hubAnswer(seen, res);
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      const more = () => {
        while (!res.destroyed && written < 256 * 1024 * 1024) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
      };
      more();
    });
    written = 0;
    const started = Date.now();
    const status = await within('a run against a flooding remote', 20_000, a.client.runSync('flooding'));
    assert.match(
      status.last_error ?? '',
      /response_too_large: GET \/v1\/brains\/flooding\/records: the answer is larger than 1 MiB/,
    );
    // Asked again in smaller pages, down to one Record, each answer cut at the limit.
    assert.deepEqual(
      asked('flooding', started).map((s) => s.query.get('limit')),
      ['200', '50', '12', '3', '1'],
    );
    assert.ok(written < 5 * 24 * 1024 * 1024, `the remote wrote ${written} bytes`);
  });

  it('asks for smaller pages when a page of the feed is too large, and goes on', async () => {
    const first = await paired('large', (seen, res) => {
      if (!seen.path.endsWith('/records')) return hubAnswer(seen, res);
      const limit = Number(seen.query.get('limit'));
      json(res, {
        data: [],
        has_more: false,
        watermark: 'wm_large',
        removed: [],
        ...(limit > 50 ? { padding: 'x'.repeat(2 * 1024 * 1024) } : {}),
      });
    });
    assert.equal(first.last_error, null);
    assert.deepEqual(
      asked('large', 0).map((s) => s.query.get('limit')),
      ['200', '50'],
    );
  });

  it('keeps Records pending when the answer to a push leaves some of them out', async () => {
    const first = await paired(
      'unanswered',
      (seen, res) => {
        if (!seen.path.endsWith('/sync/records')) return hubAnswer(seen, res);
        json(res, { object: 'replication', data: [], watermark: 'wm_x' });
      },
      ['The ferry leaves at seven.', 'My dentist is Dr. Costa.'],
    );
    assert.match(
      first.last_error ?? '',
      /the answer to a push of 2 Records is malformed \(2 without an outcome\); the batch stays pending/,
    );
    assert.deepEqual([first.pending, first.pushed, first.skipped], [2, 0, 0]);

    remote.byBrain.set('unanswered', hubAnswer);
    const status = await a.client.runSync('unanswered');
    assert.equal(status.last_error, null);
    assert.deepEqual([status.pending, status.pushed, status.skipped], [0, 2, 0]);
  });

  it('keeps a remote’s error text on one line, bounded, without the key', async () => {
    const first = await paired('forging', (_seen, res) =>
      res.writeHead(500, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          type: 'internal',
          code: 'boom\r\nINFO',
          message:
            'down\n2030-01-01T00:00:00.000Z sync of Brain ana succeeded\u001b[2K\u001b[1A\u202e' +
            ` key sk_test_remote_key ${'y'.repeat(100_000)}`,
        }),
      ),
    );
    const error = first.last_error ?? '';
    assert.match(
      error,
      /: boom\\u\{d\}\\u\{a\}INFO: down\\u\{a\}2030-01-01T00:00:00\.000Z sync of Brain ana/,
    );
    assert.match(error, /\\u\{1b\}\[2K\\u\{1b\}\[1A\\u\{202e\} key \[remote key\] yyy/);
    assert.doesNotMatch(error, /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u);
    assert.ok(error.length < 1_000, `${error.length} characters`);
  });

  it("says of a hub whose store is down that sync tries again, not the hub's advice to a writer", async () => {
    const first = await paired('hub-down', (_seen, res) =>
      res.writeHead(503, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          type: 'internal',
          code: 'store_unavailable',
          message:
            'The database cannot be reached now (connection refused). A write that failed as it committed ' +
            'may have been kept, so resend rememberRecord with the same Idempotency-Key.',
        }),
      ),
    );
    assert.match(
      first.last_error ?? '',
      /: store_unavailable: The database cannot be reached now \(connection refused\); sync tries again by itself, and sends nothing twice$/,
    );
    assert.doesNotMatch(first.last_error ?? '', /Idempotency-Key/);
  });
});

describe('the background sync of a Brain whose remote misbehaves', () => {
  const { root, remove } = tempRoot();
  let remote: Awaited<ReturnType<typeof fakeRemote>>;
  const nodes: Node[] = [];
  before(async () => {
    remote = await fakeRemote();
  });
  after(async () => {
    await remote.close();
    await Promise.all(nodes.map((n) => n.stop().catch(() => {})));
    remove();
  });
  const device = async (name: string, sync: ServerOptions['sync']) => {
    const n = await startNode(root, name, { sync });
    nodes.push(n);
    return n;
  };
  const runsOf = (brain: string) => remote.seen.filter((s) => !s.check && s.path === `/v1/brains/${brain}`);

  it('backs off while the remote never answers', async () => {
    const b = await device('b', {
      debounceMs: 100,
      intervalMs: 200,
      maxBackoffMs: 60_000,
      limits: { idleMs: 100 },
    });
    remote.byBrain.set(
      'hung',
      afterCheck(() => {}),
    );
    await b.client.createBrain({ id: 'hung' });
    await b.client.pairSync('hung', { remote: remote.url, remote_key: 'sk_test_remote_key' });
    await new Promise((r) => setTimeout(r, 2_500));
    // Runs of 0.1 s, each followed by a wait of 0.2, 0.4, 0.8, 1.6 s: four in 2.5 s (eight without
    // the backoff; one, hanging, without the timeout).
    const runs = runsOf('hung').length;
    assert.ok(runs >= 3 && runs <= 6, `${runs} runs`);
    const status = await b.client.getSync('hung');
    assert.match(status.last_error ?? '', /remote_timeout/);
    await b.client.unpairSync('hung');
  });

  it('syncs at least every interval while writes never pause', async () => {
    const c = await device('c', { debounceMs: 600, intervalMs: 1_200 });
    await c.client.createBrain({ id: 'busy' });
    await c.client.pairSync('busy', { remote: remote.url, remote_key: 'sk_test_remote_key' });
    await until('the first run', async () => (await c.client.getSync('busy')).last_success_at !== null);
    const before = runsOf('busy').length;
    // A write every 100 ms for 4 s, however long each takes: the debounce never sees writes pause.
    const writes: Promise<unknown>[] = [];
    await new Promise<void>((done) => {
      const end = Date.now() + 4_000;
      const tick = setInterval(() => {
        writes.push(c.client.rememberRecord('busy', { content: `Note ${writes.length} of a long import.` }));
        if (Date.now() >= end) {
          clearInterval(tick);
          done();
        }
      }, 100);
    });
    const runs = runsOf('busy').length - before;
    await Promise.all(writes);
    // Without the interval the debounce would run none until the writes paused; with it, one at
    // least (two, often, but a loaded machine's runs of these writes take longer than the interval).
    assert.ok(runs >= 1, `${runs} runs during 4 s of writes`);
    await c.client.unpairSync('busy');
  });

  it('reads on soon after a run that stopped at its page limit', async () => {
    const d = await device('d', { debounceMs: 100, intervalMs: 3_600_000, limits: { pagesPerRun: 5 } });
    remote.byBrain.set('long', afterCheck(endlessFeed()));
    await d.client.createBrain({ id: 'long' });
    await d.client.pairSync('long', { remote: remote.url, remote_key: 'sk_test_remote_key' });
    const feed = () => remote.seen.filter((s) => !s.check && s.path === '/v1/brains/long/records');
    await until('a third run to read the feed', () => feed().length >= 11, 10_000);
    await d.client.unpairSync('long');
    assert.ok(runsOf('long').length >= 3);
    assert.deepEqual(
      feed()
        .slice(0, 11)
        .map((s) => s.query.get('since_watermark')),
      ['start', 'wm_1', 'wm_2', 'wm_3', 'wm_4', 'wm_5', 'wm_6', 'wm_7', 'wm_8', 'wm_9', 'wm_10'],
    );
  });
});
