import assert from 'node:assert/strict';
import Database from 'better-sqlite3-multiple-ciphers';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { unlockDatabase } from './open-database.ts';
import { openStore, storeFileName, type Store } from './store.ts';
import { until } from './testing.ts';

const walSize = (file: string) => statSync(`${file}-wal`).size;

/** A store with a notes table in a temp dir of its own (removed after the test), and its file. */
function notesStore(): { store: Store; dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-checkpoint-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const store = openStore({ dataDir: dir, key: 'k' });
  store.run('CREATE TABLE notes (t TEXT)');
  return { store, dir, file: join(dir, storeFileName) };
}

/** Makes the store's checkpoints fail as they do on a full disk while `full()`, asked at each one, says so. */
function checkpointsOnAFullDisk(store: Store, full: () => boolean = () => true): void {
  const pragma = store.db.pragma.bind(store.db);
  store.db.pragma = ((source: string, options?: Database.PragmaOptions) => {
    if (source.startsWith('wal_checkpoint') && full()) {
      throw new Database.SqliteError('database or disk is full', 'SQLITE_FULL');
    }
    return pragma(source, options);
  }) as typeof store.db.pragma;
}

describe('store checkpoint', () => {
  it('a reader holding the log (a backup running) is not waited for: the log is emptied once it is done', async () => {
    const { store, file } = notesStore();
    after(() => store.close());
    store.run("INSERT INTO notes VALUES ('before the reader')");
    // What `mnemo backup` is: another connection's read transaction on the WAL.
    const reader = new Database(file, { readonly: true });
    unlockDatabase(reader, file, 'k');
    reader.exec('BEGIN');
    reader.prepare('SELECT count(*) FROM notes').get();
    store.run("INSERT INTO notes VALUES ('after it')");

    const started = Date.now();
    assert.equal(store.checkpoint(), false, 'the log could not be emptied while the reader uses it');
    // The busy timeout (5 s) would have held the event loop, and every request with it.
    assert.ok(Date.now() - started < 2500, `returned after ${Date.now() - started} ms`);
    assert.ok(walSize(file) > 0);

    reader.exec('COMMIT');
    reader.close();
    const deadline = Date.now() + 10_000;
    while (walSize(file) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    assert.equal(walSize(file), 0, 'tried again and emptied once the reader was gone');
    assert.equal(store.checkpoint(), true);
  });

  it('a full disk when it tries again does not end the process: it tries again after that too', async () => {
    const { store, file } = notesStore();
    after(() => store.close());
    const reader = new Database(file, { readonly: true });
    unlockDatabase(reader, file, 'k');
    reader.exec('BEGIN');
    reader.prepare('SELECT count(*) FROM notes').get();
    store.run("INSERT INTO notes VALUES ('forgotten later')");
    assert.equal(store.checkpoint(), false, 'tried again in a second');

    // The disk fills meanwhile: the next try fails as SQLite does on a full disk.
    let full = true;
    let refused = 0;
    checkpointsOnAFullDisk(store, () => {
      if (full) refused += 1;
      return full;
    });
    reader.exec('COMMIT');
    reader.close();
    await until('tried again after the full disk too', () => refused >= 2);
    full = false;
    await until('emptied once there is room', () => walSize(file) === 0);
  });

  it("a forget's checkpoint on a full disk does not throw (the forget has committed): it is tried again", async () => {
    const { store, file } = notesStore();
    after(() => store.close());
    store.run("INSERT INTO notes VALUES ('forgotten now')");
    let full = true;
    checkpointsOnAFullDisk(store, () => full);
    assert.equal(await store.emptyLog(), false, 'not emptied, and not thrown');
    assert.ok(walSize(file) > 0);
    full = false;
    const deadline = Date.now() + 10_000;
    while (walSize(file) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.equal(walSize(file), 0, 'emptied once there is room');
  });

  it('a close on a full disk closes the store all the same, and its commits are read back from the log', () => {
    const { store, dir } = notesStore();
    store.run("INSERT INTO notes VALUES ('kept in the log')");
    checkpointsOnAFullDisk(store);
    store.close();
    assert.equal(store.db.open, false);
    const again = openStore({ dataDir: dir, key: 'k' });
    try {
      assert.deepEqual(again.all('SELECT t FROM notes'), [{ t: 'kept in the log' }]);
    } finally {
      again.close();
    }
  });
});
