import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { cipherOf, keyPragmas, type StoreCipher } from './open-database.ts';
import { newStoreKey } from './resolve-db-key.ts';
import { newDatabase } from './sqlite-binding.ts';
import { openStore, storeFileName } from './store.ts';
import { chacha20StoreIn } from './testing.ts';

const key = 'store-cipher-test-key';

function tempDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-cipher-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Whether the file's pages open with `cipher` and the key, read by a connection of its own. */
function opensWith(file: string, cipher: StoreCipher, withKey: string = key): boolean {
  const db = newDatabase(file, { readonly: true, fileMustExist: true });
  try {
    for (const pragma of keyPragmas(withKey, cipher)) db.pragma(pragma);
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    return true;
  } catch (e) {
    if ((e as { code?: string }).code === 'SQLITE_NOTADB') return false;
    throw e;
  } finally {
    db.close();
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

  it('opens a store made with ChaCha20 with it, writes to it, and keeps it ChaCha20', () => {
    const dataDir = tempDataDir();
    chacha20StoreIn(dataDir, key);
    const store = openStore({ dataDir, key });
    assert.equal(cipherOf(store.db), 'chacha20');
    store.run('CREATE TABLE notes (t TEXT)');
    store.run("INSERT INTO notes VALUES ('kept')");
    store.close();
    const file = join(dataDir, storeFileName);
    assert.equal(opensWith(file, 'chacha20'), true, 'it stays ChaCha20');
    assert.equal(opensWith(file, 'aegis'), false);
    const again = openStore({ dataDir, key });
    assert.deepEqual(again.all('SELECT t FROM notes'), [{ t: 'kept' }]);
    again.close();
  });

  it('takes a generated key as the key itself, with no derivation, and a passphrase through Argon2id', () => {
    const generated = newStoreKey();
    assert.match(generated, /^raw:[0-9a-f]{64}$/);
    const bytes = generated.slice('raw:'.length);
    const dataDir = tempDataDir();
    const store = openStore({ dataDir, key: generated });
    store.run('CREATE TABLE notes (t TEXT)');
    store.close();
    const file = join(dataDir, storeFileName);
    // SQLCipher's syntax for a key given as it is: it opens only a store keyed by those very bytes.
    assert.equal(opensWith(file, 'aegis', `x'${bytes}'`), true);
    assert.equal(opensWith(file, 'aegis', generated), true);
    assert.equal(opensWith(file, 'aegis', bytes), false, 'the hex as a passphrase is another key');
    const again = openStore({ dataDir, key: generated });
    assert.deepEqual(again.all("SELECT name FROM sqlite_master WHERE name = 'notes'"), [{ name: 'notes' }]);
    again.close();

    const byPassphrase = tempDataDir();
    openStore({ dataDir: byPassphrase, key: bytes }).close();
    const passphraseFile = join(byPassphrase, storeFileName);
    assert.equal(opensWith(passphraseFile, 'aegis', bytes), true);
    assert.equal(opensWith(passphraseFile, 'aegis', `x'${bytes}'`), false, 'derived, not taken as it is');
  });

  it('refuses a wrong key whichever cipher the store has', () => {
    const legacy = tempDataDir();
    chacha20StoreIn(legacy, key);
    const fresh = tempDataDir();
    openStore({ dataDir: fresh, key }).close();
    for (const dataDir of [legacy, fresh])
      assert.throws(() => openStore({ dataDir, key: 'not-the-key' }), /the database key is wrong/);
  });
});
