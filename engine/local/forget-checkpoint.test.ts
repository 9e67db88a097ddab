import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { storeFileName } from '../adapters/sqlite/store.ts';
import type { Tenant } from '../types.ts';
import { createLocalEngine } from './index.ts';

const tenant: Tenant = { project: 'acme', env: 'test' };

/**
 * A forget checkpoints the WAL once its unit of work has committed, so the forgotten bytes leave the
 * log. Reads queued right behind the forget open their own units (a transaction on the store's one
 * connection) before that checkpoint; it must wait for them, not fail the forget that already erased.
 */
describe('a forget with reads queued right behind it', () => {
  it('answers, and the WAL is emptied of what it erased', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mnemo-forget-checkpoint-'));
    after(() => rmSync(dir, { recursive: true, force: true }));
    const engine = await createLocalEngine({ dataDir: dir, dbKey: 'forget-checkpoint-key', embedder: null });
    after(() => engine.close());
    await engine.createBrain(tenant, { id: 'b' });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const body = { content: { kind: 'message' as const, text: `note ${i}`, speaker: 'Ana' } };
      ids.push((await engine.rememberRecord(tenant, 'b', body, {})).record.id);
    }
    const kept = ids.pop()!;
    await engine.idle();
    const wal = () => statSync(join(dir, `${storeFileName}-wal`)).size;
    for (const [i, id] of ids.entries()) {
      // A unit holds the store, so the forget and the reads called in this turn queue behind it in order.
      const holding = engine.acceptObject(tenant, 'b', { type: 't', key: `k${i}`, value: {} }, {});
      const forget = engine.forgetRecord(tenant, 'b', id);
      const reads = [engine.listRecords(tenant, 'b', { limit: 10 }), engine.getRecord(tenant, 'b', kept)];
      await holding;
      const receipt = await forget;
      assert.equal(receipt.deleted.records, 1);
      await Promise.all(reads);
      assert.equal(wal(), 0, 'the WAL still holds pages after the forget answered');
    }
    const left = await engine.listRecords(tenant, 'b', { limit: 10 });
    assert.deepEqual(
      left.data.map((r) => r.id),
      [kept],
    );
  });
});
