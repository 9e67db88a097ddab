import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { SyncStatus } from '../../engine/contract/index.ts';
import { createLocalEngine } from '../../engine/local/index.ts';
import type { Engine, Tenant } from '../../engine/types.ts';
import { runSync } from '../../server/sync/run-sync.ts';
import {
  afterCheck,
  type Answer,
  fakeRemote,
  feedPage,
  hubAnswer,
  json,
  type Node,
  type Seen,
  startNode,
  tempRoot,
  within,
} from './sync-helpers.ts';

/** What a run cut at its deadline of `seconds` (as the status says it) leaves as its last error. */
const deadlineOf = (seconds: string) =>
  new RegExp(
    `: run_deadline: the run stopped at its deadline of ${seconds.replace('.', '\\.')} s; what it pushed, sent and pulled is kept, and the next run goes on from there$`,
  );
const deadline = deadlineOf('0.8');

type FakeRemote = Awaited<ReturnType<typeof fakeRemote>>;

/** A local engine (no embedder, no reranker) and a fake hub, made before a block's tests, closed after. */
function engineAndHub(): { engine: Engine; remote: FakeRemote } {
  const { root, remove } = tempRoot();
  const made = {} as { engine: Engine; remote: FakeRemote };
  before(async () => {
    made.remote = await fakeRemote();
    made.engine = await createLocalEngine({
      dataDir: join(root, 'a'),
      dbKey: null,
      embedder: null,
      reranker: null,
    });
  });
  after(async () => {
    await made.remote.close();
    await made.engine.close();
    remove();
  });
  return made;
}

/**
 * A server whose runs start only when a test asks (debounce and interval an hour; each request may take
 * 20 s, a run `runMs`) and a fake hub, made before a block's tests, stopped after.
 */
function serverAndHub(runMs: number): { a: Node; remote: FakeRemote } {
  const { root, remove } = tempRoot();
  const made = {} as { a: Node; remote: FakeRemote };
  before(async () => {
    made.remote = await fakeRemote();
    made.a = await startNode(root, 'a', {
      sync: {
        debounceMs: 3_600_000,
        intervalMs: 3_600_000,
        limits: { idleMs: 20_000, totalMs: 20_000, runMs },
      },
    });
  });
  after(async () => {
    await made.remote.close();
    await made.a.stop().catch(() => {});
    remove();
  });
  return made;
}

/** Answers as `answer` after `ms`, unless the request was cut meanwhile. */
const slowly =
  (ms: number, answer: Answer): Answer =>
  (seen, res) => {
    const t = setTimeout(() => answer(seen, res), ms);
    res.once('close', () => clearTimeout(t));
  };

/**
 * A hub's feed of pages wm_1 … wm_<pages>, answered at once, except that a request `hang` names is
 * never answered (a hub that stalls, as slow as any request may be before its own limits cut it).
 */
const feed =
  (pages: number, hang: (seen: Seen) => boolean): Answer =>
  (seen, res) => {
    if (!(seen.method === 'GET' && seen.path.endsWith('/records'))) return hubAnswer(seen, res);
    if (hang(seen)) return;
    const since = seen.query.get('since_watermark');
    const n = Number(/^wm_(\d+)$/.exec(since ?? '')?.[1] ?? 0);
    json(res, feedPage(since, n + 1 < pages));
  };

describe('a sync run against a hub that answers slowly, past the run’s deadline', () => {
  // Only the run's deadline of 2 s ends the runs here: room for a loaded machine to read the pages
  // before the one that stalls (0.8 s was not, beside other work).
  const made = serverAndHub(2_000);
  const slowDeadline = deadlineOf('2');
  let a: Node;
  let remote: FakeRemote;
  before(() => ({ a, remote } = made));

  const pages = (brain: string, since: number) =>
    remote.seen
      .filter((s) => !s.check && s.at >= since && s.path === `/v1/brains/${brain}/records`)
      .map((s) => s.query.get('since_watermark'));

  /**
   * Pairs a new Brain with the remote answering its runs as `answer`; the status once its first run
   * ended.
   */
  const paired = async (brain: string, answer: Answer): Promise<{ status: SyncStatus; ms: number }> => {
    remote.byBrain.set(brain, afterCheck(answer));
    await a.client.createBrain({ id: brain });
    const started = Date.now();
    await a.client.pairSync(brain, { remote: remote.url, remote_key: 'sk_test_remote_key' });
    for (;;) {
      const status = await a.client.getSync(brain);
      if (status.last_attempt_at !== null && !status.running) return { status, ms: Date.now() - started };
      if (Date.now() - started > 10_000) assert.fail(`the first run of ${brain} did not end`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };

  /** The time is about an hour from now (the debounce and the interval here). */
  const inAnHour = (at: string | null) =>
    at !== null && Math.abs(Date.parse(at) - Date.now() - 3_600_000) < 60_000;

  it('stops at its deadline, keeps the pages it read, and the next run reads on from there', async () => {
    let stalled = true;
    const first = await paired(
      'stalled',
      feed(5, (seen) => stalled && seen.query.get('since_watermark') === 'wm_2'),
    );
    // The request in flight (since wm_2, which would wait 20 s) was cut at the deadline.
    assert.ok(first.ms < 6_000, `${first.ms} ms`);
    assert.match(first.status.last_error ?? '', slowDeadline);
    assert.equal(first.status.last_success_at, null);
    assert.deepEqual(pages('stalled', 0), ['start', 'wm_1', 'wm_2']);
    // Not a failure: the next run reads on after the debounce (an hour here), not after a backoff.
    assert.equal(first.status.catching_up, true);
    assert.ok(inAnHour(first.status.next_run_at), String(first.status.next_run_at));

    stalled = false;
    const since = Date.now();
    const status = await within('the next run', 10_000, a.client.runSync('stalled'));
    assert.equal(status.last_error, null);
    assert.deepEqual([status.catching_up, status.running], [false, false]);
    assert.ok(inAnHour(status.next_run_at), String(status.next_run_at));
    assert.deepEqual(pages('stalled', since), ['wm_2', 'wm_3', 'wm_4']);
  });

  it('mnemo sync run exits 3 when the run stopped at its deadline with its progress kept, 1 when it failed', async () => {
    const runCli = (brain: string) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        execFile(
          process.execPath,
          [join(import.meta.dirname, '..', '..', 'bin', 'mnemo.mjs'), 'sync', 'run', '--brain', brain],
          { env: { ...process.env, MNEMO_URL: a.server.url, MNEMO_KEY: a.key, MNEMO_LOG: 'silent' } },
          (e, stdout, stderr) => resolve({ code: e ? (e.code as number) : 0, stdout, stderr }),
        );
      });
    await paired(
      'cli-slow',
      slowly(
        250,
        feed(Infinity, () => false),
      ),
    );
    const slow = await runCli('cli-slow');
    assert.equal(slow.code, 3, slow.stdout);
    assert.match(slow.stdout, /^catching up: the last run stopped with more to do/m);
    assert.match(slow.stdout, /^next run: \d{4}-/m);
    assert.equal(slow.stderr, '', 'a run that goes on is no error');
    await paired(
      'cli-stuck',
      feed(5, () => true),
    );
    const stuck = await runCli('cli-stuck');
    assert.equal(stuck.code, 1, stuck.stdout);
    assert.doesNotMatch(stuck.stdout, /catching up/);
    // Where a script looks for why: stderr, not only the status on stdout.
    assert.match(stuck.stderr, /^mnemo sync run: the run failed: /);
    // A call cut off may have been applied; the person learns that nothing doubles, and when it goes on.
    assert.match(
      stuck.stderr,
      /\nmnemo sync run: what the failed call sent may have reached the hub; .* Next run: \d{4}-/,
    );
  });

  it('ends however long the feed of a hub that answers every page slowly', async () => {
    // An endless feed of 0.1 s pages: the 2 s deadline has room for several, with the run's own
    // start taking its share on a loaded machine, and for no more than twenty and the one in flight.
    const endless: Answer = slowly(
      100,
      feed(Infinity, () => false),
    );
    const { status, ms } = await paired('slow', endless);
    assert.match(status.last_error ?? '', slowDeadline);
    assert.ok(ms < 6_000, `${ms} ms`);
    const read = pages('slow', 0).length;
    assert.ok(read >= 2 && read <= 21, `${read} pages asked for`);
  });
});

describe('a sync run cut by its server’s stop', () => {
  const made = serverAndHub(20_000);
  let a: Node;
  let remote: FakeRemote;
  before(() => ({ a, remote } = made));

  it('says it is catching up after the restart when the run kept progress, and why it stopped', async () => {
    remote.byBrain.set('cut', afterCheck(feed(5, (seen) => seen.query.get('since_watermark') === 'wm_2')));
    await a.client.createBrain({ id: 'cut' });
    await a.client.pairSync('cut', { remote: remote.url, remote_key: 'sk_test_remote_key' });
    const end = Date.now() + 10_000;
    while (
      !remote.seen.some(
        (s) => s.path === '/v1/brains/cut/records' && s.query.get('since_watermark') === 'wm_2',
      )
    ) {
      if (Date.now() > end) assert.fail('the run did not reach the page the hub holds back');
      await new Promise((r) => setTimeout(r, 25));
    }
    assert.equal((await a.client.getSync('cut')).running, true);
    await a.restart();
    const status = await a.client.getSync('cut');
    assert.match(
      status.last_error ?? '',
      /: run_stopped: the run was stopped before its end \(its server stopped\); what it pushed, sent and pulled is kept, and the next run goes on from there$/,
    );
    assert.equal(status.catching_up, true);
  });
});

describe('a sync run that reaches its deadline while it pushes', () => {
  const t: Tenant = { project: 'home', env: 'test' };
  const made = engineAndHub();
  let engine: Engine;
  let remote: FakeRemote;
  before(() => ({ engine, remote } = made));
  const limits = { idleMs: 20_000, totalMs: 20_000, runMs: 800, tombstonesPerRequest: 1 };
  /** The Record ids of every push or tombstone request to `path`, in the order they came. */
  const sentTo = (path: string) =>
    remote.seen
      .filter((s) => s.path === path)
      .flatMap((s) => {
        const body = JSON.parse(s.body) as { records?: { id: string }[]; ids?: string[] };
        return body.records?.map((r) => r.id) ?? body.ids ?? [];
      });

  it('keeps each batch the hub answered, and the next run pushes the rest', async () => {
    const sync = engine.sync!;
    await engine.createBrain(t, { id: 'push' });
    const ids: string[] = [];
    for (const text of ['one', 'two', 'three'])
      ids.push((await engine.rememberRecord(t, 'push', { content: text }, {})).record.id);
    let stalled = true;
    remote.byBrain.set('push', (seen, res) => {
      if (stalled && seen.path.endsWith('/sync/records') && seen.body.includes(ids[1]!)) return;
      hubAnswer(seen, res);
    });
    await sync.pair(t, 'push', { remote: remote.url, remote_key: 'sk_test_remote_key' });
    const first = await within('a run', 5_000, runSync(sync, t, 'push', { batchSize: 1, limits }));
    assert.match(first.error ?? '', deadline);
    assert.deepEqual([first.deadline, first.progressed], [true, true]);
    let status = await sync.status(t, 'push');
    assert.deepEqual([status.pushed, status.pending], [1, 2]);
    assert.match(status.last_error ?? '', deadline);

    stalled = false;
    const next = await within('the next run', 5_000, runSync(sync, t, 'push', { batchSize: 1, limits }));
    assert.equal(next.error, null);
    status = await sync.status(t, 'push');
    assert.deepEqual([status.pushed, status.pending, status.last_error], [3, 0, null]);
    // The batch the hub answered went once; the one cut at the deadline, again.
    assert.deepEqual(sentTo('/v1/brains/push/sync/records'), [ids[0], ids[1], ids[1], ids[2]]);
  });

  it('goes on with a forgotten import’s tombstones from the last request the hub answered', async () => {
    const sync = engine.sync!;
    await engine.createBrain(t, { id: 'forget' });
    const chat: string[] = [];
    for (let i = 0; i < 4; i++)
      chat.push(
        (await engine.rememberRecord(t, 'forget', { content: `Line ${i}`, source: { name: 'chat' } }, {}))
          .record.id,
      );
    let stalled = false;
    remote.byBrain.set('forget', (seen, res) => {
      if (stalled && seen.path.endsWith('/sync/tombstones') && seen.body.includes(chat[2]!)) return;
      hubAnswer(seen, res);
    });
    await sync.pair(t, 'forget', { remote: remote.url, remote_key: 'sk_test_remote_key' });
    assert.equal((await runSync(sync, t, 'forget', { limits })).error, null);
    // One step of four ids, one a request here.
    await engine.forgetSource(t, 'forget', 'chat');
    stalled = true;
    const first = await within('a run', 5_000, runSync(sync, t, 'forget', { limits }));
    assert.match(first.error ?? '', deadline);
    stalled = false;
    assert.equal((await within('the next run', 5_000, runSync(sync, t, 'forget', { limits }))).error, null);
    assert.deepEqual(sentTo('/v1/brains/forget/sync/tombstones'), [
      chat[0],
      chat[1],
      chat[2],
      chat[2],
      chat[3],
    ]);
  });
});

describe('what a sync run that reaches its deadline says it kept', () => {
  const t: Tenant = { project: 'home', env: 'test' };
  const made = engineAndHub();
  let engine: Engine;
  let remote: FakeRemote;
  before(() => ({ engine, remote } = made));
  const limits = { idleMs: 20_000, totalMs: 20_000, runMs: 800 };
  const runOf = async (brain: string, answer: Answer) => {
    remote.byBrain.set(brain, answer);
    await engine.createBrain(t, { id: brain });
    await engine.sync!.pair(t, brain, { remote: remote.url, remote_key: 'sk_test_remote_key' });
    return within('a run', 5_000, runSync(engine.sync!, t, brain, { limits }));
  };

  it('counts the feed pages read before the deadline as progress', async () => {
    const outcome = await runOf(
      'pages',
      feed(5, (seen) => seen.query.get('since_watermark') === 'wm_2'),
    );
    assert.match(outcome.error ?? '', deadline);
    assert.deepEqual(
      [outcome.pushed, outcome.pulled, outcome.deadline, outcome.progressed],
      [0, 2, true, true],
    );
    // Kept with the run's end: the status says so after a restart too.
    assert.equal((await engine.sync!.status(t, 'pages')).catching_up, true);
  });

  it('makes no progress when the hub stalls at the first page and nothing is to be pushed', async () => {
    const outcome = await runOf(
      'stuck',
      feed(5, () => true),
    );
    assert.match(outcome.error ?? '', deadline);
    assert.deepEqual([outcome.deadline, outcome.progressed], [true, false]);
    assert.equal((await engine.sync!.status(t, 'stuck')).catching_up, false);
  });

  it('tells a run the hub failed from one that reached its deadline', async () => {
    const outcome = await runOf('refused', (seen, res) => {
      if (seen.path.endsWith('/records')) return res.writeHead(500).end();
      hubAnswer(seen, res);
    });
    assert.ok(outcome.error !== null && !deadline.test(outcome.error), outcome.error ?? '');
    assert.deepEqual([outcome.deadline, outcome.progressed], [false, false]);
    assert.equal((await engine.sync!.status(t, 'refused')).catching_up, false);
  });
});

describe('the background sync of a Brain whose runs reach their deadline', () => {
  const { root, remove } = tempRoot();
  let a: Node;
  let remote: Awaited<ReturnType<typeof fakeRemote>>;
  const logged: string[] = [];
  before(async () => {
    remote = await fakeRemote();
    // A failed run waits an hour for the next (the backoff starts at the interval); a run that reads
    // on, as after a page limit, 0.1 s.
    a = await startNode(root, 'a', {
      sync: {
        debounceMs: 100,
        intervalMs: 3_600_000,
        limits: { idleMs: 20_000, totalMs: 20_000, runMs: 800 },
      },
      log: (line) => logged.push(line),
    });
  });
  after(async () => {
    await remote.close();
    await a.stop().catch(() => {});
    remove();
  });

  const pages = (brain: string) =>
    remote.seen
      .filter((s) => !s.check && s.path === `/v1/brains/${brain}/records`)
      .map((s) => s.query.get('since_watermark'));
  const logOf = (brain: string) => logged.filter((line) => line.startsWith(`sync of Brain ${brain} `));
  const until = async (what: string, check: () => Promise<boolean> | boolean, ms: number) => {
    const end = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  const pair = async (brain: string, answer: Answer) => {
    remote.byBrain.set(brain, afterCheck(answer));
    await a.client.createBrain({ id: brain });
    await a.client.pairSync(brain, { remote: remote.url, remote_key: 'sk_test_remote_key' });
  };

  it('runs again soon after a run that made progress until its deadline, until the sync is done', async () => {
    // 8 pages, each after the first 0.25 s: three a run of 0.8 s, so two runs or more. The first at
    // once, so that the first run makes progress however busy the machine is.
    const slowPages: Answer = (seen, res) => {
      if (seen.method === 'GET' && seen.path.endsWith('/records'))
        return slowly(
          seen.query.get('since_watermark') === 'start' ? 0 : 250,
          feed(8, () => false),
        )(seen, res);
      hubAnswer(seen, res);
    };
    await pair('big', slowPages);
    await until(
      'the first run to end',
      async () => (await a.client.getSync('big')).last_attempt_at !== null,
      10_000,
    );
    const first = await a.client.getSync('big');
    assert.match(first.last_error ?? '', deadline);
    assert.equal(first.last_success_at, null);
    assert.equal(first.catching_up, true);
    // Before: the run after the first waited for the backoff, an hour here.
    await until(
      'the sync to finish',
      async () => (await a.client.getSync('big')).last_success_at !== null,
      15_000,
    );
    const done = await a.client.getSync('big');
    assert.equal(done.last_error, null);
    const asked = pages('big');
    assert.deepEqual([...new Set(asked)], ['start', ...Array.from({ length: 7 }, (_, i) => `wm_${i + 1}`)]);
    // A run asks again at most for the page the deadline cut.
    for (const page of new Set(asked))
      assert.ok(asked.filter((p) => p === page).length <= 2, asked.join(' '));
    // Each run starts by making sure the hub's Brain is there.
    const runs = remote.seen.filter(
      (s) => !s.check && s.method === 'GET' && s.path === '/v1/brains/big',
    ).length;
    assert.ok(runs >= 2, `${runs} runs`);
    const underWay = logOf('big').filter((line) =>
      / stopped at its deadline with its progress kept; /.test(line),
    );
    assert.equal(underWay.length, runs - 1, logOf('big').join('\n'));
    for (const line of underWay) assert.match(line, deadline);
    assert.deepEqual(
      logOf('big').filter((line) => line.includes(' failed: ')),
      [],
    );
  });

  it('backs off after a run that made no progress before its deadline, whatever the runs before it did', async () => {
    // The first run reads two pages and stalls at the third; the next asks for it again, stalls, and
    // keeps nothing.
    await pair(
      'stalling',
      feed(5, (seen) => seen.query.get('since_watermark') === 'wm_2'),
    );
    await until('a second run', () => pages('stalling').length >= 4, 10_000);
    await until('the second run to end', () => logOf('stalling').length >= 2, 10_000);
    // Without the backoff the runs would follow every 0.9 s or so.
    await new Promise((r) => setTimeout(r, 2_500));
    assert.deepEqual(pages('stalling'), ['start', 'wm_1', 'wm_2', 'wm_2']);
    const [progress, failure, ...more] = logOf('stalling');
    assert.match(progress ?? '', / stopped at its deadline with its progress kept; /);
    assert.match(failure ?? '', /^sync of Brain stalling failed: /);
    assert.match(failure ?? '', deadline);
    assert.deepEqual(more, []);
    const status = await a.client.getSync('stalling');
    assert.match(status.last_error ?? '', deadline);
    assert.equal(status.last_success_at, null);
    // A failure: the next run comes after the backoff (the interval, an hour here).
    assert.equal(status.catching_up, false);
    const wait = Date.parse(status.next_run_at ?? '') - Date.now();
    assert.ok(wait > 3_500_000 && wait <= 3_600_000, `${wait} ms`);
  });
});
