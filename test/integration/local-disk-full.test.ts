import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3-multiple-ciphers';
import { MnemoError } from '../../engine/errors/mnemo-error.ts';
import { open, tempDir, tenant } from './local-helpers.ts';

/** Every statement run fails as SQLite fails on a full disk, until the returned function is called. */
function fillTheDisk(): () => void {
  const scratch = new Database(':memory:');
  const statement = Object.getPrototypeOf(scratch.prepare('SELECT 1')) as {
    run: (...a: unknown[]) => unknown;
  };
  scratch.close();
  const run = statement.run;
  statement.run = function () {
    throw new Database.SqliteError('database or disk is full', 'SQLITE_FULL');
  };
  return () => {
    statement.run = run;
  };
}

describe('local engine: a full disk', () => {
  it('is store_unavailable (503) saying the disk is full, and writes go on once there is room', async () => {
    const engine = await open(tempDir());
    try {
      await engine.createBrain(tenant, { id: 'b' });
      const note = { content: { kind: 'message' as const, text: 'a note', speaker: 'Ana' } };
      const room = fillTheDisk();
      let failure: unknown;
      try {
        await engine.rememberRecord(tenant, 'b', note, {});
      } catch (e) {
        failure = e;
      } finally {
        room();
      }
      assert.ok(failure instanceof MnemoError, `not an unhandled failure: ${String(failure)}`);
      assert.equal(failure.code, 'store_unavailable');
      assert.equal(failure.status, 503);
      assert.match(failure.message, /disk holding this Mnemo store is full/);
      const kept = await engine.rememberRecord(tenant, 'b', note, {});
      assert.equal((await engine.getRecord(tenant, 'b', kept.record.id)).id, kept.record.id);
    } finally {
      await engine.close();
    }
  });
});
