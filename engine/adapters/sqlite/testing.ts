import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { openStore, type SqlParam, type Store } from './store.ts';

/** For tests: an unencrypted store in a temp dir, closed and removed after the test file. */
export function tempStore(prefix = 'mnemo-store-'): Store {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const store = openStore({ dataDir: dir, key: null });
  after(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return store;
}

/** SQLite's plan for a query, one step per line (EXPLAIN QUERY PLAN's details). */
export function queryPlan(store: Store, sql: string, ...params: SqlParam[]): string {
  return store
    .all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, ...params)
    .map((r) => r.detail)
    .join('\n');
}
