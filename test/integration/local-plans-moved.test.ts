import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { RecordCreate } from '../../engine/contract/index.ts';
import { createMnemoClient, type MnemoClient } from '../../server/client/index.ts';
import { waitForDerivation } from '../../server/import/run-import.ts';
import type { RunningServer } from '../../server/start-server.ts';
import { serveLocal } from './serve-local.ts';

// The week of use4 H4: an agent's calendar event, Lena's booking of it, then the move in her words.
describe('a plan moved or called off in everyday words', () => {
  let root: string;
  let server: RunningServer;
  let client: MnemoClient;
  const ids: Record<string, string> = {};

  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'mnemo-moves-'));
    const served = await serveLocal(root, { timeZone: 'UTC' });
    server = served.server;
    client = createMnemoClient({ baseUrl: server.url, apiKey: served.key });
    await client.createBrain({ id: 'me', name: 'Me', self: { type: 'person', name: 'Lena Kovac' } });
    const remember = async (key: string, body: RecordCreate) => {
      ids[key] = (await client.rememberRecord('me', body)).record.id;
    };
    const say = (key: string, speaker: string, text: string, at: string) =>
      remember(key, { content: { kind: 'message', speaker, text }, occurred_at: at });
    await remember('event', {
      content: {
        kind: 'event',
        title: 'Dentist (Dr. Horvat)',
        starts_at: '2026-12-08T09:00:00Z',
        ends_at: '2026-12-08T10:00:00Z',
        place: 'Dental clinic Horvat',
      },
      occurred_at: '2026-11-28T10:10:00Z',
    });
    await remember('trip', {
      content: {
        kind: 'event',
        title: 'Lisbon trip',
        starts_at: '2026-12-18T00:00:00Z',
        ends_at: '2026-12-22T23:00:00Z',
        participants: ['Lena Kovac', 'Jonas Weber'],
        place: 'Lisbon',
      },
      occurred_at: '2026-11-29T11:05:00Z',
    });
    await say(
      'booked',
      'Lena Kovac',
      'Morning! I booked the dentist for Tuesday December 8 at 9:00, Dr. Horvat.',
      '2026-11-28T09:10:00Z',
    );
    await say(
      'flights',
      'Jonas Weber',
      'I booked the flights to Lisbon for December 18 to 22, 412 EUR for both of us.',
      '2026-11-29T11:00:00Z',
    );
    await say(
      'moved',
      'Lena Kovac',
      'The dentist called: my appointment moved from Tuesday to Thursday December 10 at 14:30.',
      '2026-12-01T08:30:00Z',
    );
    await say(
      'cannot',
      'Jonas Weber',
      "Bad news: I can't get the days off for Lisbon. We have to cancel the trip.",
      '2026-12-03T07:30:00Z',
    );
    await say(
      'cancelled',
      'Lena Kovac',
      'Oh no. Ok, I cancelled the Lisbon trip. The hotel refunds 300 EUR, the flights are lost.',
      '2026-12-03T07:40:00Z',
    );
    await say(
      'spring',
      'Jonas Weber',
      "Let's go to Lisbon in spring instead, maybe April.",
      '2026-12-03T07:45:00Z',
    );
    await waitForDerivation(client, 'me');
  });
  after(async () => {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  });

  const memories = async () => (await client.listMemories('me', { limit: 100, status: 'all' } as never)).data;
  const statusOf = async (key: string) =>
    (await memories()).filter((m) => m.citations.some((c) => c.record_id === ids[key])).map((m) => m.status);
  const cited = async (query: string) => {
    const { context } = await client.createContext('me', { query });
    return context.citations.map((c) => c.record_id);
  };

  it('"The dentist called: my appointment moved from Tuesday to …" supersedes the booking and the event', async () => {
    assert.deepEqual(await statusOf('booked'), ['superseded']);
    assert.deepEqual(await statusOf('event'), ['superseded']);
    // The event's history says what changed it: its next version is the move, from when it was said.
    const after = (await memories()).filter(
      (m) => m.citations.some((c) => c.record_id === ids['moved']) && m.status === 'active',
    );
    assert.ok(after.length >= 1 && after.every((m) => m.valid_from === '2026-12-01T08:30:00Z'));
  });

  it('"When is the dentist?" leads with the move, the old booking and event after it', async () => {
    const order = await cited('When is the dentist?');
    assert.equal(order[0], ids['moved'], JSON.stringify(order));
    for (const old of ['booked', 'event'])
      assert.ok(!order.includes(ids[old]!) || order.indexOf(ids[old]!) > 0, old);
  });

  it('"What are my plans for December 2026?" gives the moved appointment, not the booking it replaced', async () => {
    const { context } = await client.createContext('me', { query: 'What are my plans for December 2026?' });
    assert.ok(context.status === 'ready');
    const order = context.citations.map((c) => c.record_id);
    assert.ok(order.includes(ids['moved']!), JSON.stringify(order));
    // The booking's Memory held on 1 December, till the move: no plan of December's since.
    for (const old of ['booked', 'event'])
      assert.ok(!order.includes(ids[old]!) || order.indexOf(ids[old]!) > order.indexOf(ids['moved']!), old);
    // Quoted at all, it is marked as past.
    const header = /\n([^\n]*)\nMorning! I booked the dentist/u.exec(context.text ?? '')?.[1];
    if (header !== undefined) assert.match(header, /superseded|held: /u);
  });

  it('"Who is Dr. Horvat?" keeps the moved booking, the only word of him, after its move and marked', async () => {
    const { context } = await client.createContext('me', { query: 'Who is Dr. Horvat?' });
    assert.ok(context.status === 'ready');
    const order = context.citations.map((c) => c.record_id);
    assert.ok(order.indexOf(ids['booked']!) > order.indexOf(ids['moved']!), JSON.stringify(order));
    const booked = context.citations.find((c) => c.record_id === ids['booked'])!;
    assert.match(booked.quote, /Dr\. Horvat/u);
    const header = /\n([^\n]*)\nMorning! I booked the dentist/u.exec(context.text ?? '')?.[1];
    assert.match(header ?? '', / · superseded/u);
  });

  it('"Ok, I cancelled the Lisbon trip." supersedes the shared trip event, not Jonas\'s booked flights', async () => {
    assert.deepEqual(await statusOf('trip'), ['superseded']);
    // His booking is what he did, still so: the cancellation is beside it, not in its place.
    assert.deepEqual(await statusOf('flights'), ['active']);
  });

  it('forgetting the move restores the booking and the event', async () => {
    await client.forgetRecord('me', ids['moved']!);
    await waitForDerivation(client, 'me');
    assert.deepEqual(await statusOf('booked'), ['active']);
    assert.deepEqual(await statusOf('event'), ['active']);
  });
});
