import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startBackgroundCheckpoints } from './background-checkpoints.ts';
import { migrate } from './migrate.ts';
import { cipherOf, keyPragmas, type StoreCipher } from './open-database.ts';
import { newDatabase } from './sqlite-binding.ts';
import { openStore, storeFileName } from './store.ts';

const key = 'store-cipher-test-key';

function tempDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-cipher-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Whether the file's pages open with `cipher` and the key, read by a connection of its own. */
function opensWith(file: string, cipher: StoreCipher): boolean {
  const db = newDatabase(file, { readonly: true, fileMustExist: true });
  try {
    for (const pragma of keyPragmas(key, cipher)) db.pragma(pragma);
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    return true;
  } catch (e) {
    if ((e as { code?: string }).code === 'SQLITE_NOTADB') return false;
    throw e;
  } finally {
    db.close();
  }
}

/** A store as builds before AEGIS made it: ChaCha20 pages, the newest schema. */
function chacha20Store(dataDir: string): void {
  const db = newDatabase(join(dataDir, storeFileName));
  try {
    for (const pragma of keyPragmas(key, 'chacha20')) db.pragma(pragma);
    db.pragma('journal_mode = WAL');
    migrate(db);
  } finally {
    db.close();
  }
}

async function until(what: string, ok: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) assert.fail(`${what} within ${ms} ms`);
    await sleep(20);
  }
}

describe('the page cipher of a store', () => {
  it('makes new stores with AEGIS-256', () => {
    const dataDir = tempDataDir();
    const store = openStore({ dataDir, key });
    store.run('CREATE TABLE notes (t TEXT)');
    store.run("INSERT INTO notes VALUES ('kept')");
    assert.equal(cipherOf(store.db), 'aegis');
    store.close();
    const file = join(dataDir, storeFileName);
    assert.equal(opensWith(file, 'aegis'), true);
    assert.equal(opensWith(file, 'chacha20'), false);
  });

  it('opens a store made with ChaCha20 with it, writes to it, and checkpoints it on its worker', async () => {
    const dataDir = tempDataDir();
    chacha20Store(dataDir);
    const store = openStore({ dataDir, key });
    assert.equal(cipherOf(store.db), 'chacha20');
    const errors: string[] = [];
    const checkpoints = startBackgroundCheckpoints(store, {
      key,
      intervalMs: 10,
      onError: (m) => errors.push(m),
    });
    // Ready: the worker opened the store with its cipher and took over the checkpoints.
    await until(
      'the worker is ready',
      () => store.db.pragma('wal_autocheckpoint', { simple: true }) === 10_000,
    );
    store.run('CREATE TABLE notes (t TEXT)');
    store.run("INSERT INTO notes VALUES ('kept')");
    await until('the WAL is checkpointed', () => {
      const [r] = store.db.pragma('wal_checkpoint(NOOP)') as { log: number; checkpointed: number }[];
      return r!.log === r!.checkpointed;
    });
    assert.deepEqual(errors, []);
    await checkpoints.close();
    store.close();
    const file = join(dataDir, storeFileName);
    assert.equal(opensWith(file, 'chacha20'), true, 'it stays ChaCha20');
    assert.equal(opensWith(file, 'aegis'), false);
    const again = openStore({ dataDir, key });
    assert.deepEqual(again.all('SELECT t FROM notes'), [{ t: 'kept' }]);
    again.close();
  });

  it('refuses a wrong key whichever cipher the store has', () => {
    const legacy = tempDataDir();
    chacha20Store(legacy);
    const fresh = tempDataDir();
    openStore({ dataDir: fresh, key }).close();
    for (const dataDir of [legacy, fresh])
      assert.throws(() => openStore({ dataDir, key: 'not-the-key' }), /the database key is wrong/);
  });
});
