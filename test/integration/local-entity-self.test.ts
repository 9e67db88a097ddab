import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tenant, withBrain } from './local-helpers.ts';

// In her own Brain a question in the first person is about her, as her name is: the entity lane reads
// her Records, but only those that hold a word of the question themselves.
describe('the entity lane for a question about the Brain own person', () => {
  it('lifts her messages that say a word of the question, not those found by their neighbours', async () => {
    const { engine, remember } = await withBrain();
    const say = (speaker: string, text: string, minute: number) =>
      remember({
        content: { kind: 'message', text, speaker, thread: 'agent' },
        occurred_at: `2026-12-05T10:${String(minute).padStart(2, '0')}:00Z`,
      });
    const sqlite = await say('Ana', 'We are not doing SQLite after all, PostgreSQL from the start.', 1);
    await say('Assistant', 'Noted, and happy birthday planning for your mum!', 2);
    const ideas = await say('Ana', 'For mum I want a scarf for her birthday.', 3);
    const c = await engine.createContext(
      tenant,
      'b',
      { query: 'What should I get mum for her birthday?' },
      { requestId: 'req_test' },
    );
    assert.equal(c.status, 'ready');
    const trace = await engine.getTrace(tenant, 'b', c.id);
    const entity = trace.lanes.find((l) => l.name === 'entity')?.candidates.map((x) => x.record_id) ?? [];
    assert.ok(entity.includes(ideas.id), JSON.stringify(entity));
    assert.ok(!entity.includes(sqlite.id), JSON.stringify(entity));
  });
});
