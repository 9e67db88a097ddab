import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { after } from 'node:test';
import type { RecordCreate } from '../../engine/contract/index.ts';
import { open, rememberReady, tempDir, tenant } from './local-helpers.ts';

const fact = (predicate: string, value: string, at: string, source = 'profile'): RecordCreate => ({
  content: { kind: 'fact', subject: 'me', predicate, value },
  source: { name: source },
  occurred_at: at,
});
const said = (text: string, at: string, source = 'chat'): RecordCreate => ({
  content: { kind: 'message', text, speaker: 'Bo' },
  source: { name: source },
  occurred_at: at,
});

async function brainOfBo() {
  const engine = await open(tempDir());
  after(() => engine.close());
  await engine.createBrain(tenant, { id: 'b', self: { type: 'person', name: 'Bo' } });
  const remember = (body: RecordCreate) => rememberReady(engine, body);
  const current = async () =>
    (await engine.listMemories(tenant, 'b', { limit: 50 })).data.map((m) => m.statement).sort();
  const contested = async () =>
    (await engine.listMemories(tenant, 'b', { contested: 'true', limit: 50 })).data
      .map((m) => m.statement)
      .sort();
  return { engine, remember, current, contested };
}

describe('a fact and a sentence about the same thing hold one slot', () => {
  it('a later sentence supersedes the fact (home and employer), and the fact stays its history', async () => {
    const { engine, remember, current, contested } = await brainOfBo();
    const home = await remember(fact('home_city', 'Lisbon', '2024-01-01T00:00:00Z'));
    await remember(fact('employer', 'Siemens', '2024-01-01T00:00:00Z'));
    const moved = await remember(said('I moved to Porto.', '2024-05-01T00:00:00Z'));
    await remember(said('I work at BMW now.', '2024-05-01T00:00:00Z'));

    assert.deepEqual(await current(), ['Bo lives in Porto', 'Bo works at BMW']);
    assert.deepEqual(await contested(), []);
    const lisbon = await engine.getMemory(tenant, 'b', home.memory_ids[0]!);
    assert.equal(lisbon.status, 'superseded');
    const porto = await engine.getMemory(tenant, 'b', moved.memory_ids[0]!);
    assert.equal(porto.slot, lisbon.slot, 'one slot, whichever form each came in');
    const then = await engine.listMemories(tenant, 'b', { as_of: '2024-03-01T00:00:00Z', limit: 50 });
    assert.deepEqual(
      then.data.map((m) => m.statement).sort(),
      ['me employer: Siemens', 'me home city: Lisbon'],
      'as_of brings the fact back',
    );
  });

  it('a later fact supersedes the sentence, whichever came in first', async () => {
    const { remember, current } = await brainOfBo();
    await remember(said('I live in Porto.', '2024-01-01T00:00:00Z'));
    await remember(fact('Home City', 'Faro', '2024-06-01T00:00:00Z'));
    assert.deepEqual(await current(), ['me Home City: Faro']);
  });

  it('a fact and a sentence from two sources at one instant are a conflict', async () => {
    const { remember, contested } = await brainOfBo();
    const at = '2024-05-01T00:00:00Z';
    await remember(fact('workplace', 'Siemens', at));
    await remember(said('I work at BMW.', at));
    assert.deepEqual(await contested(), ['Bo works at BMW', 'me workplace: Siemens']);
  });

  it('a value restated by one source and denied by another at one instant is a conflict, whatever came first', async () => {
    for (const order of ['restated first', 'denied first'] as const) {
      const { engine, remember, current, contested } = await brainOfBo();
      await remember(said('I moved to Lisbon last weekend.', '2024-03-01T00:00:00Z'));
      const at = '2024-05-01T10:00:00Z';
      const phone = fact('home_city', 'Lisbon', at, 'phone');
      const laptop = fact('home_city', 'Porto', at, 'laptop');
      for (const body of order === 'restated first' ? [phone, laptop] : [laptop, phone]) await remember(body);
      // Each value once, in the words of the version that holds it there.
      const cities = (ms: string[]) => ms.map((m) => /Lisbon|Porto/u.exec(m)?.[0]).sort();
      assert.deepEqual(cities(await contested()), ['Lisbon', 'Porto'], order);
      assert.deepEqual(cities(await current()), ['Lisbon', 'Porto'], order);
      // The home said in March held until then, and holds nothing of the phone's restatement.
      const march = (await engine.listMemories(tenant, 'b', { status: 'all', limit: 50 })).data.find(
        (m) => m.valid_from === '2024-03-01T00:00:00Z',
      )!;
      assert.deepEqual(
        [march.statement, march.status, march.valid_to],
        ['Bo lives in Lisbon', 'superseded', at],
        order,
      );
    }
  });

  it('a fact and a sentence giving the same value at one instant are one Memory, not a conflict', async () => {
    const { engine, remember, current, contested } = await brainOfBo();
    const at = '2024-05-01T00:00:00Z';
    const home = await remember(fact('home_city', 'Lisbon', at));
    const said_ = await remember(said('I live in Lisbon.', at));
    // The other way round too: the sentence first, then the fact from another source.
    await remember(said('I work at BMW.', at));
    await remember(fact('employer', 'bmw', at));

    assert.deepEqual(await current(), ['Bo works at BMW', 'me home city: Lisbon']);
    assert.deepEqual(await contested(), []);
    assert.deepEqual(said_.memory_ids, home.memory_ids, 'the sentence cites the Memory the fact holds');
    const ctx = await engine.createContext(tenant, 'b', { query: 'Where does Bo live?' }, { requestId: 'r' });
    assert.equal(ctx.status, 'ready');
    if (ctx.status !== 'ready') return;
    assert.deepEqual(ctx.conflicts, []);
    assert.equal(ctx.abstained, undefined);
    assert.match(ctx.text ?? '', /I live in Lisbon/);
  });

  it(
    'the same value at one instant stays one Memory when one of its Records is forgotten',
    { timeout: 60_000 },
    async () => {
      const { engine, remember, current } = await brainOfBo();
      const at = '2024-05-01T00:00:00Z';
      const home = await remember(fact('home_city', 'Lisbon', at));
      await remember(said('I live in Lisbon.', at));
      await engine.forgetRecord(tenant, 'b', home.id);
      await engine.idle();
      assert.deepEqual(await current(), ['me home city: Lisbon'], 'it rests on the sentence');
      const m = await engine.getMemory(tenant, 'b', home.memory_ids[0]!);
      assert.deepEqual(
        m.citations.map((c) => c.quote),
        ['I live in Lisbon.'],
      );
    },
  );

  it('a predicate that is not the same slot keeps its own (hometown is not where one lives)', async () => {
    const { remember, current, contested } = await brainOfBo();
    await remember(fact('hometown', 'Braga', '2024-01-01T00:00:00Z'));
    await remember(said('I moved to Porto.', '2024-05-01T00:00:00Z'));
    assert.deepEqual(await current(), ['Bo lives in Porto', 'me hometown: Braga']);
    assert.deepEqual(await contested(), []);
  });
});
