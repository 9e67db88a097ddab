import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { RecordCreate } from '../../engine/contract/index.ts';
import { openDatabase } from '../../engine/adapters/sqlite/open-database.ts';
import type { Engine } from '../../engine/types.ts';
import { importFiles } from '../../server/import/import-files.ts';
import { key, open, tempDir, tenant } from './local-helpers.ts';

// An all-day event's text says its days as dates, the last inclusive ("when: 2026-12-23 to
// 2026-12-26"); Records written before say UTC midnights with the exclusive end ("… to
// 2026-12-27T00:00:00.000Z") and are never rewritten. Both must be on the same days.

/** A trip from 23 to 26 December 2026, as the calendar importer writes it (DTEND the 27th). */
const trip = (title: string): RecordCreate => ({
  content: {
    kind: 'event',
    title,
    starts_at: '2026-12-23T00:00:00.000Z',
    ends_at: '2026-12-27T00:00:00.000Z',
  },
  source: { name: 'ics', external_id: `ics:${title}` },
  occurred_at: '2026-12-23T00:00:00.000Z',
});

const oldWhen = 'when: 2026-12-23T00:00:00.000Z to 2026-12-27T00:00:00.000Z';

async function written(engine: Engine, body: RecordCreate): Promise<string> {
  const { record } = await engine.rememberRecord(tenant, 'b', body, {});
  return record.id;
}

/** The time lane's candidates for a question. */
async function timeCandidates(engine: Engine, query: string) {
  const c = await engine.createContext(tenant, 'b', { query }, { requestId: 'req_test' });
  assert.equal(c.status, 'ready');
  const trace = await engine.getTrace(tenant, 'b', c.id);
  return trace.lanes.find((l) => l.name === 'time')?.candidates ?? [];
}

/** The Records the time lane finds for a question, by id. */
const timeLane = async (engine: Engine, query: string): Promise<string[]> =>
  (await timeCandidates(engine, query)).map((x) => x.record_id);

describe('an all-day event in the text written before and in the text written now', () => {
  for (const zone of ['America/Los_Angeles', 'Asia/Tokyo']) {
    it(`in ${zone}, is found on its last day and not on the day after its exclusive end`, async () => {
      const dir = tempDir();
      const now = () => new Date('2026-12-05T14:00:00Z');
      let engine = await open(dir, { clock: now, timeZone: zone });
      await engine.createBrain(tenant, { id: 'b', self: { type: 'person', name: 'Ana' } });
      const before = await written(engine, trip('Lisbon trip'));
      const fresh = await written(engine, trip('Porto trip'));
      await engine.idle();
      const statement = async (id: string) =>
        (await engine.getMemory(tenant, 'b', (await engine.getRecord(tenant, 'b', id)).memory_ids[0]!))
          .statement;
      assert.equal(await statement(fresh), 'Porto trip; when: 2026-12-23 to 2026-12-26');
      await engine.close();
      // As a version before this one stored the Lisbon trip.
      const raw = openDatabase({ file: join(dir, 'mnemo.db'), key });
      const texts = () =>
        raw.prepare('SELECT id, text FROM records ORDER BY id').all() as { id: string; text: string }[];
      raw.prepare('UPDATE records SET text = ? WHERE id = ?').run(`Lisbon trip; ${oldWhen}`, before);
      assert.deepEqual(
        texts().map((r) => r.text),
        [`Lisbon trip; ${oldWhen}`, 'Porto trip; when: 2026-12-23 to 2026-12-26'],
      );
      raw.close();
      engine = await open(dir, { clock: now, timeZone: zone });
      try {
        for (const day of ['23', '26'])
          assert.deepEqual(
            (await timeLane(engine, `What am I doing on ${day} December 2026?`)).toSorted(),
            [before, fresh].toSorted(),
            `on the ${day}th`,
          );
        assert.deepEqual(await timeLane(engine, 'What am I doing on 27 December 2026?'), []);
        assert.deepEqual(await timeLane(engine, 'What am I doing on 22 December 2026?'), []);
        // On its first day each occurred then: its own dates are no telling of a day.
        const first = await timeCandidates(engine, 'What am I doing on 23 December 2026?');
        for (const c of first) assert.match(c.reason, /^occurred on 23 December 2026 \(2026-12-23\)/u);
      } finally {
        await engine.close();
      }
    });
  }
});

describe('a calendar pulled from another device in the text written before', () => {
  it('reads on the same days here, and importing the same file here finds it unchanged', async () => {
    const calendar = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'BEGIN:VEVENT',
      'UID:trip',
      'DTSTART;VALUE=DATE:20261223',
      'DTEND;VALUE=DATE:20261227',
      'SUMMARY:Trip',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:dentist',
      'DTSTART:20261208T093000Z',
      'SUMMARY:Dentist',
      'END:VEVENT',
      'BEGIN:VTODO',
      'UID:passport',
      'DTSTAMP:20261201T080000Z',
      'SUMMARY:Renew passport',
      'DUE;VALUE=DATE:20261215',
      'END:VTODO',
      'END:VCALENDAR',
      '',
    ].join('\r\n');
    // The other device imported it before dates were written as dates: its to-do says the instant.
    const there = await open(tempDir());
    const here = await open(tempDir(), { timeZone: 'America/New_York' });
    try {
      for (const e of [there, here])
        await e.createBrain(tenant, { id: 'b', self: { type: 'person', name: 'Ana' } });
      const todo: RecordCreate = {
        content: {
          kind: 'document',
          title: 'To-do: Renew passport',
          text: 'To-do: Renew passport\nDue: 2026-12-15T00:00:00.000Z',
        },
        source: { name: 'ics', external_id: 'ics:passport#vtodo' },
        occurred_at: '2026-12-01T08:00:00.000Z',
      };
      const dentist: RecordCreate = {
        content: {
          kind: 'event',
          title: 'Dentist',
          starts_at: '2026-12-08T09:30:00.000Z',
          ends_at: '2026-12-08T09:30:00.000Z',
        },
        source: { name: 'ics', external_id: 'ics:dentist' },
        occurred_at: '2026-12-08T09:30:00.000Z',
      };
      const tripBody = { ...trip('Trip'), source: { name: 'ics', external_id: 'ics:trip' } };
      for (const body of [tripBody, todo, dentist]) await written(there, body);
      // Sync carries the Records under their ids, without the Idempotency-Keys they were written under.
      const pulled = (await there.listRecords(tenant, 'b', { limit: 50 })).data.toReversed();
      const result = await here.sync!.replicate(
        tenant,
        'b',
        pulled.map((r) => ({
          id: r.id,
          content: r.content as Extract<RecordCreate['content'], { kind: 'event' | 'document' }>,
          source: { name: r.source.name!, external_id: r.source.external_id! },
          visibility: 'shareable' as const,
          occurred_at: r.occurred_at,
        })),
      );
      assert.deepEqual(
        result.data.map((d) => d.outcome),
        ['created', 'created', 'created'],
      );
      await here.idle();
      const held = (await here.listRecords(tenant, 'b', { limit: 50 })).data;
      const tripHere = held.find((r) => r.source.external_id === 'ics:trip')!;
      assert.deepEqual(
        await timeLane(here, 'What am I doing on 26 December 2026?'),
        [tripHere.id],
        'its last day, here in New York',
      );
      assert.deepEqual(await timeLane(here, 'What am I doing on 27 December 2026?'), []);
      const again = await importFiles(here, tenant, 'b', {
        files: [{ name: 'cal.ics', content_base64: Buffer.from(calendar, 'utf8').toString('base64') }],
      });
      assert.deepEqual([again.imported, again.replaced, again.unchanged], [0, 0, 3]);
      assert.equal((await here.listRecords(tenant, 'b', { limit: 50 })).data.length, 3);
    } finally {
      await there.close();
      await here.close();
    }
  });
});
