import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { open, rememberReady, tempDir, tenant } from './local-helpers.ts';

/** A chat export names its people by first name: "Maya" is the self "Maya Costa" unless it may be another. */
describe("the self's first name alone is the self, unless another person has it", () => {
  async function maya() {
    const engine = await open(tempDir());
    await engine.createBrain(tenant, { id: 'b', self: { type: 'person', name: 'Maya Costa' } });
    const said = (text: string, speaker: string, at: string) =>
      rememberReady(engine, { content: { kind: 'message', text, speaker, thread: 'chat' }, occurred_at: at });
    const profile = async () =>
      (await engine.getProfile(tenant, 'b', { limit: 50 })).lines.map((l) => l.statement).sort();
    return { engine, said, profile };
  }

  it('"Maya" (or "máya") says where the self lives: the Profile has it, and a move replaces it', async () => {
    const { engine, said, profile } = await maya();
    const porto = await said('I live in Porto.', 'Maya', '2024-01-01T10:00:00Z');
    const m = await engine.getMemory(tenant, 'b', porto.memory_ids[0]!);
    assert.deepEqual(
      [m.statement, m.owner.state, m.subject],
      ['Maya Costa lives in Porto', 'self', 'Maya Costa'],
    );
    await said('I moved to Braga.', 'máya', '2024-02-01T10:00:00Z');
    assert.deepEqual(await profile(), ['Maya Costa lives in Braga']);
    await engine.close();
  });

  it('with another speaker "Maya Silva" in the Brain, "Maya" is nobody known: not in the Profile', async () => {
    const { engine, said, profile } = await maya();
    await said('I live in Lisbon.', 'Maya Silva', '2024-01-01T09:00:00Z');
    const porto = await said('I live in Porto.', 'Maya', '2024-01-01T10:00:00Z');
    const m = await engine.getMemory(tenant, 'b', porto.memory_ids[0]!);
    assert.deepEqual([m.statement, m.owner.state], ['I live in Porto.', 'unresolved']);
    assert.deepEqual(await profile(), []);
    // The self's full name is still hers.
    await said('I live in Faro.', 'Maya Costa', '2024-01-02T10:00:00Z');
    assert.deepEqual(await profile(), ['Maya Costa lives in Faro']);
    await engine.close();
  });

  it('another first name is another person, as before', async () => {
    const { engine, said } = await maya();
    const rui = await said('I live in Porto.', 'Rui', '2024-01-01T10:00:00Z');
    const m = await engine.getMemory(tenant, 'b', rui.memory_ids[0]!);
    assert.deepEqual([m.statement, m.owner.state], ['Rui lives in Porto', 'other']);
    await engine.close();
  });
});
