import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startBackgroundCheckpoints } from './background-checkpoints.ts';
import { cipherOf } from './open-database.ts';
import { openStore, storeFileName, type Store } from './store.ts';
import { chacha20StoreIn, until } from './testing.ts';

function storeIn(key: string, opts: { chacha20?: boolean } = {}): { store: Store; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-bg-checkpoint-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  if (opts.chacha20) chacha20StoreIn(dir, key);
  const store = openStore({ dataDir: dir, key });
  store.run('CREATE TABLE notes (t TEXT)');
  return { store, file: join(dir, storeFileName) };
}

const autocheckpoint = (store: Store) => store.db.pragma('wal_autocheckpoint', { simple: true });

/** Frames in the WAL that no checkpoint has copied to the main file yet. */
function framesLeft(store: Store): number {
  const [r] = store.db.pragma('wal_checkpoint(NOOP)') as { log: number; checkpointed: number }[];
  return r!.log - r!.checkpointed;
}

/** A store with its checkpointer started and ready, both closed after the file. */
async function running(key: string, intervalMs: number, opts: { chacha20?: boolean } = {}) {
  const { store, file } = storeIn(key, opts);
  const checkpoints = startBackgroundCheckpoints(store, { key, intervalMs, startAtWalBytes: 0 });
  after(async () => {
    await checkpoints.close();
    store.close();
  });
  await until('the worker is ready', () => autocheckpoint(store) === 10_000);
  return { store, file, checkpoints };
}

describe("the store's WAL checkpointed on another thread", () => {
  it('copies what was written into the main file, the store checkpointing on its own only as a backstop', async () => {
    const { store, file, checkpoints } = await running('k1', 10);
    const before = statSync(file).size;
    for (let i = 0; i < 200; i++) store.run('INSERT INTO notes VALUES (?)', 'x'.repeat(2000));
    await until('the WAL is checkpointed', () => framesLeft(store) === 0);
    assert.ok(statSync(file).size > before + 200 * 2000, 'the rows are in the main file');
    await checkpoints.close();
    store.close();
    assert.equal(existsSync(`${file}-wal`), false, 'the last connection to close removed the WAL');
  });

  it('follows every commit, also those made while a checkpoint was running', async () => {
    const { store } = await running('k2', 5);
    for (let round = 0; round < 20; round++) {
      store.tx(() => {
        for (let i = 0; i < 20; i++) store.run('INSERT INTO notes VALUES (?)', 'y'.repeat(1000));
      });
      await sleep(2);
    }
    await until('every round is checkpointed', () => framesLeft(store) === 0);
  });

  it('opens a store made with ChaCha20 with that cipher, and checkpoints it', async () => {
    const errors: string[] = [];
    const { store } = storeIn('k-legacy', { chacha20: true });
    assert.equal(cipherOf(store.db), 'chacha20');
    const checkpoints = startBackgroundCheckpoints(store, {
      key: 'k-legacy',
      intervalMs: 10,
      startAtWalBytes: 0,
      onError: (m) => errors.push(m),
    });
    after(async () => {
      await checkpoints.close();
      store.close();
    });
    await until('the worker is ready', () => autocheckpoint(store) === 10_000);
    store.run("INSERT INTO notes VALUES ('kept')");
    await until('the WAL is checkpointed', () => framesLeft(store) === 0);
    assert.deepEqual(errors, []);
  });

  it('holds off while a forget empties the WAL itself, which then leaves it empty', async () => {
    const { store, file } = await running('k4', 1);
    for (let round = 0; round < 30; round++) {
      for (let i = 0; i < 20; i++) store.run('INSERT INTO notes VALUES (?)', 'z'.repeat(1000));
      // Long enough for the worker's checkpoint to have begun, often not to have ended.
      await sleep(1 + (round % 3));
      assert.equal(await store.emptyLog(), true, `the WAL was emptied (round ${round})`);
      assert.equal(statSync(`${file}-wal`).size, 0);
    }
  });

  it('has a forget made while the worker opens the store wait for its first read, then empty the WAL', async () => {
    const { store, file } = storeIn('k5');
    const checkpoints = startBackgroundCheckpoints(store, { key: 'k5', intervalMs: 1, startAtWalBytes: 0 });
    after(async () => {
      await checkpoints.close();
      store.close();
    });
    for (let i = 0; i < 20; i++) store.run('INSERT INTO notes VALUES (?)', 'w'.repeat(1000));
    assert.notEqual(autocheckpoint(store), 10_000, 'the worker is still opening the store');
    assert.equal(await store.emptyLog(), true);
    assert.equal(autocheckpoint(store), 10_000, 'the forget waited for the worker to be ready');
    assert.equal(statSync(`${file}-wal`).size, 0);
  });

  it('starts its worker only once the WAL has grown to startAtWalBytes', async () => {
    const { store, file } = storeIn('k6');
    const walBytes = () => statSync(`${file}-wal`).size;
    const startAtWalBytes = walBytes() + 256 * 1024;
    const checkpoints = startBackgroundCheckpoints(store, { key: 'k6', intervalMs: 1, startAtWalBytes });
    after(async () => {
      await checkpoints.close();
      store.close();
    });
    for (let i = 0; i < 10; i++) store.run('INSERT INTO notes VALUES (?)', 'v'.repeat(1000));
    assert.ok(walBytes() < startAtWalBytes);
    // Time enough for a worker to start and take the WAL, had one been started.
    await sleep(300);
    assert.equal(autocheckpoint(store), 1000, 'no worker yet: the store checkpoints on its own');
    assert.notEqual(framesLeft(store), 0, 'nothing took the WAL');
    // A forget meanwhile empties the WAL with no worker to wait for.
    assert.equal(await store.emptyLog(), true);
    assert.equal(walBytes(), 0);

    for (let i = 0; i < 200; i++) store.run('INSERT INTO notes VALUES (?)', 'u'.repeat(4000));
    await until('the worker is ready', () => autocheckpoint(store) === 10_000);
    await until('the WAL is checkpointed', () => framesLeft(store) === 0);
  });

  it('pauses on a full disk and resumes at the next commit, saying each once', async () => {
    const { store, file } = storeIn('k7');
    const said: string[] = [];
    const checkpoints = startBackgroundCheckpoints(store, {
      key: 'k7',
      intervalMs: 1,
      startAtWalBytes: 0,
      onError: (m) => said.push(m),
      onResumed: (m) => said.push(m),
      workerUrl: new URL('./full-disk-checkpoint-worker.mjs', import.meta.url),
    });
    after(async () => {
      await checkpoints.close();
      store.close();
    });
    await until('the worker is ready', () => autocheckpoint(store) === 10_000);
    const diskFull = `${file}-disk-full`;
    writeFileSync(diskFull, '');
    store.run("INSERT INTO notes VALUES ('onto a full disk')");
    await until('the failure is said', () => said.length > 0);
    assert.equal(autocheckpoint(store), 1000, 'the store checkpoints on its own meanwhile');

    // Space is back: the next write commits, and checkpoints follow it on the worker again.
    rmSync(diskFull);
    store.run("INSERT INTO notes VALUES ('room again')");
    assert.equal(autocheckpoint(store), 10_000, 'the worker checkpoints again');
    await until('the WAL is checkpointed', () => framesLeft(store) === 0);
    await until('the resumption is said', () => said.length > 1);
    assert.match(said[0]!, /^background checkpoints are paused: SqliteError: database or disk is full/);
    assert.deepEqual(said.slice(1), ['background checkpoints are on again: the disk takes writes']);
  });

  it('leaves checkpoints to the store again when the worker cannot open it', async () => {
    const { store } = storeIn('right key');
    after(() => store.close());
    store.db.pragma('wal_autocheckpoint = 7');
    const errors: string[] = [];
    const checkpoints = startBackgroundCheckpoints(store, {
      key: 'wrong key',
      startAtWalBytes: 0,
      onError: (m) => errors.push(m),
    });
    await until('the failure is reported', () => errors.length > 0);
    assert.match(errors[0]!, /background checkpoints are off/);
    assert.equal(autocheckpoint(store), 1000);
    await checkpoints.close();
    assert.equal(errors.length, 1, 'reported once, not again when its worker exited');
  });
});
