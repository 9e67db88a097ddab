import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { after, describe, it } from 'node:test';
import { connectPostgres } from '../../engine/adapters/postgres/client.ts';
import { startCluster } from '../../engine/adapters/postgres/testing/cluster.ts';

/*
 * Several `mnemo serve --engine postgres` processes on one real PostgreSQL database, as a hosted Mnemo
 * runs: writes through either are all kept once, either reads every change in the same order, a
 * revoke is refused by both on the next request, and a process killed mid-derivation leaves its jobs
 * to the other once their leases end. Skipped where no PostgreSQL server can be started.
 */
const started = await startCluster();
const skip = 'skip' in started ? started.skip : false;
const cluster = 'cluster' in started ? started.cluster : null;
after(() => cluster?.stop());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const env = { ...process.env, MNEMO_LOG: '', MNEMO_EMBEDDER: 'none', MNEMO_DERIVE_LEASE_MS: '1500' };

function mnemo(args: string[]): {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  done: Promise<number | null>;
} {
  const child = spawn(process.execPath, ['bin/mnemo.mjs', ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  after(() => child.kill('SIGKILL'));
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const done = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, out: () => out, err: () => err, done };
}

async function serve(url: string): Promise<{ base: string; child: ChildProcess; err: () => string }> {
  const p = mnemo(['serve', '--engine', 'postgres', '--database-url', url, '--port', '0']);
  const deadline = Date.now() + 60_000;
  while (!/listening on/.test(p.out()) && p.child.exitCode === null && Date.now() < deadline) await sleep(25);
  const base = /listening on (\S+)/.exec(p.out())?.[1];
  assert.ok(base, `serve did not start: ${p.err()}`);
  return { base, child: p.child, err: p.err };
}

async function keyFor(url: string, project: string): Promise<string> {
  const p = mnemo(['keys', 'create', '--project', project, '--env', 'test', '--database-url', url]);
  assert.equal(await p.done, 0, p.err());
  return p.out().trim();
}

const call = async (base: string, key: string, method: string, path: string, body?: unknown) => {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return {
    status: res.status,
    watermark: res.headers.get('brain-watermark'),
    body: (await res.json()) as Record<string, unknown>,
  };
};

/** Every Record of the Brain as `base` lists it, page by page (ids in its order). */
async function allRecords(base: string, key: string, query = ''): Promise<{ id: string; status: string }[]> {
  const out: { id: string; status: string }[] = [];
  let cursor: string | null = null;
  do {
    const q = `limit=100${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const page = await call(base, key, 'GET', `/brains/b/records?${q}`);
    assert.equal(page.status, 200, JSON.stringify(page.body));
    out.push(...(page.body.data as { id: string; status: string }[]));
    cursor = page.body.has_more ? (page.body.next_cursor as string) : null;
  } while (cursor);
  return out;
}

/** The change feed after `since`, page by page, each page's watermark sent back as the next boundary. */
async function changes(base: string, key: string, since: string): Promise<string[]> {
  const out: string[] = [];
  for (let mark = since, more = true; more;) {
    const page = await call(
      base,
      key,
      'GET',
      `/brains/b/records?limit=50&since_watermark=${encodeURIComponent(mark)}`,
    );
    assert.equal(page.status, 200, JSON.stringify(page.body));
    out.push(...(page.body.data as { id: string }[]).map((r) => r.id));
    mark = page.body.watermark as string;
    more = page.body.has_more as boolean;
  }
  return out;
}

/** Polls the Brain's Census through `base` until `target` Records are processing (or a minute passes): the last count. */
async function processingDrops(base: string, key: string, target: number): Promise<number> {
  const deadline = Date.now() + 60_000;
  let pending = -1;
  while (Date.now() < deadline) {
    const census = await call(base, key, 'GET', '/brains/b/census');
    pending = (census.body.counts as { records_processing: number }).records_processing;
    if (pending <= target) break;
    await sleep(200);
  }
  return pending;
}

describe('several postgres processes on one database', { skip }, () => {
  /**
   * Stops a server at a moment it holds no transaction open: frozen inside one (a derivation's unit,
   * say), it would hold the Brain's row and stall the other server's writes for as long as it stays
   * frozen. Retried, with the server let go in between, until none is open.
   */
  async function freezeIdle(child: ChildProcess, db: ReturnType<typeof connectPostgres>) {
    for (let i = 0; i < 100; i++) {
      child.kill('SIGSTOP');
      await sleep(30);
      const open = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> pg_backend_pid() AND state LIKE 'idle in transaction%'`,
      );
      if (open.rows[0]!.n === 0) return;
      child.kill('SIGCONT');
      await sleep(20 + 5 * i);
    }
    assert.fail('the server never stood with no transaction open');
  }

  it('keep every write once, read the same changes in order, honour a revoke, and finish a dead one’s jobs', async (t) => {
    const url = await cluster!.freshDatabase();
    // The test's own view of the database, beside the servers'.
    const db = connectPostgres(url, { max: 1 });
    t.after(() => db.close());
    const key = await keyFor(url, 'team');
    const [a, b] = await Promise.all([serve(url), serve(url)]);
    const created = await call(a.base, key, 'POST', '/brains', { id: 'b' });
    assert.equal(created.status, 201);
    const born = created.watermark!;
    const first = await call(b.base, key, 'GET', '/brains/b/records?limit=1');
    assert.equal(first.status, 200, 'the Brain one process made is the other’s at once');

    // Writes through both at once, to one Brain.
    const n = 120;
    const acked = await Promise.all(
      Array.from({ length: n }, async (_, i) => {
        const r = await call(i % 2 ? a.base : b.base, key, 'POST', '/brains/b/records', {
          content: { kind: 'message', text: `Message ${i} from Ana about the garden.`, speaker: 'Ana' },
        });
        assert.ok(r.status === 201 || r.status === 202, JSON.stringify(r.body));
        return r.body.id as string;
      }),
    );
    const viaA = await allRecords(a.base, key);
    const viaB = await allRecords(b.base, key);
    assert.deepEqual(viaA.map((r) => r.id).sort(), [...acked].sort(), 'every acknowledged write, once');
    assert.deepEqual(
      viaB.map((r) => r.id),
      viaA.map((r) => r.id),
      'the same list from either process',
    );

    // The change feed from the Brain's first step: the same changes in the same order from either.
    const changesA = await changes(a.base, key, born);
    assert.deepEqual([...changesA].sort(), [...acked].sort());
    assert.deepEqual(await changes(b.base, key, born), changesA);

    // A revoke made in the database is refused by both on their next request, though each keeps the
    // keys it has looked up; B, frozen with the key in its copy, holds the revoke until its lease ends.
    const doomed = await keyFor(url, 'team');
    const watching = async () =>
      (
        await db.query<{ live: number; behind: number; behindLive: number }>(
          `SELECT count(*) FILTER (WHERE live)::int AS live, count(*) FILTER (WHERE behind)::int AS behind,
                  count(*) FILTER (WHERE live AND behind)::int AS "behindLive"
           FROM (SELECT lease_until > clock_timestamp() AS live,
                        seen < (SELECT epoch FROM mnemo_key_epoch) AS behind FROM mnemo_key_watchers) w`,
        )
      ).rows[0]!;
    for (let i = 0; i < 100 && (await watching()).live < 2; i++) await sleep(20);
    assert.equal((await watching()).live, 2, 'both processes keep the keys they look up');
    assert.equal((await call(a.base, doomed, 'GET', '/brains')).status, 200);
    assert.equal((await call(b.base, doomed, 'GET', '/brains')).status, 200);
    await freezeIdle(b.child, db);
    const revoke = mnemo(['keys', 'revoke', doomed, '--database-url', url]);
    assert.equal(await revoke.done, 0, revoke.err());
    const after = await watching();
    assert.equal(after.behindLive, 0, 'no copy the revoke counted was left holding the key');
    assert.ok(after.behind >= 1, 'B, frozen, never dropped its copy: the revoke outwaited its lease');
    assert.equal((await call(a.base, doomed, 'GET', '/brains')).status, 401);
    b.child.kill('SIGCONT');
    assert.equal((await call(b.base, doomed, 'GET', '/brains')).status, 401);

    // A killed mid-derivation: B derives what A had queued or claimed, once A's leases end. B keeps
    // pace with A's writes when it runs, so it is paused (with no transaction open) until A is gone.
    // A is frozen while writes stream in and it holds a claim: watched in the database, and counted
    // again once frozen (A may have committed in between; then it runs on and is caught later).
    await processingDrops(b.base, key, 0);
    await freezeIdle(b.child, db);
    const jobs = async () =>
      (
        await db.query<{ n: number; claimed: number }>(
          'SELECT count(*)::int AS n, count(leased_until_ms)::int AS claimed FROM derive_jobs',
        )
      ).rows[0]!;
    // A statement A sent before it froze still runs: counted only once none runs, twice in a row (one
    // may be between its lock and its run), B being paused too. One waiting for a lock that A's frozen
    // transaction holds never will.
    const settled = async () => {
      for (let i = 0, quiet = 0; i < 500; i++) {
        const running = await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity
           WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'active'
             AND backend_type = 'client backend' AND wait_event_type IS DISTINCT FROM 'Lock'`,
        );
        quiet = running.rows[0]!.n === 0 ? quiet + 1 : 0;
        if (quiet === 2) return;
        await sleep(10);
      }
      assert.fail('a statement of the frozen server kept running');
    };
    let claimedByA = 0;
    // A burst of writes, watched; on a loaded machine A may derive a whole burst between two looks,
    // so up to three bursts are written until one catches A holding a claim.
    const perBurst = 400;
    const bursts: Promise<(string | null)[]>[] = [];
    while (claimedByA === 0 && bursts.length < 3) {
      let writing = true;
      const from = bursts.length * perBurst;
      const burst = Promise.all(
        Array.from({ length: perBurst }, async (_, i) => {
          const r = await call(a.base, key, 'POST', '/brains/b/records', {
            content: { kind: 'message', text: `Later note ${from + i}: Ana planted tulips.`, speaker: 'Ana' },
          }).catch(() => null);
          // Cut off by A's death: maybe written, never acknowledged.
          if (r === null) return null;
          assert.ok(r.status === 201 || r.status === 202, JSON.stringify(r.body));
          return r.body.id as string;
        }),
      ).finally(() => (writing = false));
      bursts.push(burst);
      for (let now = await jobs(); claimedByA === 0 && (writing || now.n > 0); now = await jobs()) {
        if (now.claimed === 0) continue;
        a.child.kill('SIGSTOP');
        await settled();
        claimedByA = (await jobs()).claimed;
        if (claimedByA === 0) a.child.kill('SIGCONT');
      }
      if (claimedByA === 0) await burst;
    }
    const left = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM derive_jobs')).rows[0]!.n;
    a.child.kill('SIGKILL');
    await new Promise((r) => a.child.once('exit', r));
    b.child.kill('SIGCONT');
    const ackedLater = (await Promise.all(bursts)).flat().filter((id): id is string => id !== null);
    assert.ok(claimedByA > 0, 'A died holding claimed derivations (else there is nothing to take over)');
    assert.ok(left >= claimedByA);
    assert.equal(await processingDrops(b.base, key, 0), 0, `B finished the derivations A left: ${b.err()}`);
    const records = await allRecords(b.base, key);
    const ids = new Set(records.map((r) => r.id));
    assert.equal(ids.size, records.length, 'each Record once');
    assert.deepEqual(
      ackedLater.filter((id) => !ids.has(id)),
      [],
      'every acknowledged write is there',
    );
    assert.ok(records.length <= n + perBurst * bursts.length);
    assert.deepEqual(
      records.filter((r) => r.status !== 'ready'),
      [],
      'every Record derived',
    );
  });
});
