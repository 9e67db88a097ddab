import assert from 'node:assert/strict';
import { copyFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3-multiple-ciphers';
import { storeFileName } from '../../engine/adapters/sqlite/store.ts';
import { until } from '../../engine/adapters/sqlite/testing.ts';
import type { MnemoError } from '../../engine/errors/mnemo-error.ts';
import { filesContaining, open, tempDir, tenant } from './local-helpers.ts';

/**
 * Every connection's WAL checkpoint fails as SQLite's does on a full disk, until the returned function
 * is called. The forget's own DELETE, a small commit into the WAL, still goes through: what happens when
 * the disk has room for the log's few pages but not for copying them into the main file.
 */
function checkpointsOnAFullDisk(): () => void {
  const proto = Database.prototype as { pragma: (source: string, options?: unknown) => unknown };
  const pragma = proto.pragma;
  proto.pragma = function (this: Database.Database, source: string, options?: unknown) {
    if (/^wal_checkpoint\(TRUNCATE\)/i.test(source))
      throw new Database.SqliteError('database or disk is full', 'SQLITE_FULL');
    return pragma.call(this, source, options);
  };
  return () => {
    proto.pragma = pragma;
  };
}

const said = (text: string) => ({ content: { kind: 'message' as const, text, speaker: 'Ana' } });

describe('local engine: a forget whose checkpoint meets a full disk', () => {
  // Unencrypted, so that the forgotten text can be looked for in the WAL's bytes.
  it('answers its receipt (the deletion committed); the WAL lets go of the bytes once there is room', async () => {
    const dir = tempDir();
    const left = tempDir();
    const warned: string[] = [];
    const told: string[] = [];
    const logger = {
      info: (m: string) => void told.push(m),
      warn: (m: string) => void warned.push(m),
      error: (m: string) => void warned.push(m),
    };
    const engine = await open(dir, { dbKey: null, embedder: null, logger });
    const marker = 'wombat4417fullforget';
    let forgotten = '';
    try {
      await engine.createBrain(tenant, { id: 'b' });
      await engine.createBrain(tenant, { id: 'gone' });
      const secret = await engine.rememberRecord(tenant, 'b', said(`The gate code is ${marker}.`), {});
      forgotten = secret.record.id;
      const kept = await engine.rememberRecord(tenant, 'b', said('I like sailing.'), {});
      await engine.rememberRecord(
        tenant,
        'b',
        { ...said('An imported note.'), source: { name: 'notes' } },
        {},
      );
      await engine.idle();
      const wal = join(dir, `${storeFileName}-wal`);

      const room = checkpointsOnAFullDisk();
      try {
        const receipt = await engine.forgetRecord(tenant, 'b', secret.record.id);
        assert.equal(receipt.deleted.records, 1);
        assert.deepEqual(receipt.target, { type: 'record', id: secret.record.id });
        // The same for the other forgets, which end with the same checkpoint.
        assert.equal((await engine.forgetSource(tenant, 'b', 'notes')).deleted.records, 1);
        assert.equal((await engine.forgetBrain(tenant, 'gone')).target.id, 'gone');
        // Forgotten all the same: gone from every read, and a retry is told so, as the spec says.
        await assert.rejects(
          engine.getRecord(tenant, 'b', secret.record.id),
          (e: MnemoError) => e.code === 'record_not_found',
        );
        await assert.rejects(
          engine.forgetRecord(tenant, 'b', secret.record.id),
          (e: MnemoError) => e.code === 'record_not_found',
        );
        assert.equal((await engine.getRecord(tenant, 'b', kept.record.id)).id, kept.record.id);
        // What the log still holds is said in the server's log, not hidden.
        assert.ok(
          warned.some((m) =>
            /write-ahead log \(SQLITE_FULL: database or disk is full\): what was forgotten stays in/.test(m),
          ),
          warned.join('\n'),
        );
        assert.deepEqual(filesContaining(dir, marker), [wal], 'the log could not be emptied yet');
        // What a process stopped now (killed, or closed while the disk is still full) leaves behind.
        for (const f of [storeFileName, `${storeFileName}-wal`]) copyFileSync(join(dir, f), join(left, f));
      } finally {
        room();
      }
      // Room again: the checkpoint tried again each second empties the log, with no further forget.
      await until('the WAL is emptied', () => statSync(wal).size === 0);
      assert.deepEqual(filesContaining(dir, marker), []);
      assert.ok(
        told.some((m) => /write-ahead log is emptied/.test(m)),
        told.join('\n'),
      );
    } finally {
      await engine.close();
    }
    // Started again on what the stopped process left: the log is emptied as the store opens.
    const again = await open(left, { dbKey: null, embedder: null });
    try {
      assert.deepEqual(filesContaining(left, marker), []);
      await assert.rejects(
        again.getRecord(tenant, 'b', forgotten),
        (e: MnemoError) => e.code === 'record_not_found',
      );
    } finally {
      await again.close();
    }
  });
});
