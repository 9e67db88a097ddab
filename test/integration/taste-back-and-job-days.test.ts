import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ContextReady, RecordCreate } from '../../engine/contract/index.ts';
import type { Engine } from '../../engine/types.ts';
import { bothEngines } from './both-engines.ts';
import { tenant } from './local-helpers.ts';

/*
 * Tom loved his espresso, quit coffee, and was back on it ten days later: all three
 * stayed current and "Do I drink coffee?" quoted the quitting first. He said "Last day at Span." and
 * "First day at Infobip!" on those days, and the job changed only when an agent's `employer` fact came
 * four days later, so on 30 November he still worked at Span.
 */
const engines = await bothEngines({ timeZone: 'Europe/Zagreb' });

/** A Brain of Tom's holding these messages of his, each derived before the next: their Records' ids. */
async function brainSaying(engine: Engine, brain: string, said: ReadonlyArray<[string, string]>) {
  await engine.createBrain(tenant, { id: brain, self: { type: 'person', name: 'Tomislav Kovačević' } });
  const ids: string[] = [];
  for (const [text, at] of said) {
    const content: RecordCreate['content'] = { kind: 'message', speaker: 'Tomislav Kovačević', text };
    ids.push((await engine.rememberRecord(tenant, brain, { content, occurred_at: at }, {})).record.id);
    await engine.idle();
  }
  return ids;
}

const all = async (engine: Engine, brain: string) =>
  await engine.listMemories(tenant, brain, { limit: 100, status: 'all' } as never);

/** The Records a question's Context cites, in its order. */
async function cited(engine: Engine, brain: string, query: string, asOf?: string) {
  const c = (await engine.createContext(
    tenant,
    brain,
    { query, include: ['citations'], ...(asOf !== undefined ? { as_of: asOf } : {}) },
    { requestId: 'req_t' },
  )) as ContextReady;
  return c.citations.map((x) => x.record_id);
}

for (const [name, openEngine] of engines) {
  describe(`${name}: a taste quit, then taken up again`, () => {
    it('the quitting supersedes the espresso, the return supersedes the quitting, and the newest leads', async () => {
      const engine = await openEngine();
      try {
        const [espresso, quitting, back] = await brainSaying(engine, 'coffee', [
          ['I love a strong espresso every morning.', '2026-11-09T08:13:00+01:00'],
          ["I'm quitting coffee, only green tea from now on.", '2026-11-24T08:00:00+01:00'],
          ["I'm back on coffee, one cup a day.", '2026-12-04T10:00:00+01:00'],
        ]);
        const memories = (await all(engine, 'coffee')).data;
        const of = (id: string | undefined) =>
          memories.filter((m) => m.citations.some((c) => c.record_id === id));
        assert.deepEqual(
          [espresso, quitting, back].map((id) => of(id).map((m) => [m.status, m.valid_from, m.valid_to])),
          [
            [['superseded', '2026-11-09T08:13:00+01:00', '2026-11-24T08:00:00+01:00']],
            [['superseded', '2026-11-24T08:00:00+01:00', '2026-12-04T10:00:00+01:00']],
            [['active', '2026-12-04T10:00:00+01:00', null]],
          ],
        );
        // One lineage: the Memory's history says what ended the taste and what brought it back.
        const detail = await engine.getMemory(tenant, 'coffee', of(back)[0]!.id);
        assert.deepEqual(
          detail.revisions.map((r) => [r.statement, r.cause]),
          [
            ['I love a strong espresso every morning.', 'derived'],
            ["I'm quitting coffee, only green tea from now on.", 'superseded_by_record'],
            ["I'm back on coffee, one cup a day.", 'superseded_by_record'],
          ],
        );
        assert.equal((await cited(engine, 'coffee', 'Do I drink coffee?'))[0], back);
        // In between, the quitting is what held.
        assert.equal(
          (await cited(engine, 'coffee', 'Do I drink coffee?', '2026-11-30T12:00:00+01:00'))[0],
          quitting,
        );
      } finally {
        await engine.close();
      }
    });
  });

  describe(`${name}: a job's last and first day, said on the day`, () => {
    it('"Last day at Span." ends the job that day, "First day at Infobip!" starts the next; a later fact agrees', async () => {
      const engine = await openEngine();
      try {
        const [, , lastDay, firstDay] = await brainSaying(engine, 'jobs', [
          ['I work as a backend developer at Span.', '2026-11-09T08:10:00+01:00'],
          ['I handed in my notice at Span today. Last day is November 28.', '2026-11-16T15:00:00+01:00'],
          [
            'Last day at Span. They gave me a farewell lunch at Pod Gričkim Topom.',
            '2026-11-28T17:00:00+01:00',
          ],
          ['First day at Infobip! The team is six people.', '2026-12-01T09:00:00+01:00'],
        ]);
        const fact = await engine.rememberRecord(
          tenant,
          'jobs',
          {
            content: { kind: 'fact', subject: 'Tomislav Kovačević', predicate: 'employer', value: 'Infobip' },
            occurred_at: '2026-12-05T12:00:00+01:00',
          },
          {},
        );
        await engine.idle();
        const jobs = (await all(engine, 'jobs')).data
          .filter((m) => m.predicate === 'works at')
          .map((m) => [m.statement, m.status, m.valid_from, m.valid_to, m.citations.map((c) => c.record_id)]);
        assert.deepEqual(jobs, [
          [
            'Tomislav Kovačević works at Span',
            'superseded',
            '2026-11-09T08:10:00+01:00',
            '2026-11-28T17:00:00+01:00',
            jobs[0]![4],
          ],
          [
            'Tomislav Kovačević no longer works at Span',
            'superseded',
            '2026-11-28T17:00:00+01:00',
            '2026-12-01T09:00:00+01:00',
            [lastDay],
          ],
          // The fact cites the job its first day began: no change of its own.
          [
            'Tomislav Kovačević works at Infobip',
            'active',
            '2026-12-01T09:00:00+01:00',
            null,
            [firstDay, fact.record.id],
          ],
        ]);
        // On 30 November he works nowhere: the last day leads, not the Span of before.
        assert.equal(
          (await cited(engine, 'jobs', 'Where do I work?', '2026-11-30T12:00:00+01:00'))[0],
          lastDay,
        );
      } finally {
        await engine.close();
      }
    });
  });

  describe(`${name}: what ends no taste and starts no job`, () => {
    it("quitting for someone's sake ends the taste as quitting does", async () => {
      const engine = await openEngine();
      try {
        const [espresso, quitting] = await brainSaying(engine, 'wife', [
          ['I love a strong espresso every morning.', '2026-11-09T08:13:00+01:00'],
          ['I quit coffee for my wife.', '2026-11-24T08:00:00+01:00'],
        ]);
        const memories = (await all(engine, 'wife')).data;
        const of = (id: string | undefined) =>
          memories.filter((m) => m.citations.some((c) => c.record_id === id)).map((m) => m.status);
        assert.deepEqual([of(espresso), of(quitting)], [['superseded'], ['active']]);
      } finally {
        await engine.close();
      }
    });

    it('quitting for a name ends the taste where a person is known by it', async () => {
      const engine = await openEngine();
      try {
        const [, espresso, quitting] = await brainSaying(engine, 'petra', [
          ['Petra Novak works as a doctor at KBC Zagreb.', '2026-11-02T08:00:00+01:00'],
          ['I love a strong espresso every morning.', '2026-11-09T08:13:00+01:00'],
          ['I quit coffee for Petra.', '2026-11-24T08:00:00+01:00'],
        ]);
        const memories = (await all(engine, 'petra')).data;
        const of = (id: string | undefined) =>
          memories.filter((m) => m.citations.some((c) => c.record_id === id)).map((m) => m.status);
        assert.deepEqual([of(espresso), of(quitting)], [['superseded'], ['active']]);
      } finally {
        await engine.close();
      }
    });

    it('"no more" of a day, a place or the kids, a stop for a while and another\'s words end nothing', async () => {
      const engine = await openEngine();
      try {
        const tastes = [
          'I love meetings with my team.',
          'I drink coffee every morning.',
          'I love chocolate.',
          'I love espresso.',
          'I drink wine with dinner.',
        ];
        await brainSaying(engine, 'tastes', [
          ...tastes.map((t, i): [string, string] => [t, `2026-11-09T08:1${i}:00+01:00`]),
          ...[
            'No more meetings today, thank god.',
            'No more coffee in the office, the machine broke.',
            'No more chocolate for the kids before dinner.',
            'I quit coffee for Lent',
            'I stopped coffee for a week while I had the flu',
            'I quit wine for January, dry January!',
            'No more chocolate until Christmas!',
            'No more coffee after 6pm for me',
            'Marko said: I quit coffee.',
            // A day, a feast or a challenge by its name is no one's sake (review9a M4).
            'I quit coffee for Dry January.',
            'I quit wine for Thanksgiving.',
          ].map((t, i): [string, string] => [t, `2026-11-${20 + i}T09:00:00+01:00`]),
        ]);
        const memories = (await all(engine, 'tastes')).data;
        assert.deepEqual(
          memories.filter((m) => tastes.includes(m.statement)).map((m) => [m.statement, m.status]),
          tastes.map((t) => [t, 'active']),
        );
        assert.deepEqual(
          memories.filter((m) => m.status !== 'active').map((m) => m.statement),
          [],
        );
      } finally {
        await engine.close();
      }
    });

    it('a first day at a conference, a festival or a place keeps the job; at a bare name, moves it', async () => {
      const engine = await openEngine();
      try {
        await brainSaying(engine, 'firsts', [
          ['I work as a backend developer at Span.', '2026-11-09T08:10:00+01:00'],
          ['First day at Web Summit!', '2026-11-10T09:00:00+01:00'],
          ['First day at Disneyland!', '2026-11-11T09:00:00+01:00'],
          ['First day at Lake Bled 🎉', '2026-11-12T09:00:00+01:00'],
          ['First day at Coachella!', '2026-11-13T09:00:00+01:00'],
          ['Today is my first day at Coachella!', '2026-11-14T09:00:00+01:00'],
          ['First day at Infobip!', '2026-12-01T09:00:00+01:00'],
        ]);
        const memories = (await all(engine, 'firsts')).data;
        // Neither festival post holds the slot, so Infobip's first day moves the job.
        assert.deepEqual(
          memories
            .filter((m) => m.predicate === 'works at')
            .map((m) => [m.statement, m.status])
            .sort(),
          [
            ['Tomislav Kovačević works at Infobip', 'active'],
            ['Tomislav Kovačević works at Span', 'superseded'],
          ],
        );
        // Each event's is the sentence as said, current beside the job.
        assert.deepEqual(
          memories
            .filter((m) => /first day/iu.test(m.statement))
            .map((m) => [m.statement, m.status, m.predicate])
            .sort(),
          [
            ['First day at Coachella!', 'active', null],
            ['First day at Disneyland!', 'active', null],
            ['First day at Lake Bled 🎉', 'active', null],
            ['First day at Web Summit!', 'active', null],
            ['Today is my first day at Coachella!', 'active', null],
          ],
        );
      } finally {
        await engine.close();
      }
    });
  });
}
