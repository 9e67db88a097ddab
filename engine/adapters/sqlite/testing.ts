import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { after } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { sqliteBrains } from './brain-repository.ts';
import { migrate } from './migrate.ts';
import { keyPragmas } from './open-database.ts';
import { newDatabase } from './sqlite-binding.ts';
import { openStore, storeFileName, type SqlParam, type Store } from './store.ts';

/**
 * For tests: a store key shaped as the ones Mnemo generates (newStoreKey), taken as the key itself
 * with no Argon2id; fixed, as a crashed child's or a stopped server's store is opened again.
 */
export const testStoreKey = `raw:${'5e'.repeat(32)}`;

/** For tests: an unencrypted store in a temp dir, closed and removed after the test file. */
export function tempStore(prefix = 'mnemo-store-', opts: { maxBatch?: number } = {}): Store {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const store = openStore({ dataDir: dir, key: null, ...opts });
  after(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return store;
}

/** For tests: Brain `brn_a` (id `a`) with bare fact Records n = 1..count, each at `at`. */
export function brainWithRecords(store: Store, count: number, at: string): void {
  store.run(
    "INSERT INTO brains (uid, project, env, id, created_at) VALUES ('brn_a', 'p', 'test', 'a', ?)",
    at,
  );
  for (let n = 1; n <= count; n++)
    store.run(
      `INSERT INTO records (n, id, brain_uid, seq, kind, content, text, trust, visibility, occurred_at, occurred_ms, created_at)
       VALUES (?, ?, 'brn_a', ?, 'fact', '{}', 'x', 'high', 'shareable', ?, 0, ?)`,
      n,
      `rec_${n}`,
      n,
      at,
      at,
    );
}

/** SQLite's plan for a query, one step per line (EXPLAIN QUERY PLAN's details). */
export function queryPlan(store: Store, sql: string, ...params: SqlParam[]): string {
  return store
    .all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, ...params)
    .map((r) => r.detail)
    .join('\n');
}

/** For tests: a temp store holding these Brains (of project p, env test; each Brain's id is its uid). */
export async function storeWithBrains(...uids: string[]): Promise<Store> {
  const store = tempStore();
  for (const uid of uids)
    await sqliteBrains(store).create({
      uid,
      project: 'p',
      env: 'test',
      id: uid,
      name: null,
      self_type: null,
      self_name: null,
      created_at: '2026-01-01T00:00:00Z',
    });
  return store;
}

/** For tests: a store in dataDir as builds before AEGIS made it, ChaCha20 pages at the newest schema. */
export function chacha20StoreIn(dataDir: string, key: string): void {
  const db = newDatabase(join(dataDir, storeFileName));
  try {
    for (const pragma of keyPragmas(key, 'chacha20')) db.pragma(pragma);
    db.pragma('journal_mode = WAL');
    migrate(db);
  } finally {
    db.close();
  }
}

/** Waits for `ok` (a background checkpoint, a retry on a timer), failing the test after `ms`. */
export async function until(what: string, ok: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) assert.fail(`${what} within ${ms} ms`);
    await sleep(20);
  }
}
