import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { openStore } from './store.ts';
import type { MnemoError } from '../../errors/mnemo-error.ts';
import { asStoreError } from './store-failure.ts';
import { createWalSync } from './wal-sync.ts';

function store() {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-wal-sync-'));
  const s = openStore({ dataDir: dir, key: null });
  after(() => {
    if (s.db.open) s.close();
    rmSync(dir, { recursive: true, force: true });
  });
  s.run('CREATE TABLE t (n INTEGER)');
  return s;
}

describe('WAL sync', () => {
  it('commits without fsync and syncs once for every commit made while one sync ran', async () => {
    const s = store();
    let syncs = 0;
    let release: () => void = () => {};
    const sync = createWalSync(s, {
      sync: () => {
        syncs++;
        return new Promise<void>((r) => (release = r));
      },
      close: async () => {},
    });
    assert.equal(s.db.pragma('synchronous', { simple: true }), 1, 'NORMAL');
    await sync.settled();
    assert.equal(syncs, 0, 'nothing written, nothing to sync');

    s.run('INSERT INTO t VALUES (1)');
    let firstDone = false;
    const first = sync.settled().then(() => (firstDone = true));
    await new Promise((r) => setImmediate(r));
    assert.equal(syncs, 1);
    // Written while that sync runs: it may not cover them, so they wait for the next one, together.
    const more = [2, 3, 4].map((n) => {
      s.run('INSERT INTO t VALUES (?)', n);
      return sync.settled();
    });
    release();
    await first;
    assert.ok(firstDone);
    await new Promise((r) => setImmediate(r));
    assert.equal(syncs, 2, 'one more sync for the three commits');
    let moreDone = false;
    const all = Promise.all(more).then(() => (moreDone = true));
    await new Promise((r) => setImmediate(r));
    assert.equal(moreDone, false, 'not answered before their sync completes');
    release();
    await all;
    await sync.settled();
    assert.equal(syncs, 2);
  });

  it('fsyncs the real WAL, and has nothing to wait for once the store is closed', async () => {
    const s = store();
    const sync = createWalSync(s);
    s.run('INSERT INTO t VALUES (1)');
    await sync.settled();
    s.run('INSERT INTO t VALUES (2)');
    s.close();
    await sync.settled();
    await sync.close();
  });

  it('keeps one handle on the WAL across its syncs and lets it go once the store has closed', async () => {
    const s = store();
    // This process's descriptors open on the store's WAL (Linux: /proc).
    const onWal = () =>
      readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`).startsWith(`${s.file}-wal`);
        } catch {
          return false;
        }
      }).length;
    const opened = onWal();
    const sync = createWalSync(s);
    for (const n of [1, 2, 3]) {
      s.run('INSERT INTO t VALUES (?)', n);
      await sync.settled();
      assert.equal(onWal(), opened + 1, `one handle after sync ${n}`);
    }
    s.close();
    await sync.close();
    assert.equal(onWal(), 0);
  });

  it('answers nothing after a failed sync, as the next one may succeed over pages the kernel dropped', async () => {
    const s = store();
    let fail = true;
    const sync = createWalSync(s, {
      sync: async () => {
        if (fail) throw Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' });
      },
      close: async () => {},
    });
    s.run('INSERT INTO t VALUES (1)');
    await assert.rejects(sync.settled(), /could not be synced to disk \(EIO: i\/o error, fsync\)/);
    // The disk answers again: a later commit must still not be acknowledged over a possible hole.
    fail = false;
    s.run('INSERT INTO t VALUES (2)');
    await assert.rejects(sync.settled(), { code: 'MNEMO_WAL_SYNC_FAILED' });
    const refused = await sync.settled().catch((e: unknown) => e);
    assert.equal((refused as { code?: string }).code, 'MNEMO_WAL_SYNC_FAILED', 'nor a read');
    // What the caller is told: 503, and that a restart recovers the store.
    const told = asStoreError(refused) as MnemoError;
    assert.equal(told.code, 'store_unavailable');
    assert.match(told.message, /until Mnemo is restarted/);
  });
});
