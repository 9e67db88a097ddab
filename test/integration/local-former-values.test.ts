import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tenant, withBrain } from './local-helpers.ts';

// "What was my old job?" names no time but asks for a value no longer so: any time before now.
describe('a question for a former value, naming no time', () => {
  async function ana() {
    const { engine, remember } = await withBrain();
    const said = (text: string, at: string) =>
      remember({ content: { kind: 'message', text, speaker: 'Ana', thread: 'chat' }, occurred_at: at });
    const globex = await said('I work at Globex.', '2025-01-10T10:00:00Z');
    const feedzai = await said('I now work at Feedzai.', '2025-06-10T10:00:00Z');
    const ask = async (query: string) => {
      const c = await engine.createContext(tenant, 'b', { query }, { requestId: 'req_test' });
      assert.ok(c.status === 'ready');
      return c;
    };
    return { globex, feedzai, ask };
  }

  it('cites the job held before, marked with when it held, beside the current one', async () => {
    const { globex, feedzai, ask } = await ana();
    for (const query of ['What was my old job?', 'Where did I use to work?', 'What was my previous job?']) {
      const c = await ask(query);
      const cited = c.citations.map((x) => x.record_id);
      assert.ok(cited.includes(globex.id), `${query}: ${c.text ?? ''}`);
      assert.ok(cited.includes(feedzai.id), `${query}: ${c.text ?? ''}`);
      assert.match(
        c.text ?? '',
        /held: 2025-01-10T10:00:00Z to 2025-06-10T10:00:00Z[^\n]*\nI work at Globex\./u,
        query,
      );
    }
  });

  it('asked of now, the job held before is left out', async () => {
    const { globex, ask } = await ana();
    const c = await ask('Where do I work?');
    assert.ok(!c.citations.some((x) => x.record_id === globex.id), c.text ?? '');
  });
});
