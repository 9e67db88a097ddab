import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import type { RecordCreate } from '../../engine/contract/index.ts';
import { createLocalEngine, type LocalEngineOptions } from '../../engine/local/index.ts';
import type { Engine, Tenant } from '../../engine/types.ts';
import { testStoreKey } from '../../engine/adapters/sqlite/testing.ts';

export const tenant: Tenant = { project: 'acme', env: 'test' };
export const key = testStoreKey;

/** A temp directory removed when the test file ends. */
export function tempDir(prefix = 'mnemo-local-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export function open(dataDir: string, extra: Partial<LocalEngineOptions> = {}): Promise<Engine> {
  return createLocalEngine({ dataDir, dbKey: key, ...extra });
}

/** Remembers a Record in Brain `b`, waits for derivation and indexing, and reads it back (with its Memories). */
export async function rememberReady(engine: Engine, body: RecordCreate, idempotencyKey?: string) {
  const r = await engine.rememberRecord(tenant, 'b', body, { idempotencyKey });
  await engine.idle();
  return engine.getRecord(tenant, 'b', r.record.id);
}

/** A fresh engine on a fresh data dir with one Brain `b` (self Ana unless told otherwise). */
export async function withBrain(extra: Partial<LocalEngineOptions> = {}, self: boolean = true) {
  const dir = tempDir();
  const engine = await open(dir, extra);
  after(() => engine.close());
  await engine.createBrain(tenant, { id: 'b', ...(self ? { self: { type: 'person', name: 'Ana' } } : {}) });
  const remember = (body: RecordCreate, idempotencyKey?: string) =>
    rememberReady(engine, body, idempotencyKey);
  return { dir, engine, remember };
}

/** Every file under dir whose bytes contain the marker (utf8 or utf16le). */
export function filesContaining(dir: string, marker: string): string[] {
  const hits: string[] = [];
  const needles = [Buffer.from(marker, 'utf8'), Buffer.from(marker, 'utf16le')];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else {
        const bytes = readFileSync(p);
        if (needles.some((n) => bytes.includes(n))) hits.push(p);
      }
    }
  };
  walk(dir);
  return hits;
}
