import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { ContextReady } from '../../engine/contract/index.ts';
import { gloveEngines } from './glove-engines.ts';
import { tenant } from './local-helpers.ts';

// At the file's top level: its databases close after the file.
const engines = await gloveEngines();

/** A month of Tomislav's notes, Luka in most of them and said who he is once. */
const month: ReadonlyArray<readonly [day: number, text: string]> = [
  [1, 'Started the new sprint at Span today, lots of planning meetings.'],
  [2, "Dinner at Ana and Luka's place, Luka made sarma."],
  [3, 'Ran 8 km along the Sava this morning.'],
  [4, 'Luka called about the football tickets for Saturday.'],
  [5, 'Watched Dinamo with Luka, they won 2-1.'],
  [6, 'My mother Snježana visited, brought apples from the garden.'],
  [7, "Luka is my brother-in-law, Ana's husband."],
  [8, 'Lunch with Marta from work, she is moving to Split.'],
  [9, 'Luka helped me move the sofa up to the fourth floor.'],
  [10, 'Luka and I talked about his new job search for an hour.'],
  [11, 'Dentist appointment moved to next Thursday.'],
  [12, 'Birthday party for Luka at the lake house.'],
  [13, 'Bought Luka a new fishing rod for his birthday.'],
  [14, 'Ana says Luka is stressed about money lately.'],
  [15, 'Code review with Ivan took the whole morning.'],
  [16, 'Luka sent me the photos from the lake.'],
  [17, 'Played padel with Luka and Ivan, lost badly.'],
  [18, 'Booked flights to Lisbon for October.'],
  [19, 'Luka borrowed my drill again.'],
  [20, 'Sunday lunch at my parents, Ana and Luka came too.'],
  [21, 'Luka got an interview at Infobip next week.'],
  [22, 'My knee hurts again after the run.'],
  [23, 'Luka and Ana are thinking about buying a flat in Trešnjevka.'],
  [24, 'Luka recommended a mechanic in Dubrava for my car.'],
  [25, "Long call with Luka about his dad's health."],
  [26, 'Went fishing with Luka at Jarun, caught nothing.'],
  [27, 'Luka says the Infobip interview went well.'],
  [28, 'Petra and I booked the hotel in Lisbon.'],
  [29, 'Helped Luka paint the kitchen.'],
  [30, 'Luka got the job at Infobip!'],
];

for (const [name, start] of engines)
  describe(`${name}: a question asking who someone is`, () => {
    it('is answered first by the Record saying who the person is, not by the many that mention them', async () => {
      const engine = await start();
      after(() => engine.close());
      await engine.createBrain(tenant, { id: 'b', self: { type: 'person', name: 'Tomislav' } });
      for (const [day, text] of month)
        await engine.rememberRecord(
          tenant,
          'b',
          {
            content: { kind: 'message', speaker: 'user', text },
            occurred_at: `2026-09-${String(day).padStart(2, '0')}T18:00:00Z`,
          },
          {},
        );
      await engine.idle();
      for (const query of ['Who is Luka?', "who's luka", 'Tko je Luka?']) {
        const c = (await engine.createContext(tenant, 'b', { query }, { requestId: 'r' })) as ContextReady;
        assert.equal(c.status, 'ready', query);
        assert.equal(c.citations[0]?.quote, "Luka is my brother-in-law, Ana's husband.", query);
        const trace = await engine.getTrace(tenant, 'b', c.id);
        assert.match(trace.fusion.method, /the Records saying who luka is first/u, query);
      }
      // Another question about him keeps its order: "Where did Luka get a job?" is not led by the definition.
      const job = (await engine.createContext(
        tenant,
        'b',
        { query: 'Where did Luka get a job?' },
        { requestId: 'r' },
      )) as ContextReady;
      assert.notEqual(job.citations[0]?.quote, "Luka is my brother-in-law, Ana's husband.");
    });
  });
