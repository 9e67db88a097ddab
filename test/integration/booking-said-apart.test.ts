import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RecordCreate } from '../../engine/contract/index.ts';
import type { Engine } from '../../engine/types.ts';
import { bothEngines } from './both-engines.ts';
import { tenant } from './local-helpers.ts';

/*
 * A chat says a trip and its booking in messages of their own: "Petra and I are planning a weekend
 * in Vienna, December 12 to 14.", then "We booked the Hotel Motto.". "We cancelled Vienna." closed the
 * plan, and the hotel stayed booked (use9, rules-v97): only a booking in the plan's own Record went.
 */
const engines = await bothEngines({ timeZone: 'Europe/Zagreb' });

const plan = 'Petra and I are planning a weekend in Vienna, December 12 to 14.';
const off = '2026-11-23T08:00:00+01:00';

type Said = readonly [text: string, speaker?: string, thread?: string | null];

/**
 * A Brain of Nina's holding these messages, a minute apart from 12 November and each derived before
 * the next, in the thread "chat" unless one names another (null: none), then "We cancelled Vienna."
 * (or `offSaid`) in the first one's: each statement said with when it ended.
 */
async function calledOff(
  engine: Engine,
  brain: string,
  said: readonly Said[],
  offSaid = 'We cancelled Vienna.',
) {
  await engine.createBrain(tenant, { id: brain, self: { type: 'person', name: 'Nina Babić' } });
  const write = async ([text, speaker = 'user', thread = 'chat']: Said, at: string) => {
    const content: RecordCreate['content'] = {
      kind: 'message',
      speaker,
      text,
      ...(thread !== null ? { thread } : {}),
    };
    const r = await engine.rememberRecord(tenant, brain, { content, occurred_at: at }, {});
    await engine.idle();
    return r.record.id;
  };
  for (const [i, s] of said.entries()) await write(s, `2026-11-12T08:${String(10 + i)}:00+01:00`);
  const cancelled = await write([offSaid, 'user', said[0]?.[2] ?? 'chat'], off);
  const memories = (await engine.listMemories(tenant, brain, { limit: 100, status: 'all' })).data;
  const statuses = new Map(
    memories.filter((m) => m.statement !== offSaid).map((m) => [m.statement, m.valid_to]),
  );
  return { statuses, cancelled };
}

for (const [name, openEngine] of engines) {
  /** A test given an engine of its own, closed after it. */
  const withEngine = (test: (engine: Engine) => Promise<void>) => async () => {
    const engine = await openEngine();
    try {
      await test(engine);
    } finally {
      await engine.close();
    }
  };
  describe(`${name}: a booking said apart from the trip it is for`, () => {
    it(
      'said right after the plan in its thread, the hotel goes with the trip; forgetting the call-off restores it',
      withEngine(async (engine) => {
        const { statuses, cancelled } = await calledOff(engine, 'near', [
          [plan],
          ['Sounds lovely, Vienna is beautiful in December!', 'assistant'],
          ['We booked the Hotel Motto.'],
        ]);
        assert.equal(statuses.get(plan), off);
        assert.equal(statuses.get('We booked the Hotel Motto.'), off);
        await engine.forgetRecord(tenant, 'near', cancelled);
        const after = (await engine.listMemories(tenant, 'near', { limit: 100, status: 'all' })).data;
        assert.deepEqual(
          after.map((m) => [m.statement, m.status]).sort(),
          [
            [plan, 'active'],
            ['Sounds lovely, Vienna is beautiful in December!', 'active'],
            ['We booked the Hotel Motto.', 'active'],
          ].sort(),
        );
      }),
    );

    it(
      'written in no thread, the next message booking the hotel goes with the trip',
      withEngine(async (engine) => {
        const { statuses } = await calledOff(engine, 'unthreaded', [
          [plan, 'user', null],
          ['We booked the Hotel Motto.', 'user', null],
        ]);
        assert.deepEqual([statuses.get(plan), statuses.get('We booked the Hotel Motto.')], [off, off]);
      }),
    );

    it(
      "a booking naming the trip's place goes with it, said later in its thread; another place, person or appointment stays",
      withEngine(async (engine) => {
        const { statuses } = await calledOff(engine, 'named', [
          [plan],
          ['We booked a hotel in Graz.'],
          ['Luka booked a table in Vienna.'],
          ['We booked the dentist in Vienna.'],
          ['Sounds lovely, Vienna is beautiful in December!', 'assistant'],
          ['I love the opera.'],
          ['We booked a hotel in Vienna.'],
          ['Petra booked the opera tickets in Vienna.'],
        ]);
        assert.deepEqual(Object.fromEntries(statuses), {
          [plan]: off,
          'We booked a hotel in Vienna.': off,
          'We booked a hotel in Graz.': null,
          'Luka booked a table in Vienna.': null,
          // Petra is on the trip: the plan names her.
          'Petra booked the opera tickets in Vienna.': off,
          'We booked the dentist in Vienna.': null,
          'Sounds lovely, Vienna is beautiful in December!': null,
          'I love the opera.': null,
        });
      }),
    );

    it(
      "a booking of another trip stays: said in another thread, or after another month was said in the plan's",
      withEngine(async (engine) => {
        const march = 'Luka and I are planning a trip to Vienna in March.';
        const hotel = 'We booked a hotel in Vienna.';
        const elsewhere = await calledOff(
          engine,
          'other-thread',
          [[plan], [march, 'user', 'work'], [hotel, 'user', 'work']],
          'We cancelled the December trip to Vienna.',
        );
        assert.deepEqual(Object.fromEntries(elsewhere.statuses), {
          [plan]: off,
          [march]: null,
          [hotel]: null,
        });
        const after = await calledOff(
          engine,
          'other-month',
          [[plan], [march], [hotel]],
          'We cancelled the December trip to Vienna.',
        );
        assert.deepEqual(Object.fromEntries(after.statuses), { [plan]: off, [march]: null, [hotel]: null });
        const itsOwn = await calledOff(engine, 'own-month', [
          [plan],
          ['We booked a hotel in Vienna. It is for the March conference.'],
        ]);
        assert.equal(itsOwn.statuses.get(plan), off);
        assert.equal(itsOwn.statuses.get(hotel), null);
      }),
    );

    it(
      "someone else's booking stays: a relation's, in the plan's thread or another",
      withEngine(async (engine) => {
        const { statuses } = await calledOff(engine, 'another', [
          [plan],
          ['My sister booked a hotel in Vienna.'],
          ['My sister booked the train to Vienna.', 'user', 'family'],
          ['Mum booked a room in Vienna.'],
          ['My friend Luka booked a table in Vienna.'],
          ['Our neighbours booked the opera tickets in Vienna.'],
        ]);
        assert.deepEqual(Object.fromEntries(statuses), {
          [plan]: off,
          'My sister booked a hotel in Vienna.': null,
          'My sister booked the train to Vienna.': null,
          'Mum booked a room in Vienna.': null,
          'My friend Luka booked a table in Vienna.': null,
          "Nina Babić's friend is Luka": null,
          'Our neighbours booked the opera tickets in Vienna.': null,
        });
      }),
    );

    it(
      "a partner's booking is the couple's: it goes with a trip said with \"we\"; a sister's stays",
      withEngine(async (engine) => {
        const wePlan = 'We are planning a weekend in Vienna, December 12 to 14.';
        const partners = [
          'My husband booked a hotel in Vienna.',
          'My wife booked the flights to Vienna.',
          'My partner booked a room in Vienna.',
          'My boyfriend booked the train to Vienna.',
          'My girlfriend booked an apartment in Vienna.',
          'My fiancé booked the opera tickets in Vienna.',
          'My fiancée booked a table in Vienna.',
        ];
        const { statuses } = await calledOff(engine, 'partner', [
          [wePlan],
          ...partners.map((p): Said => [p]),
          ['My sister booked a hotel in Vienna.'],
        ]);
        assert.deepEqual(Object.fromEntries(statuses), {
          [wePlan]: off,
          ...Object.fromEntries(partners.map((p) => [p, off])),
          'My sister booked a hotel in Vienna.': null,
        });
      }),
    );

    it(
      'a month said after a plan naming none is its own; a month said of nothing else keeps no booking open',
      withEngine(async (engine) => {
        const noMonth = 'Petra and I are planning a weekend in Vienna.';
        const followed = await calledOff(engine, 'month-after', [
          [noMonth],
          ['In December.'],
          ['We booked the Hotel Motto.'],
          ['We booked a hotel in Vienna.'],
        ]);
        assert.deepEqual(Object.fromEntries(followed.statuses), {
          [noMonth]: off,
          'In December.': null,
          'We booked the Hotel Motto.': off,
          'We booked a hotel in Vienna.': off,
        });
        const dentist = 'My dentist appointment is on March 3.';
        const between = await calledOff(engine, 'month-between', [
          [plan],
          [dentist],
          ['We booked a hotel in Vienna.'],
          ['We booked a room in Vienna. It is for the March conference.'],
        ]);
        assert.equal(between.statuses.get(plan), off);
        assert.equal(between.statuses.get('We booked a hotel in Vienna.'), off);
        // Its message names March, which neither the plan nor a message answering it says.
        assert.equal(between.statuses.get('We booked a room in Vienna.'), null);
      }),
    );

    it(
      'a plan moved, then called off: the booking said before the move goes with it',
      withEngine(async (engine) => {
        const moved = 'We moved the Vienna trip to January instead of December.';
        const { statuses } = await calledOff(engine, 'moved', [
          [plan],
          ['We booked the Hotel Motto.'],
          ['We booked a hotel in Vienna.'],
          [moved],
        ]);
        assert.deepEqual(
          [statuses.get('We booked the Hotel Motto.'), statuses.get('We booked a hotel in Vienna.')],
          [off, off],
        );
        assert.equal(statuses.get(moved), off);
      }),
    );

    it(
      'the plumber, a booking after another place, or in another thread names no trip and stays',
      withEngine(async (engine) => {
        const { statuses } = await calledOff(engine, 'apart', [
          [plan],
          ['We booked the plumber.'],
          ['Also Luka wants dinner at Dubravkin put.'],
          ['We booked the table.'],
          ['We booked the room.'],
          ['We booked the Hotel Motto.', 'user', 'other'],
        ]);
        assert.deepEqual(Object.fromEntries(statuses), {
          [plan]: off,
          'We booked the plumber.': null,
          'Also Luka wants dinner at Dubravkin put.': null,
          'We booked the table.': null,
          'We booked the room.': null,
          'We booked the Hotel Motto.': null,
        });
      }),
    );
  });
}
