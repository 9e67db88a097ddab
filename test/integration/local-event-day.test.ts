import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RecordCreate } from '../../engine/contract/index.ts';
import { tenant, withBrain } from './local-helpers.ts';

const opts = { requestId: 'req_test' };
const said = (text: string, occurred_at: string): RecordCreate => ({
  content: { kind: 'message', speaker: 'Ana', text },
  occurred_at,
});

describe('local engine: an event is found by the day it is on, not only the day it was written', () => {
  it('a question about the day of an event written weeks before it cites that event', async () => {
    const now = Date.parse('2026-12-05T14:00:00Z');
    const { engine, remember } = await withBrain({ clock: () => new Date(now), timeZone: 'UTC' });
    // An agent writes a plan as an event and leaves occurred_at to its default, the moment of writing.
    const sauna = await remember({
      content: { kind: 'event', title: 'Sauna evening', starts_at: '2026-12-19T18:00:00Z', place: 'Vabali' },
    });
    const dinner = await remember({
      content: {
        kind: 'event',
        title: 'Dinner at Lia',
        starts_at: '2026-12-24T00:00:00Z',
        ends_at: '2026-12-25T00:00:00Z',
      },
    });
    for (const [i, text] of [
      'I am allergic to penicillin.',
      'My favourite tea is hojicha.',
      'We signed the lease in Kreuzberg.',
      'Leo is vegetarian.',
      'I ran 8 km along the river this morning.',
      'The book club reads Piranesi next.',
    ].entries())
      await remember(said(text, `2026-11-${10 + i}T09:00:00Z`));

    const cited = async (query: string) => {
      const c = await engine.createContext(tenant, 'b', { query }, opts);
      assert.equal(c.status, 'ready');
      return c.citations.map((x) => x.record_id);
    };
    assert.ok(
      (await cited('What am I doing on December 19?')).includes(sauna.id),
      'the timed event on that day',
    );
    assert.ok(
      (await cited('What is on the 24th of December?')).includes(dinner.id),
      'the all-day event on that date',
    );
    assert.ok(!(await cited('What am I doing on December 20?')).includes(sauna.id), 'not the day after');
  });
});
