import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { startCluster } from '../../engine/adapters/postgres/testing/cluster.ts';
import { runWrite, type WriteOptions } from '../../server/bench/write-bench.ts';
import { writeTarget, type WriteRoute } from '../../server/bench/write-routing.ts';

const started = await startCluster();
const cluster = 'cluster' in started ? started.cluster : null;
after(() => cluster?.stop());

/** 30 Records written through two server processes on a fresh database; the http line and the database. */
async function twoProcessesWrite(o: Pick<WriteOptions, 'brains' | 'route'> = {}) {
  const url = await cluster!.freshDatabase();
  const lines: Record<string, unknown>[] = [];
  await runWrite({
    records: 30,
    concurrency: 4,
    processes: 2,
    ...o,
    engine: 'postgres',
    databaseUrl: url,
    out: (l) => lines.push(l),
    progress: () => {},
  });
  return { http: lines[0]!, db: cluster!.connect(url, 1) };
}

describe('bench write', () => {
  it('prints the http and derive lines, the client in a process of its own (local engine, over HTTP)', async () => {
    const lines: Record<string, unknown>[] = [];
    await runWrite({
      records: 40,
      concurrency: 4,
      engine: 'local',
      out: (l) => lines.push(l),
      progress: () => {},
    });
    assert.deepEqual(
      lines.map((l) => [l['benchmark'], l['scope']]),
      [
        ['write', 'http'],
        ['write', 'derive'],
      ],
    );
    const [http, derive] = lines as [Record<string, unknown>, Record<string, unknown>];
    for (const k of ['records_per_s', 'p50_ms', 'p95_ms', 'peak_rss_mb', 'client_rss_mb', 'server_cpu_s'])
      assert.equal(typeof http[k], 'number', k);
    assert.equal(http['records'], 40);
    assert.equal(http['concurrency'], 4);
    // The client ran in a process of its own: its peak is not this one's.
    assert.match(String(http['rss_measured']), /^server process/);
    assert.ok((http['client_rss_mb'] as number) > 0);
    // Derivation is timed from the same start, so it can only be slower than the acknowledgements.
    assert.ok((derive['records_per_s'] as number) <= (http['records_per_s'] as number));
  });

  it(
    'spreads the writes over N server processes on one postgres database (--processes)',
    { skip: 'skip' in started ? started.skip : false },
    async () => {
      const { http, db } = await twoProcessesWrite();
      assert.equal(http['processes'], 2);
      assert.match(String(http['rss_measured']), /^first server process/);
      // Every write (half of them through the second process) was kept once, and every job derived.
      const rows = await db.query<{ n: number; ids: number }>(
        'SELECT count(*)::int AS n, count(DISTINCT id)::int AS ids FROM records',
      );
      assert.deepEqual(rows.rows, [{ n: 30, ids: 30 }]);
      const queued = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM derive_jobs');
      assert.deepEqual(queued.rows, [{ n: 0 }]);
    },
  );

  it(
    'spreads the writes over N Brains, each Brain to one process (--brains, --route brain)',
    { skip: 'skip' in started ? started.skip : false },
    async () => {
      const { http, db } = await twoProcessesWrite({ brains: 3, route: 'brain' });
      assert.equal(http['brains'], 3);
      assert.equal(http['route'], 'brain');
      const rows = await db.query<{ id: string; n: number }>(
        'SELECT b.id, count(r.id)::int AS n FROM brains b JOIN records r ON r.brain_uid = b.uid GROUP BY b.id ORDER BY b.id',
      );
      assert.deepEqual(rows.rows, [
        { id: 'write-1', n: 10 },
        { id: 'write-2', n: 10 },
        { id: 'write-3', n: 10 },
      ]);
    },
  );

  it(
    'runs again on the same database, each run with Brains of its own and its key revoked after',
    { skip: 'skip' in started ? started.skip : false },
    async () => {
      const url = await cluster!.freshDatabase();
      for (let run = 0; run < 2; run++)
        await runWrite({
          records: 5,
          concurrency: 2,
          engine: 'postgres',
          databaseUrl: url,
          out: () => {},
          progress: () => {},
        });
      const db = cluster!.connect(url, 1);
      const brains = await db.query<{ project: string; n: number }>(
        `SELECT n.project, count(r.id)::int AS n FROM brain_names n JOIN records r ON r.brain_uid = n.uid
         WHERE n.id = 'write' GROUP BY n.project`,
      );
      assert.equal(brains.rows.length, 2);
      assert.deepEqual(
        brains.rows.map((r) => r.n),
        [5, 5],
      );
      const keys = await db.query<{ prefix: string; revoked: boolean }>(
        'SELECT prefix, revoked_at IS NOT NULL AS revoked FROM api_keys ORDER BY prefix',
      );
      assert.deepEqual(
        keys.rows.map((k) => [k.prefix, k.revoked]),
        brains.rows.map((b) => [`sk_test_${b.project}`, true]).sort(),
      );
    },
  );

  it('sends each Brain to one server with --route brain, and each write in turn with rotate', () => {
    const targets = (route: WriteRoute) =>
      Array.from({ length: 6 }, (_, i) => writeTarget(i, 3, 2, route)).map((t) => `${t.brain}@${t.server}`);
    assert.deepEqual(targets('brain'), ['0@0', '1@1', '2@0', '0@0', '1@1', '2@0']);
    assert.deepEqual(targets('rotate'), ['0@0', '1@1', '2@0', '0@1', '1@0', '2@1']);
  });

  it('refuses --processes above 1 without the postgres engine and a database', async () => {
    await assert.rejects(
      runWrite({
        records: 1,
        concurrency: 1,
        processes: 2,
        engine: 'local',
        out: () => {},
        progress: () => {},
      }),
      /--processes above 1 needs --engine postgres and --database-url/,
    );
  });
});
