import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3-multiple-ciphers';
import { createLocalEngine } from '../../local/index.ts';
import { openStore } from './store.ts';

const memoryTempStore = 2;
const tenant = { project: 'acme', env: 'test' } as const;

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-temp-store-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * Catches every connection that runs a statement from now until `stop()`. The engine keeps its
 * connections private (the store, the data dir's lock, the lexical index's scratch table), so they are
 * caught where every statement passes: better-sqlite3's prototype.
 */
function watchConnections(): { seen: Set<Database.Database>; stop(): void } {
  const seen = new Set<Database.Database>();
  type Method = (this: Database.Database, ...args: unknown[]) => unknown;
  const proto = Database.prototype as unknown as Record<'prepare' | 'exec' | 'pragma', Method>;
  const originals = { prepare: proto.prepare, exec: proto.exec, pragma: proto.pragma };
  for (const name of ['prepare', 'exec', 'pragma'] as const) {
    proto[name] = function (this: Database.Database, ...args: unknown[]) {
      seen.add(this);
      return originals[name].apply(this, args);
    };
  }
  const stop = () => Object.assign(proto, originals);
  after(stop);
  return { seen, stop };
}

/** The SQLite temporary files this process has open now (unlinked at creation, so only /proc shows them). */
function openSqliteTempFiles(): string[] {
  return readdirSync('/proc/self/fd')
    .map((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        return '';
      }
    })
    .filter((target) => target.includes('etilqs_'));
}

describe('SQLite temporary data stays in memory', () => {
  it('every connection the local engine opens reports temp_store = MEMORY', async () => {
    const watch = watchConnections();
    const engine = await createLocalEngine({
      dataDir: tempDir(),
      dbKey: 'k',
      embedder: null,
      timeZone: 'UTC',
    });
    after(() => engine.close());
    await engine.createBrain(tenant, { id: 'b' });
    await engine.rememberRecord(tenant, 'b', { content: 'I moved to Lisbon in May.' }, {});
    await engine.idle();
    await engine.createContext(tenant, 'b', { query: 'where do I live?' }, { requestId: 'req_1' });
    watch.stop();
    const open = [...watch.seen].filter((db) => db.open);
    const names = open.map((db) => basename(db.name)).sort();
    for (const expected of [':memory:', 'mnemo.db', 'mnemo.lock']) {
      assert.ok(names.includes(expected), `the ${expected} connection was reached (${names.join(', ')})`);
    }
    for (const db of open) {
      assert.equal(db.pragma('temp_store', { simple: true }), memoryTempStore, `temp_store of ${db.name}`);
    }
  });

  it(
    'a sort over Record text larger than the page cache writes no temporary file',
    { skip: process.platform !== 'linux' && 'reads open files from /proc' },
    () => {
      const store = openStore({ dataDir: tempDir(), key: 'k' });
      after(() => store.close());
      store.run('CREATE TABLE spill (text TEXT)');
      const insert = store.db.prepare('INSERT INTO spill (text) VALUES (?)');
      store.tx(() => {
        for (let i = 0; i < 4_000; i++) insert.run(`secret ${i} ${randomBytes(600).toString('hex')}`);
      });
      // 1 MiB of cache for ~5 MiB to sort: SQLite's sorter spills past it, to a file unless told not to.
      store.db.pragma('cache_size = -1024');
      const rows = store.db.prepare('SELECT text FROM spill ORDER BY substr(text, 10)').iterate();
      try {
        assert.ok(!rows.next().done);
        assert.deepEqual(openSqliteTempFiles(), []);
      } finally {
        rows.return?.();
      }
    },
  );
});
