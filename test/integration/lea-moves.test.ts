import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ContextReady, Memory, RecordCreate } from '../../engine/contract/index.ts';
import type { Engine } from '../../engine/types.ts';
import { bothEngines } from './both-engines.ts';
import { tenant } from './local-helpers.ts';

// Lea's move, a trip moved and a decision reversed, as a round of real use wrote them (use7): her own
// messages on the desktop, then an agent writing her word for her (speaker "user"). Each finding is
// read on both engines: the rules are one, but what they find is read through each adapter.

const engines = await bothEngines();

/** Messages of Lea's and her agent's: [speaker, text, when]. */
type Said = readonly [speaker: string, text: string, at: string];
const message = ([speaker, text, at]: Said): RecordCreate => ({
  content: { kind: 'message', speaker, text },
  occurred_at: at,
});

let brains = 0;
/** A Brain of Lea Horvat's holding these Records, derived: each Record's id, in order. */
async function leas(engine: Engine, records: readonly RecordCreate[]) {
  const id = `lea${++brains}`;
  await engine.createBrain(tenant, { id, self: { type: 'person', name: 'Lea Horvat' } });
  const ids: string[] = [];
  for (const body of records) ids.push((await engine.rememberRecord(tenant, id, body, {})).record.id);
  await engine.idle();
  const memories = async (): Promise<Memory[]> =>
    (await engine.listMemories(tenant, id, { limit: 200, status: 'all' })).data;
  const citing = async (recordId: string) =>
    (await memories()).filter((m) => m.citations.some((c) => c.record_id === recordId));
  const ask = async (query: string) => {
    const context = (await engine.createContext(tenant, id, { query }, { requestId: 'r' })) as ContextReady;
    assert.equal(context.status, 'ready');
    return { order: context.citations.map((c) => c.record_id), text: context.text ?? '' };
  };
  const profile = async () =>
    (await engine.getProfile(tenant, id, { limit: 50 })).lines.map((l) => l.statement);
  return { id, ids, memories, citing, ask, profile };
}

for (const [name, opened] of engines)
  describe(`on ${name}`, () => {
    it('an address said and then corrected is one home: the newest is where she lives', async () => {
      const engine = await opened();
      try {
        const moving =
          "I'm moving out of my flat on Ilica 42 next Saturday. The new flat is at Vlaška 17 in Zagreb, third floor.";
        const lea = await leas(
          engine,
          [
            ['Lea Horvat', moving, '2026-11-25T18:10:00Z'],
            [
              'Lea Horvat',
              'I now live at Vlaška 17. The move is done, all boxes unpacked.',
              '2026-12-02T07:00:00Z',
            ],
            [
              'user',
              "Lea's new address is Vlaška 71, not 17 — the landlord's letter had a typo.",
              '2026-12-05T08:00:00Z',
            ],
          ].map((s) => message(s as unknown as Said)),
        );
        const [movingId, nowId, fixId] = lea.ids as [string, string, string];
        const versions = (await lea.memories())
          .filter((m) => m.predicate === 'lives in')
          .map((m) => [m.statement, m.status, m.valid_from, m.valid_to]);
        assert.deepEqual(
          versions.sort(),
          [
            [
              "I'm moving out of my flat on Ilica 42 next Saturday.",
              'superseded',
              '2026-11-25T18:10:00Z',
              '2026-11-28T00:00:00.000Z',
            ],
            // The number corrected, in the city the new flat was said to be in.
            ['Lea Horvat lives at Vlaška 71, Zagreb', 'active', '2026-12-05T08:00:00Z', null],
            [
              'The new flat is at Vlaška 17 in Zagreb, third floor.',
              'superseded',
              '2026-11-28T00:00:00.000Z',
              '2026-12-05T08:00:00Z',
            ],
          ].sort(),
        );
        // "I now live at Vlaška 17" is the same home as the new flat, a citation of it.
        assert.deepEqual((await lea.citing(nowId)).map((m) => [m.statement, m.status]).sort(), [
          ['The move is done, all boxes unpacked.', 'active'],
          ['The new flat is at Vlaška 17 in Zagreb, third floor.', 'superseded'],
        ]);
        assert.ok((await lea.citing(movingId)).every((m) => m.status === 'superseded'));
        const profile = await lea.profile();
        assert.ok(profile.includes('Lea Horvat lives at Vlaška 71, Zagreb'), profile.join('\n'));
        assert.ok(!profile.some((l) => /Ilica|Vlaška 17/u.test(l)), profile.join('\n'));
        const { order, text } = await lea.ask('Where does Lea live?');
        assert.equal(order[0], fixId, text);
      } finally {
        await engine.close();
      }
    });

    it("a trip moved supersedes both her booking and her calendar's event of it", async () => {
      const engine = await opened();
      try {
        const flight = {
          kind: 'event' as const,
          title: 'Flight to Lisbon with Marko',
          starts_at: '2026-12-12T06:05:00Z',
          ends_at: '2026-12-15T21:00:00Z',
          participants: ['Lea Horvat', 'Marko'],
          place: 'Lisbon',
        };
        const booked = 'Booked the trip to Lisbon with Marko for December 12 to 15.';
        const moved =
          'We moved the Lisbon trip: it is now January 9 to 12, because the Atlas launch review is on December 14.';
        // The event written by an app on the day it was booked, as on her desktop, or dated by its
        // start, as an import dates it: after the change.
        for (const eventAt of ['2026-11-28T13:00:00Z', flight.starts_at]) {
          const lea = await leas(engine, [
            { content: flight, occurred_at: eventAt },
            message(['Lea Horvat', booked, '2026-11-28T13:05:00Z']),
            message(['user', moved, '2026-12-03T08:15:00Z']),
          ]);
          const [eventId, bookedId, movedId] = lea.ids as [string, string, string];
          const all = JSON.stringify((await lea.memories()).map((m) => [m.statement, m.status]));
          for (const id of [eventId, bookedId])
            assert.deepEqual(
              (await lea.citing(id)).map((m) => [m.status, m.owner.state]),
              [['superseded', 'self']],
              `${eventAt}: ${all}`,
            );
          // Each one's next version is the move, hers.
          assert.deepEqual(
            (await lea.citing(movedId)).map((m) => [m.statement, m.status, m.version, m.owner.state]),
            [
              [moved, 'active', 2, 'self'],
              [moved, 'active', 2, 'self'],
            ],
          );
          const profile = await lea.profile();
          assert.ok(!profile.some((l) => /December 12|2026-12-12/u.test(l)), profile.join('\n'));
        }
      } finally {
        await engine.close();
      }
    });

    it('a decision reversed, and a choice said in place of it, supersede the decision', async () => {
      const engine = await opened();
      try {
        const decided = 'Atlas kickoff: we decided to build the onboarding flow in React Native.';
        const reversal =
          'Atlas review: we reversed the kickoff decision. The onboarding flow will be native Swift and Kotlin, not React Native.';
        const lea = await leas(
          engine,
          [
            ['Lea Horvat', decided, '2026-12-01T15:00:00Z'],
            ['Lea Horvat', 'We decided to use Figma for the mockups.', '2026-12-01T15:30:00Z'],
            ['Lea Horvat', 'React Native has a big community.', '2026-12-02T09:00:00Z'],
            ['user', reversal, '2026-12-03T16:30:00Z'],
            // In place of what was chosen, said alone: it needs a choice of it before to replace.
            ['Lea Horvat', 'The mockups will be in Figma, not Sketch.', '2026-12-04T10:00:00Z'],
          ].map((s) => message(s as unknown as Said)),
        );
        const [decidedId, figmaId, communityId, reversalId] = lea.ids as [string, string, string, string];
        const old = await lea.citing(decidedId);
        assert.deepEqual(
          old.map((m) => [m.statement, m.status, m.valid_to]),
          [[decided, 'superseded', '2026-12-03T16:30:00Z']],
        );
        assert.deepEqual(
          (await engine.getMemory(tenant, lea.id, old[0]!.id)).revisions.map((r) => r.statement),
          [decided, 'Atlas review: we reversed the kickoff decision.'],
        );
        for (const id of [figmaId, communityId])
          assert.deepEqual(
            (await lea.citing(id)).map((m) => m.status),
            ['active'],
          );
        const { order, text } = await lea.ask('What did we decide for the Atlas onboarding?');
        assert.equal(order[0], reversalId, text);
      } finally {
        await engine.close();
      }
    });
  });
