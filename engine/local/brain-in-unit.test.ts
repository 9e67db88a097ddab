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

type Settled<T> = { ok: true; value: T } | { ok: false; code: string };
const settled = <T>(p: Promise<T>): Promise<Settled<T>> =>
  p.then(
    (v) => ({ ok: true, value: v }),
    (e: MnemoError) => ({ ok: false, code: e.code }),
  );
const value = <T>(s: Settled<T>): T => {
  if (!s.ok) assert.fail(`refused: ${s.code}`);
  return s.value;
};

/**
 * An operation resolves its Brain, then waits for the store behind a unit of work; a forgetBrain
 * called after it waits too. Operations run in the order called, so those called first answer as
 * before the forget. A batched append waits for the end of the turn and may land after the forget: it
 * then answers brain_not_found from inside its unit, and nothing of it stays.
 */
describe('a forgetBrain among operations waiting for the store', () => {
  it('runs the operations called before it first, in order; one it overtakes answers brain_not_found', async () => {
    const engine = await engineWithBrain();
    const { record } = await engine.rememberRecord(
      tenant,
      'b',
      { content: { kind: 'message', text: 'hello', speaker: 'Ana' }, source: { name: 'chat' } },
      {},
    );
    await engine.idle();
    // A unit holds the store: every operation called in this turn queues behind it.
    const holding = engine.acceptObject(tenant, 'b', { type: 't', key: 'k', value: {} }, {});
    const got = settled(engine.getRecord(tenant, 'b', record.id));
    const listed = settled(engine.listRecords(tenant, 'b', { limit: 10 }));
    const sources = settled(engine.listSources(tenant, 'b'));
    const forgot = settled(engine.forgetRecord(tenant, 'b', record.id));
    const forgotSource = settled(engine.forgetSource(tenant, 'b', 'chat'));
    const late = settled(
      engine.rememberRecord(tenant, 'b', { content: { kind: 'message', text: 'late', speaker: 'Ana' } }, {}),
    );
    const forgotten = engine.forgetBrain(tenant, 'b');
    await holding;
    assert.equal(value(await got).id, record.id, 'read before the forget');
    assert.equal(value(await listed).data.length, 1);
    assert.equal(value(await sources).data.length, 1);
    assert.equal(value(await forgot).deleted.records, 1, 'the Record was forgotten first');
    assert.deepEqual(await forgotSource, { ok: false, code: 'source_not_found' }, 'its source went with it');
    const append = await late;
    assert.ok(append.ok || append.code === 'brain_not_found', JSON.stringify(append));
    assert.equal((await forgotten).deleted.records, append.ok ? 1 : 0);
    await assert.rejects(engine.listRecords(tenant, 'b', { limit: 10 }), brainGone);
  });
});
