import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { RecordCreate } from '../../engine/contract/index.ts';
import { months } from '../../engine/core/retrieve/calendar-words.ts';
import { createMnemoClient, type MnemoClient } from '../../server/client/index.ts';
import { waitForDerivation } from '../../server/import/run-import.ts';
import type { RunningServer } from '../../server/start-server.ts';
import { serveLocal } from './serve-local.ts';

// A real server (the local engine on an encrypted SQLite file) in UTC, asked in the month it runs in:
// its clock is the machine's, so the month asked about is this one.
const DAY = 86_400_000;
const now = new Date();
const month = months[now.getUTCMonth()]!;
// Written with its capital after "for", even "May" is the month (time-expressions.ts).
const Month = month[0]!.toUpperCase() + month.slice(1);
const on = (day: number, hour: number) =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), day, hour)).toISOString();

const events: Array<{ title: string; starts_at: string; ends_at: string }> = [
  { title: 'Globex holiday party', starts_at: on(10, 18), ends_at: on(10, 23) },
  // All day: midnight to midnight UTC, as an imported calendar stores one.
  { title: 'Christmas market', starts_at: on(12, 0), ends_at: on(13, 0) },
  { title: 'Spanish lesson', starts_at: on(1, 17), ends_at: on(1, 18) },
  { title: 'Spanish lesson', starts_at: on(8, 17), ends_at: on(8, 18) },
];
const chats = [
  "I'm planning a trip to Kyoto next March",
  'Berlin planning call went well',
  'Globex planning doc is due',
  'We are planning the garden for spring',
  'Planning to repaint the kitchen soon',
  'The planning meeting with Ana ran long',
  'Started planning my reading list for next year',
  'I love the cafe near the office',
  'My sister lives in Porto',
];

describe('a question naming a window is answered first by the events dated in it', () => {
  let root: string;
  let server: RunningServer;
  let client: MnemoClient;
  const eventIds: string[] = [];
  const planningIds: string[] = [];
  let kyotoId = '';

  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'mnemo-plans-'));
    const served = await serveLocal(root, { timeZone: 'UTC' });
    server = served.server;
    client = createMnemoClient({ baseUrl: server.url, apiKey: served.key });
    await client.createBrain({ id: 'me', name: 'Me', self: { type: 'person', name: 'Maria Silva' } });
    const remember = async (body: RecordCreate) => {
      return (await client.rememberRecord('me', body)).record.id;
    };
    // Events as an agent writes them: occurred_at left to the moment of writing.
    for (const e of events) eventIds.push(await remember({ content: { kind: 'event', ...e } }));
    // The chats of ten weeks ago: before the month and its planning lead, found by their words alone.
    const said = now.getTime() - 70 * DAY;
    for (const [i, text] of chats.entries()) {
      const id = await remember({
        content: { kind: 'message', speaker: 'user', text },
        occurred_at: new Date(said + i * 60_000).toISOString(),
      });
      if (/planning/iu.test(text)) planningIds.push(id);
      if (text.includes('Kyoto')) kyotoId = id;
    }
    await waitForDerivation(client, 'me');
  });
  after(async () => {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  });

  const cited = async (query: string) => {
    const { context } = await client.createContext('me', { query });
    assert.equal(context.status, 'ready');
    return context.citations.map((c) => c.record_id);
  };

  it(`"What are my plans for ${Month}?" cites the month's events first, earliest first, then the planning chats`, async () => {
    const ids = await cited(`What are my plans for ${Month}?`);
    // By date: the lessons of the 1st and 8th, the party of the 10th, the market of the 12th.
    assert.deepEqual(ids.slice(0, 4), [eventIds[2], eventIds[3], eventIds[0], eventIds[1]]);
    for (const id of planningIds) assert.ok(ids.indexOf(id) > 3, `planning chat ${id} after the events`);
  });

  it('"What are my plans?" names no window: the planning chats lead, as before', async () => {
    const ids = await cited('What are my plans?');
    assert.deepEqual(new Set(ids.slice(0, planningIds.length)), new Set(planningIds));
  });

  it(`a question saying more than the time ("about Kyoto in ${Month}") is not buried under the month's events`, async () => {
    const ids = await cited(`What did I say about Kyoto in ${Month}?`);
    assert.equal(ids[0], kyotoId);
  });
});
