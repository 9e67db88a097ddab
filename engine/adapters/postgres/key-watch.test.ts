import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { hashKey } from '../../auth/api-key.ts';
import type { KeyRecord } from '../../ports/index.ts';
import { pgKeyRegistry } from './key-registry.ts';
import { pgKeyWatch, type KeyWatch, type KeyWatchOptions } from './key-watch.ts';
import { migratedPglite } from './testing/fixtures.ts';

// Two watches on one database stand for two server processes: each has its own copy and its own row.
const db = await migratedPglite();
const watches: KeyWatch[] = [];
afterEach(() => Promise.all(watches.splice(0).map((w) => w.close())));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function watched(options: KeyWatchOptions = {}) {
  const earlier = new Set((await watchers()).map((w) => w.id));
  const watch = pgKeyWatch(db, { pollMs: 10, ...options });
  watches.push(watch);
  const reads: string[] = [];
  const registry = pgKeyRegistry(db, { watch });
  // Counts the lookups that reached the table, as the registry's own read does them.
  const lookup = (hash: string) =>
    watch.lookup(hash, async () => {
      reads.push(hash);
      return (await db.query<KeyRecord>('SELECT * FROM api_keys WHERE hash = $1', [hash])).rows[0] ?? null;
    });
  /** This process's row, once its watch has begun. */
  const row = async () => (await watchers()).find((w) => !earlier.has(w.id));
  return { watch, registry, lookup, reads, row };
}

/** Looks the key up until the copy answers it (the watch starts with the first lookup). */
async function kept(p: Awaited<ReturnType<typeof watched>>, hash: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const before = p.reads.length;
    await p.lookup(hash);
    if (p.reads.length === before) return;
    await sleep(5);
  }
  assert.fail('the copy never answered the key');
}

const watchers = async () =>
  (
    await db.query<{ id: string; seen: number; live: boolean }>(
      'SELECT id, seen, lease_until > clock_timestamp() AS live FROM mnemo_key_watchers ORDER BY id',
    )
  ).rows;

async function newKey(registry = pgKeyRegistry(db)) {
  const made = await registry.create({ env: 'test', project: 'watch', scopes: ['context:read'] });
  return { ...made, hash: hashKey(made.key) };
}

describe('a process keeping the keys it looked up (key-watch.ts)', () => {
  it('answers a key it has looked up from its copy, and an unknown key from the table once', async () => {
    const p = await watched();
    const { hash, record } = await newKey();
    await kept(p, hash);
    const reads = p.reads.length;
    assert.deepEqual(await p.lookup(hash), record);
    assert.deepEqual(await p.lookup(hash), record);
    assert.equal(p.reads.length, reads, 'no read of the table for a kept key');
    const unknown = hashKey('sk_test_watch_unknown');
    assert.equal(await p.lookup(unknown), null);
    assert.equal(await p.lookup(unknown), null);
    assert.equal(await p.lookup(unknown), null);
    assert.equal(p.reads.length, reads + 1, 'an unknown key costs one read of the table');
    const created = await newKey();
    assert.deepEqual(await p.lookup(created.hash), created.record, 'a key made since is found');
  });

  it('reads an unknown key from the table again once its copy was dropped by a revoke', async () => {
    const p = await watched();
    const { hash } = await newKey();
    await kept(p, hash);
    const unknown = hashKey('sk_test_watch_unknown_until_revoke');
    assert.equal(await p.lookup(unknown), null);
    const reads = p.reads.length;
    assert.equal(await p.lookup(unknown), null);
    assert.equal(p.reads.length, reads, 'held as unknown');
    const other = await newKey();
    await pgKeyRegistry(db).revoke(other.record.id);
    assert.equal(await p.lookup(unknown), null);
    assert.equal(p.reads.length, reads + 1, 'read again after the drop');
  });

  it('a revoke in one process returns once the other has dropped its copy: the next lookup refuses the key', async () => {
    const one = await watched();
    const two = await watched();
    const { key, hash } = await newKey();
    await kept(one, hash);
    await kept(two, hash);
    const revoked = await two.registry.revoke(key);
    assert.ok(revoked?.revoked_at);
    assert.equal((await one.lookup(hash))?.revoked_at, revoked.revoked_at);
    assert.equal((await one.registry.byHash(hash))?.revoked_at, revoked.revoked_at);
    assert.equal((await two.lookup(hash))?.revoked_at, revoked.revoked_at);
  });

  it('does not keep a key it read before a revoke whose wait it has since answered', async () => {
    const p = await watched();
    const other = await newKey();
    await kept(p, other.hash);
    const { key, hash, record } = await newKey();
    let release = () => {};
    const gate = new Promise<void>((r) => (release = r));
    // The row as read before the revoke, its answer arriving after it.
    const slow = p.watch.lookup(hash, async () => {
      await gate;
      return record;
    });
    await pgKeyRegistry(db).revoke(key);
    release();
    assert.equal((await slow)?.revoked_at, null);
    assert.ok((await p.lookup(hash))?.revoked_at, 'the row read before the revoke was not kept');
  });

  it('a second revoke of a key being revoked returns only once the copies dropped it too', async () => {
    // Answers a revoke only at its next poll.
    const slow = await watched({ pollMs: 300 });
    const { key, hash } = await newKey();
    await kept(slow, hash);
    const registry = pgKeyRegistry(db);
    const first = registry.revoke(key);
    const second = await registry.revoke(key);
    assert.ok(second?.revoked_at);
    assert.ok((await slow.lookup(hash))?.revoked_at, 'the copy was dropped before the second returned');
    assert.equal((await first)?.revoked_at, second.revoked_at);
  });

  it('a key revoked or removed in SQL, not through the registry, leaves the copies at their next poll', async () => {
    const p = await watched();
    const revoked = await newKey();
    const removed = await newKey();
    await kept(p, revoked.hash);
    await kept(p, removed.hash);
    // As an older Mnemo's revoke, or an operator's statement, would: nothing waits for the copies.
    await db.query('UPDATE api_keys SET revoked_at = $2 WHERE hash = $1', [
      revoked.hash,
      new Date().toISOString(),
    ]);
    await db.query('DELETE FROM api_keys WHERE hash = $1', [removed.hash]);
    let now = await p.lookup(revoked.hash);
    for (let i = 0; i < 200 && !now?.revoked_at; i++) {
      await sleep(5);
      now = await p.lookup(revoked.hash);
    }
    assert.ok(now?.revoked_at, 'the revoked key is refused');
    assert.equal(await p.lookup(removed.hash), null, 'the removed key is unknown');
  });

  it('a process that stops answering holds a revoke only until its lease runs out, and then reads the table', async () => {
    // Its poll never comes, as for a process frozen or cut off from the database; and its monotonic
    // clock stands still, as while a machine sleeps: the wall clock ends its trust.
    const clock = 0;
    const silent = await watched({ pollMs: 60_000, leaseMs: 1_500, now: () => clock });
    const { key, hash } = await newKey();
    await kept(silent, hash);
    const mine = await silent.row();
    assert.equal(mine?.live, true, 'the process is counted while its lease runs');
    await pgKeyRegistry(db).revoke(key);
    const then = await silent.row();
    assert.equal(then?.live, false, 'the revoke returned only once the lease had run out');
    assert.equal(then.seen, mine.seen, 'the silent process never dropped its copy');
    assert.ok((await silent.lookup(hash))?.revoked_at, 'outside its lease the process reads the table');
  });

  it('drops its copy when a renewal answers after the lease it trusted had run out', async () => {
    let clock = 0;
    const p = await watched({ now: () => clock, leaseMs: 1_000 });
    const { hash, record } = await newKey();
    await kept(p, hash);
    const { id } = (await p.row())!;
    // A revoke whose wait passed this process over (its lease had run out) and whose epoch the
    // renewal did not see: only the gap tells the process its copy may be stale.
    await db.transaction(async (tx) => {
      await tx.query('ALTER TABLE api_keys DISABLE TRIGGER api_keys_revoked');
      await tx.query('UPDATE api_keys SET revoked_at = $2 WHERE hash = $1', [hash, new Date().toISOString()]);
      await tx.query('ALTER TABLE api_keys ENABLE TRIGGER api_keys_revoked');
    });
    await db.query(
      `UPDATE mnemo_key_watchers SET lease_until = clock_timestamp() - interval '1 second' WHERE id = $1`,
      [id],
    );
    clock = 5_000;
    for (let i = 0; i < 200 && !(await p.row())?.live; i++) await sleep(5);
    await sleep(30);
    const now = await p.lookup(hash);
    assert.ok(now?.revoked_at, `the copy was dropped (the record kept was ${JSON.stringify(record)})`);
  });

  it('an idle process ends its watch: its row is removed, and its next lookup starts a new one', async () => {
    let clock = 0;
    const p = await watched({ now: () => clock, idleMs: 1_000 });
    const { hash } = await newKey();
    await kept(p, hash);
    const { id } = (await p.row())!;
    clock = 2_000;
    for (let i = 0; i < 200 && (await p.row()); i++) await sleep(5);
    assert.equal(await p.row(), undefined, 'its row is removed');
    await kept(p, hash);
    assert.notEqual((await p.row())?.id, id, 'the next lookup starts watching again, as a new row');
  });
});
