import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PgClient } from '../../engine/adapters/postgres/client.ts';
import { postgresStorageOver } from '../../engine/adapters/postgres/storage.ts';
import { pgliteDatabases } from '../../engine/adapters/postgres/testing/pglite.ts';
import type { RecordCreate } from '../../engine/contract/index.ts';
import type { MnemoError } from '../../engine/errors/mnemo-error.ts';
import { openPostgresEngine, type Engine } from '../../engine/index.ts';
import { open, tempDir, tenant } from './local-helpers.ts';

const message = (text: string): RecordCreate => ({ content: { kind: 'message', text, speaker: 'Ana' } });

// Called at the file's top level: its databases close after the file.
const database = await pgliteDatabases({ migrated: true });

/**
 * Writes arriving in one turn of the event loop share one transaction (SQLite's group commit, a
 * PostgreSQL batch), and each keeps its own outcome.
 */
async function eachWriteItsOwn(engine: Engine): Promise<void> {
  await engine.createBrain(tenant, { id: 'b', self: { type: 'person', name: 'Ana' } });
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
  const records = await engine.listRecords(tenant, 'b', { limit: 10 });
  assert.deepEqual(
    records.data.map((r) => r.id),
    [other.value.record.id, first.value.record.id],
  );
  // The survivors took consecutive steps: after the first write's watermark comes the other alone.
  const delta = await engine.listRecords(tenant, 'b', { limit: 10, since_watermark: first.value.watermark });
  assert.deepEqual(
    delta.data.map((r) => r.id),
    [other.value.record.id],
  );
}

describe('local engine: Records written together share a commit', () => {
  it('keeps each write its own: idempotent replays, conflicts and a missing Brain within one group', async () => {
    const engine = await open(tempDir());
    try {
      await eachWriteItsOwn(engine);
    } finally {
      await engine.close();
    }
  });

  it('close() commits writes still waiting for their group, and answers them', async () => {
    const dir = tempDir();
    let engine = await open(dir);
    await engine.createBrain(tenant, { id: 'b' });
    const writes = [1, 2, 3].map((i) => engine.rememberRecord(tenant, 'b', message(`Note ${i}.`), {}));
    await engine.close();
    const written = await Promise.all(writes);
    engine = await open(dir);
    try {
      for (const w of written)
        assert.equal((await engine.getRecord(tenant, 'b', w.record.id)).id, w.record.id);
    } finally {
      await engine.close();
    }
  });
});

/** `db` as a pool that refuses work once closed, as pg's does after end(); the database stays open. */
function endable(db: PgClient): PgClient {
  let ended = false;
  const open = () => {
    if (ended) throw new Error('Cannot use a pool after calling end on the pool');
  };
  return {
    query: async (sql, params) => (open(), db.query(sql, params)),
    exec: async (sql) => (open(), db.exec(sql)),
    transaction: async (work, options) => (open(), db.transaction(work, options)),
    ping: async (ms) => (open(), db.ping(ms)),
    close: async () => void (ended = true),
  };
}

describe('postgres engine: Records written together share a transaction', () => {
  it('keeps each write its own: idempotent replays, conflicts and a missing Brain within one batch', async () => {
    const { engine } = await openPostgresEngine({ open: async () => postgresStorageOver(await database()) });
    try {
      await eachWriteItsOwn(engine);
    } finally {
      await engine.close();
    }
  });

  it('close() lets writes already accepted end, and answers them, before the pool closes', async () => {
    const db = await database();
    const { engine } = await openPostgresEngine({ open: async () => postgresStorageOver(endable(db)) });
    await engine.createBrain(tenant, { id: 'b' });
    const writes = [1, 2, 3].map((i) => engine.rememberRecord(tenant, 'b', message(`Note ${i}.`), {}));
    await engine.close();
    const written = await Promise.all(writes);
    const kept = await db.query<{ id: string }>('SELECT id FROM records ORDER BY id');
    assert.deepEqual(
      kept.rows.map((r) => r.id),
      written.map((w) => w.record.id).sort(),
    );
  });
});
