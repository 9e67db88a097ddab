import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createReferenceEngine } from '../../engine/reference/index.ts';
import { tenant, withBrain } from './local-helpers.ts';

const at = '2024-01-01T00:00:00Z';
const fact = (predicate: string, value: string, source: string) => ({
  content: { kind: 'fact' as const, subject: 'user', predicate, value },
  source: { name: source },
  occurred_at: at,
});

describe('listMemories contested=true: the conflicts, as the census counts them', () => {
  it('lists the current values that share a slot, not the rest; a settled slot leaves it', async () => {
    const { engine, remember } = await withBrain();
    const porto = await remember(fact('home_city', 'Porto', 'phone'));
    await remember(fact('home_city', 'Lisbon', 'laptop'));
    await remember(fact('favourite_colour', 'green', 'phone'));
    await remember(fact('favourite_colour', 'blue', 'phone'));
    await remember({ content: { kind: 'message', speaker: 'Ana', text: 'I like tea.' } });

    const contested = await engine.listMemories(tenant, 'b', { contested: 'true', limit: 50 });
    assert.deepEqual(contested.data.map((m) => m.statement).sort(), [
      'user home city: Lisbon',
      'user home city: Porto',
    ]);
    const census = await engine.getCensus(tenant, 'b');
    const counted = census.noise.find((n) => n.kind === 'conflicts');
    assert.equal(counted?.count, contested.data.length, 'the same conflicts the census counts');
    assert.equal((await engine.listMemories(tenant, 'b', { contested: 'false', limit: 50 })).data.length, 4);

    // Withdrawing one value settles the slot: nothing is contested any more.
    await remember({ content: { kind: 'correction', corrects: porto.memory_ids[0]! } });
    assert.deepEqual((await engine.listMemories(tenant, 'b', { contested: 'true', limit: 50 })).data, []);
  });

  it('the reference engine has no slots, so nothing is contested there', async () => {
    const engine = createReferenceEngine();
    await engine.createBrain(tenant, { id: 'b' });
    await engine.rememberRecord(tenant, 'b', fact('home_city', 'Porto', 'phone'), {});
    await engine.rememberRecord(tenant, 'b', fact('home_city', 'Lisbon', 'laptop'), {});
    assert.deepEqual((await engine.listMemories(tenant, 'b', { contested: 'true', limit: 50 })).data, []);
  });
});
