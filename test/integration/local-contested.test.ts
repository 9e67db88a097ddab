import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createReferenceEngine } from '../../engine/reference/index.ts';
import { tenant, withBrain } from './local-helpers.ts';

const at = '2024-01-01T00:00:00Z';
const fact = (predicate: string, value: string, source: string, subject = 'user') => ({
  content: { kind: 'fact' as const, subject, predicate, value },
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

  it("a person's correction of one contested value settles the slot: theirs is its one current value", async () => {
    const { engine, remember } = await withBrain();
    const crm = await remember(fact('birthday', 'May 3', 'crm', 'Finn'));
    const hr = await remember(fact('birthday', 'June 9', 'hr', 'Finn'));
    assert.equal((await engine.listMemories(tenant, 'b', { contested: 'true', limit: 50 })).data.length, 2);
    const fix = await remember({
      content: { kind: 'correction', corrects: crm.memory_ids[0]!, statement: "Finn's birthday is July 1" },
    });
    assert.deepEqual((await engine.listMemories(tenant, 'b', { contested: 'true', limit: 50 })).data, []);
    const current = await engine.listMemories(tenant, 'b', { subject: 'Finn', limit: 50 });
    assert.deepEqual(
      current.data.map((m) => m.id),
      fix.memory_ids,
    );
    // The other source's value is closed, kept in the slot's history.
    const june = await engine.getMemory(tenant, 'b', hr.memory_ids[0]!);
    assert.equal(june.status, 'superseded');
    await engine.idle();
    const ctx = await engine.createContext(
      tenant,
      'b',
      { query: "when is Finn's birthday?" },
      { requestId: 'r' },
    );
    assert.equal(ctx.status, 'ready');
    assert.equal((ctx as { abstained?: unknown }).abstained, undefined);
    // Forgetting the correction brings the conflict back, as it was.
    await engine.forgetRecord(tenant, 'b', fix.id);
    assert.equal((await engine.listMemories(tenant, 'b', { contested: 'true', limit: 50 })).data.length, 2);
  });

  it('values of one slot spelled differently share its `slot`, and `slot=` lists that slot alone', async () => {
    const { engine, remember } = await withBrain();
    // "user"/"home_city", "User"/"Home City" and the Brain's own name (the owner "user" resolves to)
    // are one slot: grouping by the spelling showed none of these as a conflict.
    await remember(fact('home_city', 'Porto', 'phone'));
    await remember(fact('Home City', 'Lisbon', 'laptop', 'User'));
    await remember(fact('home city', 'Faro', 'tablet', 'Ana'));
    const note = await remember({ content: { kind: 'message', speaker: 'Ana', text: 'I like tea.' } });

    const contested = await engine.listMemories(tenant, 'b', { contested: 'true', limit: 50 });
    assert.equal(contested.data.length, 3);
    const slot = contested.data[0]!.slot;
    assert.match(slot ?? '', /./);
    assert.ok(
      contested.data.every((m) => m.slot === slot),
      'one slot, however it is spelled',
    );
    const tea = await engine.getMemory(tenant, 'b', note.memory_ids[0]!);
    assert.equal(tea.slot, null, 'a message holds no slot');

    const one = await engine.listMemories(tenant, 'b', { slot: slot!, limit: 50 });
    assert.deepEqual(one.data.map((m) => m.id).sort(), contested.data.map((m) => m.id).sort());
    // Settling the slot: its current value is the kept one, and its history keeps the withdrawn ones.
    for (const m of contested.data.slice(1)) {
      await remember({ content: { kind: 'correction', corrects: m.id } });
    }
    assert.deepEqual(
      (await engine.listMemories(tenant, 'b', { slot: slot!, limit: 50 })).data.map((m) => m.id),
      [contested.data[0]!.id],
    );
    const history = await engine.listMemories(tenant, 'b', { slot: slot!, status: 'all', limit: 50 });
    assert.ok(history.data.length >= 3, 'every version the slot has held');
    assert.deepEqual((await engine.listMemories(tenant, 'b', { slot: 'lin_nope', limit: 50 })).data, []);
  });

  it('the reference engine has no slots, so nothing is contested there', async () => {
    const engine = createReferenceEngine();
    await engine.createBrain(tenant, { id: 'b' });
    await engine.rememberRecord(tenant, 'b', fact('home_city', 'Porto', 'phone'), {});
    await engine.rememberRecord(tenant, 'b', fact('home_city', 'Lisbon', 'laptop'), {});
    assert.deepEqual((await engine.listMemories(tenant, 'b', { contested: 'true', limit: 50 })).data, []);
    const all = await engine.listMemories(tenant, 'b', { limit: 50 });
    assert.ok(all.data.every((m) => m.slot === null));
    assert.deepEqual((await engine.listMemories(tenant, 'b', { slot: 'lin_x', limit: 50 })).data, []);
  });
});
