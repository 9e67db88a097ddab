import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ContextReady, RecordCreate } from '../../engine/contract/index.ts';
import { bothEngines } from './both-engines.ts';
import { tenant } from './local-helpers.ts';

/*
 * "When is yoga this week?" asked on Monday 7 December put last Tuesday's class first, and
 * the class of Tuesday 8 December was in none of the blocks: "this week" read as the seven days before
 * today. It is the calendar week holding today in the person's zone, Monday to Sunday, the days still
 * to come included; "earlier this week" only its days gone by, "later this week" only the rest.
 */
const now = new Date('2026-12-07T09:00:00+01:00');
const zone = 'Europe/Vienna';
const engines = await bothEngines({ clock: () => now, timeZone: zone });

/** An imported calendar's event: occurred_at is its start. */
const event = (title: string, starts: string, ends: string): RecordCreate => ({
  content: { kind: 'event', title, starts_at: starts, ends_at: ends },
  occurred_at: starts,
});

for (const [name, openEngine] of engines)
  describe(`${name}: "this week" is the calendar week holding today, what is to come in it included`, () => {
    it('the yoga class of tomorrow leads, last week’s is not of the week; the past of the week is still found', async () => {
      const engine = await openEngine();
      try {
        await engine.createBrain(tenant, { id: 'maya', self: { type: 'person', name: 'Maya Lindqvist' } });
        const remember = async (body: RecordCreate) => {
          const r = await engine.rememberRecord(tenant, 'maya', body, {});
          await engine.idle();
          return r.record.id;
        };
        const lastWeek = await remember(
          event('Yoga class', '2026-12-01T18:00:00+01:00', '2026-12-01T19:15:00+01:00'),
        );
        const tomorrow = await remember(
          event('Yoga class', '2026-12-08T18:00:00+01:00', '2026-12-08T19:15:00+01:00'),
        );
        const nextWeek = await remember(
          event('Yoga class', '2026-12-15T18:00:00+01:00', '2026-12-15T19:15:00+01:00'),
        );
        const dentist = await remember(
          event('Dentist Dr. Novak', '2026-12-10T11:00:00+01:00', '2026-12-10T11:45:00+01:00'),
        );
        // Monday morning, before the question: the week's past.
        const call = await remember({
          content: {
            kind: 'message',
            speaker: 'Maya Lindqvist',
            text: 'Call with Jonas about the Atlas launch.',
          },
          occurred_at: '2026-12-07T08:00:00+01:00',
        });

        const ask = async (query: string) => {
          const c = (await engine.createContext(
            tenant,
            'maya',
            { query, include: ['citations', 'explain'] },
            { requestId: 'req_t' },
          )) as ContextReady;
          assert.equal(c.status, 'ready', query);
          const trace = await engine.getTrace(tenant, 'maya', c.id);
          const time = trace.lanes.find((l) => l.name === 'time')?.candidates ?? [];
          return {
            cited: c.citations.map((x) => x.record_id),
            time: time.map((x) => x.record_id),
            reasons: time.map((x) => x.reason ?? ''),
          };
        };

        const yoga = await ask('When is yoga this week?');
        assert.equal(yoga.cited[0], tomorrow, 'the class of 8 December first');
        assert.ok(yoga.time.includes(tomorrow));
        assert.ok(!yoga.time.includes(lastWeek), 'the class of 1 December is not of this week');
        assert.ok(!yoga.time.includes(nextWeek), 'nor that of 15 December');
        assert.match(yoga.reasons[yoga.time.indexOf(tomorrow)]!, /^occurred this week \(2026-12-08\)/u);

        // Asked in the past tense, the week's past is still in it.
        const done = await ask('What did I do this week?');
        assert.ok(done.time.includes(call), 'Monday morning’s call');
        assert.ok(!done.time.includes(lastWeek));

        // "later this week": only the rest of it; "earlier this week": only what has gone by.
        const later = await ask('What do I have later this week?');
        assert.deepEqual(new Set(later.time), new Set([tomorrow, dentist]));
        const earlier = await ask('What happened earlier this week?');
        assert.deepEqual(earlier.time, [call]);
      } finally {
        await engine.close();
      }
    });
  });
