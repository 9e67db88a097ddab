import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { openStore } from './store.ts';
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
    const sync = createWalSync(s, () => {
      syncs++;
      return new Promise<void>((r) => (release = r));
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
  });
});
