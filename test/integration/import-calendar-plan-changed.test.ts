import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { postgresStorageOver } from '../../engine/adapters/postgres/storage.ts';
import { migratedPglite } from '../../engine/adapters/postgres/testing/fixtures.ts';
import type { Memory } from '../../engine/contract/index.ts';
import { openPostgresEngine } from '../../engine/index.ts';
import { createMnemoClient, type MnemoClient } from '../../server/client/index.ts';
import { parseIcs } from '../../server/import/formats/ics.ts';
import { parseWhatsapp } from '../../server/import/formats/whatsapp.ts';
import { runImport, waitForDerivation } from '../../server/import/run-import.ts';
import { collect, icsOf, writeTree } from '../../server/import/test-support.ts';
import type { RunningServer } from '../../server/start-server.ts';
import { serveLocal } from './serve-local.ts';
import { tenant } from './local-helpers.ts';

// Zoë's calendar, her daily note and her WhatsApp chat with Marko, imported as
// `mnemo import` reads them, then an agent writing her word that the dentist moved her appointment. The
// calendar's events begin where they are held, after the change is said.
const calendar = icsOf(
  [
    'UID:dentist-2026-12-10@example',
    'DTSTAMP:20261201T100000Z',
    'DTSTART;TZID=Europe/Lisbon:20261210T093000',
    'DTEND;TZID=Europe/Lisbon:20261210T103000',
    'SUMMARY:Dentist – Dr. Ferreira',
    'LOCATION:Clínica Dentária da Boavista\\, Porto',
  ],
  [
    'UID:bookclub-2026-12-17@example',
    'DTSTAMP:20261126T130000Z',
    'DTSTART;TZID=Europe/Lisbon:20261217T190000',
    'DTEND;TZID=Europe/Lisbon:20261217T210000',
    'SUMMARY:Book club – Os Maias',
    'LOCATION:Café Candelabro',
    'ATTENDEE;CN=Inês Duarte:mailto:ines.duarte@example.pt',
  ],
  [
    'UID:zagreb-xmas@example',
    'DTSTAMP:20261101T100000Z',
    'DTSTART;VALUE=DATE:20261223',
    'DTEND;VALUE=DATE:20261228',
    'SUMMARY:Christmas in Zagreb with Mama',
  ],
);
const chat = `28/11/2026, 20:14 - Marko Babić: Did you get the job??
02/12/2026, 18:40 - Zoë Kovač: GOT IT. Sonae, starting 11 January
02/12/2026, 18:41 - Marko Babić: Bravo!! Drinks when you're in Zagreb for Christmas
02/12/2026, 18:42 - Zoë Kovač: Deal. I land on the 23rd
04/12/2026, 09:03 - Zoë Kovač: Bad news: the Christmas trip to Zagreb is off, Mama is coming to Porto instead
04/12/2026, 09:05 - Marko Babić: Ah šteta! Next time then
`;
const dailyNote = `# 2026-12-02

Got the offer from Sonae! Starting 11 January 2027. Need to hand in notice at Critical Software by Friday.
Dentist on Thursday 10 December at 9:30, Dr. Ferreira.
`;

const dentist =
  'Dentist – Dr. Ferreira; when: 2026-12-10T09:30:00+00:00 to 2026-12-10T10:30:00+00:00; where: Clínica Dentária da Boavista, Porto';
const christmas = 'Christmas in Zagreb with Mama; when: 2026-12-23 to 2026-12-27';
const bookClub =
  'Book club – Os Maias; when: 2026-12-17T19:00:00+00:00 to 2026-12-17T21:00:00+00:00; where: Café Candelabro; who: Inês Duarte';
const noteLine = 'Dentist on Thursday 10 December at 9:30, Dr. Ferreira.';
const moved = 'The dentist moved my appointment from Thursday to Friday 11 December.';
const off = 'Bad news: the Christmas trip to Zagreb is off, Mama is coming to Porto instead';

describe("a calendar's events still to come, then her word that one moved and one is off", () => {
  const files = writeTree({
    'cal/calendar.ics': calendar,
    'chat/WhatsApp Chat with Marko Babić.txt': chat,
    'Notes/Daily/2026-12-02.md': dailyNote,
  });
  let server: RunningServer;
  let client: MnemoClient;
  let movedId: string;

  before(async () => {
    const served = await serveLocal(files.root, { timeZone: 'Europe/Lisbon' });
    server = served.server;
    client = createMnemoClient({ baseUrl: server.url, apiKey: served.key });
    await client.createBrain({ id: 'zoe', name: 'Zoë', self: { type: 'person', name: 'Zoë Kovač' } });
    for (const path of ['Notes', 'cal/calendar.ics', 'chat/WhatsApp Chat with Marko Babić.txt']) {
      const done = await runImport({
        client,
        brainId: 'zoe',
        path: join(files.root, path),
        timeZone: 'Europe/Lisbon',
      });
      assert.equal(done.failed, 0, path);
    }
    await waitForDerivation(client, 'zoe');
    movedId = (
      await client.rememberRecord('zoe', {
        content: { kind: 'message', speaker: 'Zoë Kovač', thread: 'chat-2026-12', text: moved },
        occurred_at: '2026-12-04T12:00:00Z',
        source: { name: 'claude-desktop', trust: 'medium' },
      })
    ).record.id;
    await waitForDerivation(client, 'zoe');
  });
  after(async () => {
    await server.close();
    files.remove();
  });

  const memories = async (): Promise<Memory[]> =>
    (await client.listMemories('zoe', { limit: 200, status: 'all' })).data;
  const statusOf = async (statement: string) =>
    (await memories()).filter((m) => m.statement === statement).map((m) => m.status);
  /** The Records a Context for `query` cites, in order, and its text. */
  const ask = async (query: string) => {
    const { context } = await client.createContext('zoe', { query });
    assert.ok(context.status === 'ready');
    return { order: context.citations.map((c) => c.record_id), text: context.text ?? '' };
  };
  const recordOf = async (words: string) =>
    (await client.listRecords('zoe', { limit: 100 })).data.find((r) =>
      JSON.stringify(r.content).includes(words),
    )!.id;

  it("supersedes the calendar's dentist event from its start, as it does her note's line", async () => {
    assert.deepEqual(await statusOf(dentist), ['superseded']);
    assert.deepEqual(await statusOf(noteLine), ['superseded']);
    const event = (await memories()).find((m) => m.statement === dentist)!;
    // Changed before its day, it never held: closed where it would have begun.
    assert.equal(event.valid_to, event.valid_from);
    const detail = await client.getMemory('zoe', event.id);
    assert.deepEqual(
      detail.revisions.map((r) => [r.statement, r.status]),
      [
        [dentist, 'superseded'],
        [moved, 'active'],
      ],
    );
    // Another plan of the calendar's stays.
    assert.deepEqual(await statusOf(bookClub), ['active']);
  });

  it("supersedes the calendar's Christmas in Zagreb with her word that the trip there is off", async () => {
    assert.deepEqual(await statusOf(christmas), ['superseded']);
    const event = (await memories()).find((m) => m.statement === christmas)!;
    const detail = await client.getMemory('zoe', event.id);
    assert.deepEqual(
      detail.revisions.map((r) => [r.statement, r.status]),
      [
        [christmas, 'superseded'],
        [off, 'active'],
      ],
    );
    // Her word, as hers: the version the event's lineage takes, the one Memory the call-off is.
    assert.deepEqual(
      (await memories()).filter((m) => m.statement === off).map((m) => [m.status, m.version, m.owner.state]),
      [['active', 2, 'self']],
    );
  });

  it('"What are my plans for December?" leads with the move and the call-off, each before its event', async () => {
    const [dentistEvent, christmasEvent, offId] = [
      await recordOf('Dentist – Dr. Ferreira'),
      await recordOf('Christmas in Zagreb'),
      await recordOf('the Christmas trip to Zagreb is off'),
    ];
    // The year said: "December" alone is the one of the clock the test runs at.
    const { order, text } = await ask('What are my plans for December 2026?');
    const first = (change: string, event: string) =>
      order.includes(change) && (!order.includes(event) || order.indexOf(change) < order.indexOf(event));
    assert.ok(first(movedId, dentistEvent), text);
    assert.ok(first(offId, christmasEvent), text);
    assert.ok(order[0] !== dentistEvent && order[0] !== christmasEvent, text);
  });

  it('"When is my dentist appointment?" leads with the move, the Dec 10 event not beside it', async () => {
    const dentistEvent = await recordOf('Dentist – Dr. Ferreira');
    const { order, text } = await ask('When is my dentist appointment?');
    assert.equal(order[0], movedId, text);
    assert.ok(!order.includes(dentistEvent), text);
  });

  it('forgetting the move, and the chat that called the trip off, brings the events back', async () => {
    await client.forgetRecord('zoe', movedId);
    await client.forgetSource('zoe', 'whatsapp');
    await waitForDerivation(client, 'zoe');
    assert.deepEqual(await statusOf(dentist), ['active']);
    assert.deepEqual(await statusOf(christmas), ['active']);
    assert.deepEqual(await statusOf(noteLine), ['active']);
  });
});

// The same over PostgreSQL (PGlite), whose adapter reads the events still to come its own way.
describe('on PostgreSQL (PGlite): the calendar imported, then the trip called off in the chat', () => {
  it("supersedes the calendar's Christmas in Zagreb, not its book club", async () => {
    const files = writeTree({ 'calendar.ics': calendar, 'WhatsApp Chat with Marko Babić.txt': chat });
    const pg = await migratedPglite();
    const { engine } = await openPostgresEngine(
      { open: () => postgresStorageOver({ ...pg, close: async () => {} }) },
      { deployment: 'local' },
    );
    try {
      await engine.createBrain(tenant, { id: 'zoe', self: { type: 'person', name: 'Zoë Kovač' } });
      const o = { timeZone: 'Europe/Lisbon', selfName: 'Zoë Kovač' };
      for (const items of [
        parseIcs(join(files.root, 'calendar.ics'), o),
        parseWhatsapp(join(files.root, 'WhatsApp Chat with Marko Babić.txt'), o),
      ])
        for (const r of (await collect(items)).records)
          await engine.rememberRecord(tenant, 'zoe', r.body, {});
      await engine.idle();
      const all = (await engine.listMemories(tenant, 'zoe', { limit: 100, status: 'all' })).data;
      const statusOf = (statement: string) =>
        all.filter((m) => m.statement === statement).map((m) => m.status);
      assert.deepEqual(statusOf(christmas), ['superseded']);
      assert.deepEqual(statusOf(bookClub), ['active']);
      assert.deepEqual(statusOf(dentist), ['active']);
    } finally {
      await engine.close();
      files.remove();
    }
  });
});
