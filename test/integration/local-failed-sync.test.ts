import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { MnemoError } from '../../engine/errors/mnemo-error.ts';
import { open, tempDir, tenant } from './local-helpers.ts';
import { serveLocal } from './serve-local.ts';

describe('local engine: a failed sync of its log', () => {
  it('is store_unavailable for every request and for ping (health), until a restart', async () => {
    const dir = tempDir();
    // Opened before: a new store's first start writes (the rules' name, for their upgrade pass), and
    // a start that wrote may sync before the test's first write. This start writes nothing.
    await (await open(dir)).close();
    const engine = await open(dir);
    // SQLite keeps writing the log through the descriptor it has; the engine's own sync opens the
    // log by its name at the first write, and finds a directory there: the sync fails.
    const wal = join(dir, 'mnemo.db-wal');
    renameSync(wal, `${wal}.aside`);
    mkdirSync(wal);
    try {
      await assert.rejects(engine.createBrain(tenant, { id: 'b' }), (e: unknown) => {
        assert.ok(e instanceof MnemoError, String(e));
        assert.equal(e.code, 'store_unavailable');
        return true;
      });
      await assert.rejects(engine.ping(), (e: unknown) => {
        assert.ok(e instanceof MnemoError, `health must not say 200: ${String(e)}`);
        assert.equal(e.code, 'store_unavailable');
        assert.match(e.message, /until Mnemo is restarted/);
        return true;
      });
    } finally {
      await engine.close().catch(() => {});
    }
  });

  it('tells a write over HTTP it may have been kept, and a read nothing of resending', async () => {
    const root = mkdtempSync(join(tmpdir(), 'mnemo-failed-sync-'));
    after(() => rmSync(root, { recursive: true, force: true }));
    const dataDir = join(root, 'data');
    // Served once before, as above: this start writes nothing, so nothing syncs before the first write.
    await (await serveLocal(root, { dataDir })).server.close();
    const { server, auth } = await serveLocal(root, { dataDir });
    try {
      const post = (path: string, body: unknown) =>
        fetch(`${server.url}${path}`, { method: 'POST', headers: auth, body: JSON.stringify(body) });
      // Before the first write, as above: the engine's own sync opens the log by its name then.
      const wal = join(dataDir, 'mnemo.db-wal');
      renameSync(wal, `${wal}.aside`);
      mkdirSync(wal);
      const written = await post('/brains', { id: 'b' });
      const wrote = (await written.json()) as Record<string, string>;
      assert.deepEqual([written.status, wrote.code], [503, 'store_unavailable']);
      assert.match(wrote.message!, /resend rememberRecord with the same Idempotency-Key/);
      for (const path of ['/brains', '/brains/b/memories']) {
        const read = await fetch(`${server.url}${path}`, { headers: auth });
        const body = (await read.json()) as Record<string, string>;
        assert.deepEqual([read.status, body.code], [503, 'store_unavailable'], path);
        assert.match(body.message!, /until Mnemo is restarted/, path);
        assert.doesNotMatch(body.message!, /Idempotency-Key|rememberRecord/, path);
      }
    } finally {
      await server.close().catch(() => {});
    }
  });
});
