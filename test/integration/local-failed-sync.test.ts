import assert from 'node:assert/strict';
import { mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { MnemoError } from '../../engine/errors/mnemo-error.ts';
import { open, tempDir, tenant } from './local-helpers.ts';

describe('local engine: a failed sync of its log', () => {
  it('is store_unavailable for every request and for ping (health), until a restart', async () => {
    const dir = tempDir();
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
});
