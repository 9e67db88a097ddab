import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ContextReady, Memory, RecordCreate } from '../../engine/contract/index.ts';
import type { Engine } from '../../engine/types.ts';
import { bothEngines } from './both-engines.ts';
import { tenant } from './local-helpers.ts';

// Tom's month as a round of real use wrote it: what was said with a value, or of a plan,
// stayed current after the value ended or the plan was called off. Read on both engines: the rules
// are one, but what they find is read through each adapter.

// Asked on 6 December: "next week" is Vienna's.
const engines = await bothEngines({ clock: () => new Date('2026-12-06T10:00:00Z') });

type Said = readonly [speaker: string, text: string, at: string];
const message = ([speaker, text, at]: Said): RecordCreate => ({
  content: { kind: 'message', speaker, text },
  occurred_at: at,
});

let brains = 0;
/** A Brain of Tomislav Kovačević's holding these Records, derived: each Record's id, in order. */
async function toms(engine: Engine, records: readonly RecordCreate[]) {
  const id = `tom${++brains}`;
  await engine.createBrain(tenant, { id, self: { type: 'person', name: 'Tomislav Kovačević' } });
  const ids: string[] = [];
  for (const body of records) ids.push((await engine.rememberRecord(tenant, id, body, {})).record.id);
  await engine.idle();
  const memories = async (): Promise<Memory[]> =>
    (await engine.listMemories(tenant, id, { limit: 200, status: 'all' })).data;
  const statusOf = async (statement: string) =>
    (await memories()).filter((m) => m.statement === statement).map((m) => [m.status, m.valid_to]);
  const ask = async (query: string) => {
    const context = (await engine.createContext(tenant, id, { query }, { requestId: 'r' })) as ContextReady;
    assert.equal(context.status, 'ready');
    return context.citations;
  };
  return { id, ids, memories, statusOf, ask };
}

for (const [name, opened] of engines)
  describe(`on ${name}`, () => {
    it('what was said of a partner with her goes with her when they break up', async () => {
      const engine = await opened();
      try {
        const tom = await toms(
          engine,
          (
            [
              [
                'self',
                "My girlfriend is Petra Novak. We've been together three years.",
                '2026-11-09T08:12:00Z',
              ],
              ['self', 'Petra is a doctor.', '2026-11-10T08:00:00Z'],
              ['self', "Petra and I broke up last night. It's over.", '2026-11-23T09:00:00Z'],
            ] as const
          ).map(message),
        );
        assert.deepEqual(await tom.statusOf("We've been together three years."), [
          ['superseded', '2026-11-23T09:00:00Z'],
        ]);
        // True of her whoever her partner is: not tied to the slot.
        assert.deepEqual(await tom.statusOf("Petra's occupation is doctor"), [['active', null]]);
        const asked = await tom.ask('Do I have a girlfriend?');
        assert.ok(!asked.some((c) => c.quote === "We've been together three years."));
        // Forgetting the break-up, it holds again.
        await engine.forgetRecord(tenant, tom.id, tom.ids[2]!);
        await engine.idle();
        assert.deepEqual(await tom.statusOf("We've been together three years."), [['active', null]]);
      } finally {
        await engine.close();
      }
    });

    it("a trip called off takes its plan, what was booked for it and the assistant's note of it", async () => {
      const engine = await opened();
      try {
        const tom = await toms(engine, [
          message([
            'self',
            'Petra and I are planning a weekend in Vienna, December 12 to 14. We booked the Hotel Motto.',
            '2026-11-12T07:00:00Z',
          ]),
          message([
            'assistant',
            "Great, I've noted your Vienna trip with Petra from December 12 to 14 at Hotel Motto.",
            '2026-11-12T07:01:00Z',
          ]),
          {
            content: {
              kind: 'event',
              title: 'Vienna weekend with Petra',
              starts_at: '2026-12-12T09:00:00+01:00',
              ends_at: '2026-12-14T20:00:00+01:00',
              participants: ['Tomislav Kovačević', 'Petra Novak'],
              place: 'Vienna',
            },
            occurred_at: '2026-11-12T07:05:00Z',
          },
          message([
            'self',
            'Plan: Christmas in Sisak with my parents and Marina, December 24 to 26.',
            '2026-11-30T09:00:00Z',
          ]),
          message(['self', 'We cancelled Vienna.', '2026-11-23T08:00:00Z']),
        ]);
        const vienna = (await tom.memories()).filter(
          (m) => /Vienna|Motto/u.test(m.statement) && m.statement !== 'We cancelled Vienna.',
        );
        assert.deepEqual(vienna.map((m) => [m.statement.split(';')[0], m.status, m.valid_to]).sort(), [
          [
            "Great, I've noted your Vienna trip with Petra from December 12 to 14 at Hotel Motto.",
            'superseded',
            '2026-11-23T08:00:00Z',
          ],
          [
            'Petra and I are planning a weekend in Vienna, December 12 to 14.',
            'superseded',
            '2026-11-23T08:00:00Z',
          ],
          ['Vienna weekend with Petra', 'superseded', '2026-11-23T08:00:00Z'],
          ['We booked the Hotel Motto.', 'superseded', '2026-11-23T08:00:00Z'],
        ]);
        assert.deepEqual(
          await tom.statusOf('Plan: Christmas in Sisak with my parents and Marina, December 24 to 26.'),
          [['active', null]],
        );
        // One sentence closing four plans' lineages is a version of each, and one line of her Profile.
        const lines = (await engine.getProfile(tenant, tom.id, { limit: 50 })).lines;
        assert.deepEqual(
          lines.filter((l) => l.statement === 'We cancelled Vienna.').map((l) => l.citations.length),
          [1],
        );
        // Page by page too: a page holds its limit, and no page says it again.
        for (const limit of [1, 2]) {
          const paged: typeof lines = [];
          let cursor: string | undefined;
          for (let i = 0; i < 50; i += 1) {
            const page = await engine.getProfile(tenant, tom.id, { limit, ...(cursor ? { cursor } : {}) });
            if (page.has_more) assert.equal(page.lines.length, limit);
            paged.push(...page.lines);
            if (!page.next_cursor) break;
            cursor = page.next_cursor;
          }
          assert.deepEqual(
            paged.map((l) => l.memory_id),
            lines.map((l) => l.memory_id),
            `${limit} a page`,
          );
        }
        // What leads is the call-off, not the weekend as if it were still on.
        const next = await tom.ask('What do I have next week?');
        assert.equal(next[0]?.record_id, tom.ids[4]);
      } finally {
        await engine.close();
      }
    });

    it('a break-up closes only what was said of the couple, not of others nor what they did', async () => {
      const engine = await opened();
      try {
        const others = [
          'My parents have been together 40 years.',
          'Luka and I go out together every Friday.',
          'Our band has been together since 2015.',
          'My sister Marina and Ivan are celebrating their anniversary in May.',
          'Yesterday we went hiking together on Sljeme.',
          'We bought a flat together in Trešnjevka.',
          // A few of something, and where one is with her, are no state of the couple.
          'We are a couple of weeks behind.',
          'I am with Petra at the cafe.',
          "I'm with Petra for the weekend.",
          "I'm with her for the rest of the day.",
        ];
        // How long, or at last: still the couple (review9a M1).
        const couple = [
          "We've been together three years.",
          "I'm with Petra now.",
          "We're together at last.",
          'We are together at the moment.',
        ];
        const tom = await toms(
          engine,
          (
            [
              [
                'self',
                `My girlfriend is Petra Novak. ${couple.join(' ')} ${others.join(' ')}`,
                '2026-11-09T08:12:00Z',
              ],
              ['self', 'Petra and I broke up last night.', '2026-11-23T09:00:00Z'],
            ] as const
          ).map(message),
        );
        for (const said of couple)
          assert.deepEqual(await tom.statusOf(said), [['superseded', '2026-11-23T09:00:00Z']], said);
        for (const said of others) assert.deepEqual(await tom.statusOf(said), [['active', null]], said);
      } finally {
        await engine.close();
      }
    });

    it('a booking said with "also" beside the trip goes with it when it is called off only if it is its stay', async () => {
      const engine = await opened();
      try {
        const besides = [
          'I also booked the plumber.',
          'I also booked a table at Dubravkin put.',
          'Luka also booked his hotel in Graz.',
        ];
        const tom = await toms(
          engine,
          (
            [
              [
                'self',
                `Petra and I are planning a weekend in Vienna, December 12 to 14. We also booked the Hotel Motto. ${besides.join(' ')}`,
                '2026-11-12T07:00:00Z',
              ],
              ['self', 'We cancelled Vienna.', '2026-11-23T08:00:00Z'],
            ] as const
          ).map(message),
        );
        assert.deepEqual(await tom.statusOf('We also booked the Hotel Motto.'), [
          ['superseded', '2026-11-23T08:00:00Z'],
        ]);
        for (const own of besides) assert.deepEqual(await tom.statusOf(own), [['active', null]], own);
      } finally {
        await engine.close();
      }
    });

    it('a trip called off takes only its own bookings, and of two trips there the nearer', async () => {
      const engine = await opened();
      try {
        const tom = await toms(engine, [
          message([
            'self',
            'Petra and I are planning a weekend in Vienna, December 12 to 14. We booked the Hotel Motto. I also booked the dentist for Monday.',
            '2026-11-09T07:00:00Z',
          ]),
          // An agent the rules know by another name than "assistant".
          message([
            'AI',
            "Great, I've noted your Vienna trip with Petra from December 12 to 14 at Hotel Motto.",
            '2026-11-09T07:01:00Z',
          ]),
          message(['self', "I'm flying to Vienna in March for a work conference.", '2026-11-10T07:00:00Z']),
          message([
            'assistant',
            "Great, I've noted your Vienna conference trip in March.",
            '2026-11-10T07:01:00Z',
          ]),
          message(['self', 'We cancelled Vienna.', '2026-11-23T08:00:00Z']),
        ]);
        const status = async (statement: string) => (await tom.statusOf(statement))[0]?.[0];
        assert.deepEqual(
          await Promise.all(
            [
              'Petra and I are planning a weekend in Vienna, December 12 to 14.',
              'We booked the Hotel Motto.',
              "Great, I've noted your Vienna trip with Petra from December 12 to 14 at Hotel Motto.",
              'I also booked the dentist for Monday.',
              "I'm flying to Vienna in March for a work conference.",
              "Great, I've noted your Vienna conference trip in March.",
            ].map(status),
          ),
          ['superseded', 'superseded', 'superseded', 'active', 'active', 'active'],
        );
      } finally {
        await engine.close();
      }
    });

    it("an assistant's sentence of another person holds no slot on its word alone; after a lead it is a read-back", async () => {
      const engine = await opened();
      try {
        const tom = await toms(
          engine,
          (
            [
              ['assistant', 'Ask Marko. Marko lives in Split.', '2026-11-09T08:00:00Z'],
              ['assistant', 'Ella Fitzgerald works at Verve Records.', '2026-11-09T08:01:00Z'],
              ['self', "My sister Marina's birthday is on March 3.", '2026-11-09T08:02:00Z'],
              ['assistant', "Marina's birthday is March 3.", '2026-11-09T08:03:00Z'],
              ['self', 'My friend Marko lives in Zagreb.', '2026-11-10T08:00:00Z'],
            ] as const
          ).map(message),
        );
        const slots = (await tom.memories())
          .filter((m) => m.slot !== null)
          .map((m) => [m.statement, m.status, m.citations.map((c) => c.record_id)]);
        assert.deepEqual(slots.sort(), [
          // Said back without a lead, her value is joined: no statement of the assistant's beside it.
          ["Marina's birthday is March 3", 'active', [tom.ids[2], tom.ids[3]]],
          ['My friend Marko lives in Zagreb.', 'active', [tom.ids[4]]],
        ]);
        // The assistant's sentences stay its own statements, current.
        for (const said of ['Marko lives in Split.', 'Ella Fitzgerald works at Verve Records.'])
          assert.deepEqual(await tom.statusOf(said), [['active', null]], said);
      } finally {
        await engine.close();
      }
    });
  });
