import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RecordCreate } from '../../engine/contract/index.ts';
import type { Engine } from '../../engine/types.ts';
import { bothEngines } from './both-engines.ts';
import { tenant } from './local-helpers.ts';

/*
 * use9 H3: six months of Nina's WhatsApp chat changed her job, her diet and a trip, and made no
 * supersession. "I GOT THE RIMAC JOB! Data analyst, starting 7 September." held no job, "Lisbon is now
 * 10-17 October." moved nothing, and "Ok let's do it: the Lisbon trip is off, …" left the trip current.
 */
const engines = await bothEngines({ timeZone: 'Europe/Zagreb' });

/** A Brain of Nina's holding these messages of hers, each derived before the next: their Records' ids. */
async function brainSaying(engine: Engine, brain: string, said: ReadonlyArray<[string, string]>) {
  await engine.createBrain(tenant, { id: brain, self: { type: 'person', name: 'Nina Babić' } });
  const ids: string[] = [];
  for (const [text, at] of said) {
    const content: RecordCreate['content'] = { kind: 'message', speaker: 'Nina Babić', text };
    ids.push((await engine.rememberRecord(tenant, brain, { content, occurred_at: at }, {})).record.id);
    await engine.idle();
  }
  return ids;
}

/** Each Memory citing each Record, in order: [statement, status, valid_from, valid_to]. */
async function memoriesOf(engine: Engine, brain: string, ids: string[], predicate?: string) {
  const all = (await engine.listMemories(tenant, brain, { limit: 100, status: 'all' } as never)).data;
  return ids.map((id) =>
    all
      .filter((m) => m.citations.some((c) => c.record_id === id))
      .filter((m) => predicate === undefined || m.predicate === predicate)
      .map((m) => [m.statement, m.status, m.valid_from, m.valid_to]),
  );
}

for (const [name, openEngine] of engines) {
  describe(`${name}: a chat's new job, in its own words`, () => {
    it('the shouted news holds the job from the day said next; the old job ends that day', async () => {
      const engine = await openEngine();
      try {
        const ids = await brainSaying(engine, 'rimac', [
          ['I work at company Podravka.', '2026-06-01T09:00:00+02:00'],
          ['I GOT THE RIMAC JOB! Data analyst, starting 7 September.', '2026-08-05T16:45:00+02:00'],
        ]);
        assert.deepEqual(await memoriesOf(engine, 'rimac', ids, 'works at'), [
          [
            [
              'Nina Babić works at Podravka',
              'superseded',
              '2026-06-01T09:00:00+02:00',
              '2026-09-06T22:00:00.000Z',
            ],
          ],
          [['Nina Babić works at Rimac', 'active', '2026-09-06T22:00:00.000Z', null]],
        ]);
      } finally {
        await engine.close();
      }
    });

    it('"First day at Rimac done!" moves the job as "First day at Rimac!" does', async () => {
      const engine = await openEngine();
      try {
        const ids = await brainSaying(engine, 'first', [
          ['I work at company ZetaCorp.', '2026-06-01T09:00:00+02:00'],
          ['First day at Rimac done! The office in Sveta Nedelja is huge.', '2026-09-07T19:00:00+02:00'],
        ]);
        assert.deepEqual(await memoriesOf(engine, 'first', ids, 'works at'), [
          [
            [
              'Nina Babić works at ZetaCorp',
              'superseded',
              '2026-06-01T09:00:00+02:00',
              '2026-09-07T19:00:00+02:00',
            ],
          ],
          [['Nina Babić works at Rimac', 'active', '2026-09-07T19:00:00+02:00', null]],
        ]);
      } finally {
        await engine.close();
      }
    });
  });

  describe(`${name}: a trip booked, moved by its place, then called off for another`, () => {
    it('each supersedes the one before, and the last says the trip that holds', async () => {
      const engine = await openEngine();
      try {
        const ids = await brainSaying(engine, 'lisbon', [
          ['I booked the flights for Lisbon, 12-19 September.', '2026-06-02T19:10:00+02:00'],
          ['Do it. Lisbon is now 10-17 October.', '2026-08-25T21:07:00+02:00'],
          [
            "Ok let's do it: the Lisbon trip is off, we're going to Porto 24-28 October instead.",
            '2026-09-20T22:14:00+02:00',
          ],
        ]);
        assert.deepEqual(await memoriesOf(engine, 'lisbon', ids), [
          [
            [
              'I booked the flights for Lisbon, 12-19 September.',
              'superseded',
              '2026-06-02T19:10:00+02:00',
              '2026-08-25T21:07:00+02:00',
            ],
          ],
          [
            [
              'Lisbon is now 10-17 October.',
              'superseded',
              '2026-08-25T21:07:00+02:00',
              '2026-09-20T22:14:00+02:00',
            ],
          ],
          [
            [
              "Ok let's do it: the Lisbon trip is off, we're going to Porto 24-28 October instead.",
              'active',
              '2026-09-20T22:14:00+02:00',
              null,
            ],
          ],
        ]);
      } finally {
        await engine.close();
      }
    });

    it('a trip said as going there is called off by the later clause too', async () => {
      const engine = await openEngine();
      try {
        const ids = await brainSaying(engine, 'going', [
          ["We're going to Lisbon 12-19 September.", '2026-06-02T19:10:00+02:00'],
          [
            "Ok let's do it: the Lisbon trip is off, we're going to Porto 24-28 October instead.",
            '2026-09-20T22:14:00+02:00',
          ],
        ]);
        const [going, off] = await memoriesOf(engine, 'going', ids);
        assert.deepEqual(
          going!.map((m) => m[1]),
          ['superseded'],
        );
        assert.deepEqual(
          off!.map((m) => m[1]),
          ['active'],
        );
      } finally {
        await engine.close();
      }
    });
  });

  describe(`${name}: how a surgery went, said of no one before news of Mama`, () => {
    it("is Mama's, no health line of Nina's; an allergy said alone stays hers", async () => {
      const engine = await openEngine();
      try {
        const [surgery, allergy] = await brainSaying(engine, 'health', [
          [
            'Surgery went fine! Mama is in recovery, the doctor says 6 weeks of physio.',
            '2026-11-04T15:00:00+01:00',
          ],
          ['Allergic to penicillin.', '2026-11-05T10:00:00+01:00'],
        ]);
        const all = (await engine.listMemories(tenant, 'health', { limit: 100, status: 'all' } as never))
          .data;
        const of = (id: string | undefined) =>
          all
            .filter((m) => m.citations.some((c) => c.record_id === id))
            .map((m) => [m.statement, m.subject, m.owner.state]);
        assert.deepEqual(of(surgery), [
          ['Surgery went fine!', 'Mama', 'other'],
          ['Mama is in recovery, the doctor says 6 weeks of physio.', 'Nina Babić', 'self'],
        ]);
        assert.deepEqual(of(allergy), [['Allergic to penicillin.', 'Nina Babić', 'self']]);
        const profile = await engine.getProfile(tenant, 'health', { limit: 50 });
        assert.deepEqual(
          profile.lines.filter((l) => l.group === 'health').map((l) => l.statement),
          ['Allergic to penicillin.'],
        );
      } finally {
        await engine.close();
      }
    });
  });

  describe(`${name}: what a named person takes and avoids, said in Nina's chat`, () => {
    it("is that person's, no health line of Nina's", async () => {
      const engine = await openEngine();
      try {
        const ids = await brainSaying(engine, 'told', [
          ['Marta takes insulin every morning.', '2026-11-04T15:00:00+01:00'],
          ['Marta is avoiding gluten.', '2026-11-04T15:01:00+01:00'],
          ['Lena left the company.', '2026-11-04T15:02:00+01:00'],
          ['I take vitamin D in winter.', '2026-11-04T15:03:00+01:00'],
        ]);
        const all = (await engine.listMemories(tenant, 'told', { limit: 100, status: 'all' } as never)).data;
        assert.deepEqual(
          ids.map((id) =>
            all
              .filter((m) => m.citations.some((c) => c.record_id === id))
              .map((m) => [m.subject, m.owner.state]),
          ),
          [[['Marta', 'other']], [['Marta', 'other']], [['Lena', 'other']], [['Nina Babić', 'self']]],
        );
        const profile = await engine.getProfile(tenant, 'told', { limit: 50 });
        assert.deepEqual(
          profile.lines.map((l) => l.statement),
          ['I take vitamin D in winter.'],
        );
      } finally {
        await engine.close();
      }
    });
  });

  describe(`${name}: a plan's day said again, "not" the day it had`, () => {
    it('supersedes the plan as first said; one said again after "Actually," too', async () => {
      const engine = await openEngine();
      try {
        const ids = await brainSaying(engine, 'mended', [
          ['My dentist appointment is on Monday at 14:00.', '2026-10-01T09:00:00+02:00'],
          ['Actually my dentist appointment is on Tuesday, not Monday.', '2026-10-02T09:00:00+02:00'],
          ['The standup is on Monday at 9:30.', '2026-10-03T09:00:00+02:00'],
          ['Sorry, I got that wrong: the standup is on Wednesday.', '2026-10-03T09:05:00+02:00'],
        ]);
        assert.deepEqual(
          (await memoriesOf(engine, 'mended', ids)).map((ms) =>
            ms.map(([statement, status]) => [statement, status]),
          ),
          [
            [['My dentist appointment is on Monday at 14:00.', 'superseded']],
            [['Actually my dentist appointment is on Tuesday, not Monday.', 'active']],
            [['The standup is on Monday at 9:30.', 'superseded']],
            [['Sorry, I got that wrong: the standup is on Wednesday.', 'active']],
          ],
        );
      } finally {
        await engine.close();
      }
    });
  });

  describe(`${name}: another person's home, and what "she" does after it`, () => {
    it('her move replaces the home and leaves her job and her diet current', async () => {
      const engine = await openEngine();
      try {
        const ids = await brainSaying(engine, 'lea', [
          ['My sister Lea lives in Lisbon, and she works at Google.', '2026-10-01T09:00:00+02:00'],
          ['Lea moved to Porto.', '2026-11-01T09:00:00+01:00'],
        ]);
        const [first] = await memoriesOf(engine, 'lea', ids);
        assert.deepEqual(
          first!.map(([statement, status]) => [statement, status]),
          [
            ['My sister Lea lives in Lisbon', 'superseded'],
            ['Lea works at Google', 'active'],
            ["Nina Babić's sister is Lea", 'active'],
          ],
        );
      } finally {
        await engine.close();
      }
    });
  });

  describe(`${name}: a diet taken up from a day, then another in a chat's words`, () => {
    it('"so pescatarian now" supersedes "I\'m going vegetarian from today"', async () => {
      const engine = await openEngine();
      try {
        const ids = await brainSaying(engine, 'diet', [
          ["I've decided: I'm going vegetarian from today. No more meat.", '2026-07-03T20:15:00+02:00'],
          [
            "Confession: I'm eating fish again. Vegetarian plus fish, so pescatarian now. Still no meat.",
            '2026-10-30T19:00:00+01:00',
          ],
        ]);
        assert.deepEqual(await memoriesOf(engine, 'diet', ids, 'diet'), [
          [
            [
              "Nina Babić's diet is vegetarian",
              'superseded',
              '2026-07-03T20:15:00+02:00',
              '2026-10-30T19:00:00+01:00',
            ],
          ],
          [["Nina Babić's diet is pescatarian", 'active', '2026-10-30T19:00:00+01:00', null]],
        ]);
      } finally {
        await engine.close();
      }
    });
  });
}
