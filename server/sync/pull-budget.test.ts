import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { SyncStatus } from '../../engine/contract/index.ts';
import { MnemoApiError, createMnemoClient } from '../client/index.ts';
import {
  afterCheck,
  editStore,
  fakeRemote,
  hubAnswer,
  json,
  startNode,
  tempRoot,
  type Answer,
  type Node,
  type Seen,
} from '../../test/integration/sync-helpers.ts';
import { addPulled, pausedUntil } from './pull-budget.ts';
import type { RunLimits } from './run-sync.ts';

const hour = 3_600_000;

/**
 * A hub whose change feed never ends (a hub, or an agent's key of its project, writing without end):
 * from `wm_<n>` on, `limit` Records of `size` characters each, numbered from n, and always has_more.
 * Each Record's text holds `marker`, which no log line may.
 */
function floodingFeed(size: number, marker: string, over = 1): Answer {
  return afterCheck((seen, res) => {
    if (!(seen.method === 'GET' && seen.path.endsWith('/records'))) return hubAnswer(seen, res);
    const n = Number(/^wm_(\d+)$/.exec(seen.query.get('since_watermark') ?? '')?.[1] ?? 0);
    // `over` times the limit asked for: a hub that ignores it.
    const limit = Number(seen.query.get('limit') ?? 200) * over;
    const data = Array.from({ length: limit }, (_, i) => ({
      id: `rec_01FLOOD${String(n + i).padStart(18, '0')}`,
      object: 'record',
      content: { kind: 'message', text: `${marker} ${n + i} `.padEnd(size, 'x') },
      source: {},
      visibility: 'shareable',
      occurred_at: '2026-01-01T00:00:00.000Z',
    }));
    json(res, { data, has_more: true, next_cursor: null, watermark: `wm_${n + limit}`, removed: [] });
  });
}

/** The feed pages a device asked for in `seen` (its pairing check's aside), and the Records asked for. */
const feedAsks = (seen: readonly Seen[]) => {
  const pages = seen.filter((s) => !s.check && s.method === 'GET' && s.path.endsWith('/records'));
  return { pages: pages.length, records: pages.reduce((n, s) => n + Number(s.query.get('limit')), 0) };
};

/** A device whose Brain "ana" is paired with a flooding hub, under `limits`; its log lines kept. */
async function floodedDevice(
  root: string,
  name: string,
  o: { size: number; limits: Partial<RunLimits>; over?: number },
): Promise<{ a: Node; remote: Awaited<ReturnType<typeof fakeRemote>>; log: string[] }> {
  const remote = await fakeRemote();
  remote.answer = floodingFeed(o.size, 'FLOODTEXT', o.over);
  const log: string[] = [];
  const a = await startNode(root, name, {
    sync: { debounceMs: 3_600_000, intervalMs: 3_600_000, limits: o.limits },
    log: (line) => log.push(line),
  });
  await a.client.createBrain({ id: 'ana' });
  await a.client.pairSync('ana', { remote: remote.url, remote_key: 'sk_test_home_hubkey0000' });
  return { a, remote, log };
}

/** `mnemo sync …` against node `n`'s server with its admin key: its exit code and output. */
const cli = (n: Node, ...args: string[]) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [join(import.meta.dirname, '..', '..', 'bin', 'mnemo.mjs'), 'sync', ...args],
      { env: { ...process.env, MNEMO_URL: n.server.url, MNEMO_KEY: n.key, MNEMO_LOG: 'silent' } },
      (e, stdout, stderr) => resolve({ code: e ? (e.code as number) : 0, stdout, stderr }),
    );
  });

describe("a pairing's pull under its budget", () => {
  const { root, remove } = tempRoot();
  after(remove);

  describe('Records per day', () => {
    let a: Node;
    let remote: Awaited<ReturnType<typeof fakeRemote>>;
    let log: string[];
    let first: SyncStatus;
    before(async () => {
      ({ a, remote, log } = await floodedDevice(root, 'records', {
        size: 100,
        limits: { pullRecordsPerDay: 500 },
      }));
      // Pairing starts a run, which this one waits for.
      first = await a.client.runSync('ana');
    });
    after(async () => {
      await a.stop();
      await remote.close();
    });

    it('stops at the day’s budget, and the status says why and when it reads on', async () => {
      // 200, 200, then the 100 left: never a Record over the budget.
      assert.deepEqual(feedAsks(remote.seen), { pages: 3, records: 500 });
      assert.equal(first.pulled, 500);
      assert.equal(first.last_error, null);
      assert.equal(first.catching_up, false, 'a pause is no catching up: the next run is not 2 s away');
      const budget = first.pull_budget!;
      assert.equal(budget.records, 500);
      assert.equal(budget.records_per_day, 500);
      assert.ok(budget.bytes > 500 * 100, String(budget.bytes));
      const until = Date.parse(budget.paused_until!);
      assert.ok(until > Date.now() + 23 * hour && until <= Date.now() + 25 * hour, budget.paused_until!);
      assert.match(first.warning!, /^the pull is paused: it read 500 Records \(.+\) from the hosted Mnemo/);
      assert.ok(first.warning!.includes(`reads on by itself at ${budget.paused_until}`), first.warning!);
      assert.ok(first.warning!.includes('mnemo sync run --brain ana --allow-more'), first.warning!);
    });

    it('logs one line for the run, with its counts and bytes and never a Record’s text', () => {
      const lines = log.filter((l) => l.startsWith('sync of Brain ana'));
      assert.equal(lines.length, 1, log.join('\n'));
      assert.match(
        lines[0]!,
        /^sync of Brain ana: pushed 0, pulled 500 \(read 500 Records, [\d.]+ kB; in the last 24 h 500 Records, [\d.]+ kB\); the pull is paused by its day's budget until \S+Z$/,
      );
      assert.ok(!log.join('\n').includes('FLOODTEXT'));
    });

    it('asks for no page while paused, and pushes all the same', async () => {
      remote.seen.length = 0;
      const mine = await a.client.rememberRecord('ana', { content: 'Written here while the pull waits.' });
      const s = await a.client.runSync('ana');
      assert.equal(s.last_error, null);
      assert.deepEqual(feedAsks(remote.seen), { pages: 0, records: 0 });
      const pushes = remote.seen.filter((r) => r.path.endsWith('/sync/records'));
      assert.ok(pushes.some((r) => r.body.includes(mine.record.id)));
      assert.equal(s.pushed, 1);
      assert.notEqual(s.pull_budget!.paused_until, null);
    });

    it('stays paused across a restart: the day is kept with the pairing', async () => {
      await a.restart();
      remote.seen.length = 0;
      const s = await a.client.runSync('ana');
      assert.deepEqual(feedAsks(remote.seen), { pages: 0, records: 0 });
      assert.equal(s.pull_budget!.records, 500);
      assert.notEqual(s.pull_budget!.paused_until, null);
      const status = await cli(a, 'status', '--brain', 'ana');
      assert.equal(status.code, 0, status.stderr);
      assert.match(
        status.stdout,
        /^pulled in the last 24 h: 500 of 500 Records, [\d.]+ kB of 512 MiB; the pull is paused until \S+Z$/m,
      );
      assert.match(status.stdout, /^warning: the pull is paused: it read 500 Records/m);
    });

    it('reads another day’s budget when the admin key allows more, and an agent’s key may not', async () => {
      const agent = createMnemoClient({
        baseUrl: a.server.url,
        apiKey: (await a.server.registry!.create({ env: 'test', project: 'home' })).key,
        retry: false,
      });
      remote.seen.length = 0;
      const refused = await agent.runSync('ana', { allowMore: true }).then(
        () => assert.fail('an agent’s key allowed more'),
        (e: unknown) => e,
      );
      assert.ok(refused instanceof MnemoApiError && refused.code === 'http_403', String(refused));
      assert.deepEqual(feedAsks(remote.seen), { pages: 0, records: 0 });

      const run = await cli(a, 'run', '--brain', 'ana', '--allow-more', '--json');
      assert.equal(run.code, 0, run.stderr);
      const s = JSON.parse(run.stdout) as SyncStatus;
      assert.deepEqual(feedAsks(remote.seen), { pages: 3, records: 500 });
      assert.equal(s.pulled, 1000);
      assert.equal(s.pull_budget!.records, 500);
      assert.notEqual(s.pull_budget!.paused_until, null);
      assert.ok(log.some((l) => l.includes('the person allowed the pull another day’s budget')));
    });

    it('reads on by itself once its day is past', async () => {
      await a.stop();
      // The pairing's reads as kept, a day and an hour earlier.
      editStore(root, 'records', (db) => {
        const { pulled_hours: kept } = db.prepare('SELECT pulled_hours FROM sync_pairings').get() as {
          pulled_hours: string;
        };
        const older = (JSON.parse(kept) as number[][]).map(([h, r, b]) => [h! - 25 * hour, r, b]);
        db.prepare('UPDATE sync_pairings SET pulled_hours = ?').run(JSON.stringify(older));
      });
      await a.restart();
      assert.equal((await a.client.getSync('ana')).pull_budget!.paused_until, null);
      remote.seen.length = 0;
      const s = await a.client.runSync('ana');
      assert.equal(feedAsks(remote.seen).records, 500);
      assert.equal(s.pulled, 1500);
    });
  });

  it('stops at the bytes of a day, past them by no more than a Record after its first page', async () => {
    const budget = 12 * 1024 * 1024;
    const { a, remote } = await floodedDevice(root, 'bytes', {
      size: 50_000,
      limits: { pullBytesPerDay: budget },
    });
    try {
      const s = await a.client.runSync('ana');
      const b = s.pull_budget!;
      // 200 Records of some 50 KB (10 MB), then as many as the bytes left hold, then one over them.
      assert.ok(b.bytes >= budget && b.bytes < budget + 51_000, String(b.bytes));
      assert.equal(s.pulled, b.records);
      assert.ok(b.records > 200 && b.records < 260, String(b.records));
      assert.notEqual(b.paused_until, null);
      assert.match(s.warning!, /\(12\.\d MB\) from the hosted Mnemo.+or 12 MiB;/);
    } finally {
      await a.stop();
      await remote.close();
    }
  });

  it('stops a run at its budget of a run, catching up, and the next run reads on', async () => {
    const { a, remote, log } = await floodedDevice(root, 'run', {
      size: 100,
      limits: { pullRecordsPerRun: 300, pullRecordsPerDay: 1000 },
    });
    try {
      // After the run that pairing starts, one more.
      const s = await a.client.runSync('ana');
      assert.deepEqual(feedAsks(remote.seen), { pages: 4, records: 600 });
      const lines = log.filter((l) => l.startsWith('sync of Brain ana'));
      assert.equal(lines.length, 2, log.join('\n'));
      for (const line of lines)
        assert.match(line, /pulled 300 \(read 300 Records, .+; more to read, the next run goes on soon$/);
      assert.equal(s.pulled, 600);
      assert.equal(s.catching_up, true);
      assert.equal(s.pull_budget!.paused_until, null);
    } finally {
      await a.stop();
      await remote.close();
    }
  });
});

describe('a hub that sends more Records than a page asked for', () => {
  const { root, remove } = tempRoot();
  after(remove);

  it('is refused: nothing of the page is kept, and the status says why', async () => {
    const { a, remote } = await floodedDevice(root, 'over', {
      size: 100,
      over: 10,
      limits: { pullRecordsPerDay: 500 },
    });
    try {
      const s = await a.client.runSync('ana');
      assert.equal(s.pulled, 0);
      assert.match(s.last_error ?? '', /answered 2000 Records to a request for at most 200/);
      assert.equal((await a.client.listRecords('ana', {})).data.length, 0);
    } finally {
      await a.stop();
      await remote.close();
    }
  });
});

describe('the day of a pull, by the hour', () => {
  const budget = {
    pullRecordsPerRun: 1e9,
    pullBytesPerRun: 1e12,
    pullRecordsPerDay: 100,
    pullBytesPerDay: 1e12,
  };

  it('counts an hour until a day after its end, and reads on when the oldest leaving brings it under', () => {
    const t0 = Date.parse('2026-03-01T10:20:00Z');
    let hours = addPulled([], t0, 60, 600);
    hours = addPulled(hours, t0 + 30 * 60_000, 0, 0);
    hours = addPulled(hours, t0 + 2 * hour, 50, 500);
    assert.deepEqual(
      hours.map((h) => [new Date(h.hour).toISOString(), h.records]),
      [
        ['2026-03-01T10:00:00.000Z', 60],
        ['2026-03-01T12:00:00.000Z', 50],
      ],
    );
    // 110 of 100: paused until the 10 o'clock hour has counted a whole day past its end.
    assert.equal(
      new Date(pausedUntil(hours, t0 + 3 * hour, budget)!).toISOString(),
      '2026-03-02T11:00:00.000Z',
    );
    assert.equal(pausedUntil(hours, Date.parse('2026-03-02T11:00:00Z'), budget), null);
    assert.deepEqual(
      addPulled(hours, Date.parse('2026-03-02T11:30:00Z'), 1, 1).map((h) => h.records),
      [50, 1],
    );
  });

  it('counts an hour a clock ahead wrote as now: set back a year, the pull waits a day, not a year', () => {
    const ahead = Date.parse('2027-03-01T10:20:00Z');
    const hours = addPulled([], ahead, 120, 1200);
    const now = Date.parse('2026-03-01T10:20:00Z');
    assert.equal(new Date(pausedUntil(hours, now, budget)!).toISOString(), '2026-03-02T11:00:00.000Z');
    // Read at now, it joins now's hour, counted once.
    assert.deepEqual(
      addPulled(hours, now, 1, 1).map((h) => [new Date(h.hour).toISOString(), h.records]),
      [['2026-03-01T10:00:00.000Z', 121]],
    );
  });
});
