import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { MnemoError } from '../errors/mnemo-error.ts';
import type { Engine, Tenant } from '../types.ts';
import { createLocalEngine } from './index.ts';

const tenant: Tenant = { project: 'acme', env: 'test' };

async function engineWithBrain(): Promise<Engine> {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-brain-in-unit-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const engine = await createLocalEngine({ dataDir: dir, dbKey: 'brain-in-unit-key', embedder: null });
  after(() => engine.close());
  await engine.createBrain(tenant, { id: 'b' });
  return engine;
}

const brainGone = (e: MnemoError) => e.code === 'brain_not_found';

/**
 * An operation resolves its Brain, then waits for the store; a forgetBrain that was queued first runs
 * in between. The Brain is checked again inside the operation's unit of work, so the answer is
 * brain_not_found, not a missing Record or a failed write.
 */
describe('a forgetBrain between an operation and its unit of work', () => {
  it('answers brain_not_found to the record and source operations it overtook, an append included', async () => {
    const engine = await engineWithBrain();
    const { record } = await engine.rememberRecord(
      tenant,
      'b',
      { content: { kind: 'message', text: 'hello', speaker: 'Ana' }, source: { name: 'chat' } },
      {},
    );
    await engine.idle();
    // A unit holds the store: every operation called in this turn queues behind it, in order.
    const holding = engine.acceptObject(tenant, 'b', { type: 't', key: 'k', value: {} }, {});
    const overtaken = Promise.allSettled([
      engine.getRecord(tenant, 'b', record.id),
      engine.listRecords(tenant, 'b', { limit: 10 }),
      engine.listSources(tenant, 'b'),
      engine.forgetRecord(tenant, 'b', record.id),
      engine.forgetSource(tenant, 'b', 'chat'),
      engine.rememberRecord(tenant, 'b', { content: { kind: 'message', text: 'late', speaker: 'Ana' } }, {}),
    ]);
    const forgotten = engine.forgetBrain(tenant, 'b');
    await holding;
    for (const o of await overtaken)
      assert.ok(o.status === 'rejected' && brainGone(o.reason as MnemoError), JSON.stringify(o));
    assert.equal((await forgotten).deleted.records, 1);
  });
});
