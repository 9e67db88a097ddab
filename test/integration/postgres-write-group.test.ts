import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { postgresStorageOver } from '../../engine/adapters/postgres/storage.ts';
import { pgliteDatabases } from '../../engine/adapters/postgres/testing/pglite.ts';
import type { RecordCreate } from '../../engine/contract/index.ts';
import type { MnemoError } from '../../engine/errors/mnemo-error.ts';
import { openPostgresEngine } from '../../engine/index.ts';
import { tenant } from './local-helpers.ts';

// Called at the file's top level: its databases close after the file.
const database = await pgliteDatabases({ migrated: true });

const message = (text: string): RecordCreate => ({ content: { kind: 'message', text, speaker: 'Ana' } });

describe('postgres engine: Records written together share a transaction', () => {
  it('keeps each write its own: idempotent replays, conflicts and a missing Brain within one batch', async () => {
    const { engine } = await openPostgresEngine({ open: async () => postgresStorageOver(await database()) });
    try {
      await engine.createBrain(tenant, { id: 'b', self: { type: 'person', name: 'Ana' } });
      // All in one turn of the event loop: one batch, one transaction.
      const [first, replay, conflict, missing, other] = await Promise.allSettled([
        engine.rememberRecord(tenant, 'b', message('I moved to Porto in May.'), { idempotencyKey: 'k' }),
        engine.rememberRecord(tenant, 'b', message('I moved to Porto in May.'), { idempotencyKey: 'k' }),
        engine.rememberRecord(tenant, 'b', message('I moved to Braga.'), { idempotencyKey: 'k' }),
        engine.rememberRecord(tenant, 'nope', message('Lost?'), {}),
        engine.rememberRecord(tenant, 'b', message('My sister is Rita.'), {}),
      ]);
      assert.equal(first.status, 'fulfilled');
      assert.equal(replay.status, 'fulfilled');
      assert.equal(replay.value.replayed, true);
      assert.equal(replay.value.record.id, first.value.record.id);
      assert.equal(conflict.status, 'rejected');
      assert.equal((conflict.reason as MnemoError).code, 'idempotency_conflict');
      assert.equal(missing.status, 'rejected');
      assert.equal((missing.reason as MnemoError).code, 'brain_not_found');
      assert.equal(other.status, 'fulfilled');
      // The survivors took consecutive steps: the second write's watermark is the first's next step.
      const records = await engine.listRecords(tenant, 'b', { limit: 10 });
      assert.deepEqual(
        records.data.map((r) => r.id),
        [other.value.record.id, first.value.record.id],
      );
      const delta = await engine.listRecords(tenant, 'b', {
        limit: 10,
        since_watermark: first.value.watermark,
      });
      assert.deepEqual(
        delta.data.map((r) => r.id),
        [other.value.record.id],
      );
    } finally {
      await engine.close();
    }
  });
});
