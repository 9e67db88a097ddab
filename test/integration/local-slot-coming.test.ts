import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tenant, withBrain } from './local-helpers.ts';

const day = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

// A job said to start later stands beside the one held until then: asked now, both are the answer.
describe('a slot asked about now, with a value said to come', () => {
  async function ana() {
    const { engine, remember } = await withBrain();
    const said = (text: string, at: number) =>
      remember({ content: { kind: 'message', text, speaker: 'Ana', thread: 'chat' }, occurred_at: iso(at) });
    const slotLane = async (query: string, asOf?: string) => {
      const c = await engine.createContext(
        tenant,
        'b',
        { query, ...(asOf ? { as_of: asOf } : {}) },
        { requestId: 'req_test' },
      );
      assert.equal(c.status, 'ready');
      const trace = await engine.getTrace(tenant, 'b', c.id);
      return trace.lanes.find((l) => l.name === 'slot')?.candidates ?? [];
    };
    return { engine, said, slotLane };
  }

  it('finds the job held now first, then the one said to start in two weeks', async () => {
    const { said, slotLane } = await ana();
    const now = Date.now();
    const globex = await said('I work at Globex.', now - 60 * day);
    const revolut = await said("I'm a data engineer at Revolut, starting in two weeks.", now - day);
    const found = await slotLane('Where do I work?');
    assert.deepEqual(
      found.map((c) => c.record_id),
      [globex.id, revolut.id],
    );
    assert.match(found[1]!.reason, /^holds the slot from a day to come: Ana works at Revolut/u);
  });

  it('reads no value to come at an as_of: what held then only', async () => {
    const { said, slotLane } = await ana();
    const now = Date.now();
    const globex = await said('I work at Globex.', now - 60 * day);
    await said("I'm a data engineer at Revolut, starting in two weeks.", now - day);
    const found = await slotLane('Where do I work?', iso(now - 30 * day));
    assert.deepEqual(
      found.map((c) => c.record_id),
      [globex.id],
    );
  });
});
