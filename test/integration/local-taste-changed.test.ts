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

// The week of use4 H7: Lena's morning tea, her switch to coffee, then tea again in the evenings.
describe('a taste or habit said to have ended', () => {
  let root: string;
  let server: RunningServer;
  let client: MnemoClient;
  const ids: Record<string, string> = {};

  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'mnemo-tastes-'));
    const served = await serveLocal(root, { timeZone: 'UTC' });
    server = served.server;
    client = createMnemoClient({ baseUrl: server.url, apiKey: served.key });
    await client.createBrain({ id: 'me', name: 'Me', self: { type: 'person', name: 'Lena Kovac' } });
    const remember = async (key: string, body: RecordCreate) => {
      ids[key] = (await client.rememberRecord('me', body)).record.id;
    };
    const say = (key: string, speaker: string, text: string, at: string) =>
      remember(key, { content: { kind: 'message', speaker, text }, occurred_at: at });
    await say('tea', 'Lena Kovac', 'I prefer tea in the morning, green tea mostly.', '2026-11-28T08:00:00Z');
    await say('jonas', 'Jonas Weber', 'I drink tea every evening.', '2026-11-29T20:00:00Z');
    await say('shop', 'Lena Kovac', 'The tea shop on Herrengasse closed.', '2026-11-30T12:00:00Z');
    await say(
      'coffee',
      'Lena Kovac',
      "I've switched to coffee in the mornings, I don't drink tea anymore.",
      '2026-12-01T08:00:00Z',
    );
    await say(
      'again',
      'Lena Kovac',
      'Actually I like tea again in the evenings, chamomile, but mornings stay coffee.',
      '2026-12-05T19:00:00Z',
    );
    await waitForDerivation(client, 'me');
  });
  after(async () => {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  });

  const memories = async () => (await client.listMemories('me', { limit: 100, status: 'all' } as never)).data;
  const ofRecord = async (key: string) =>
    (await memories()).filter((m) => m.citations.some((c) => c.record_id === ids[key]));

  it('"I don\'t drink tea anymore" supersedes her own morning tea, linked to the switch', async () => {
    const old = await ofRecord('tea');
    assert.deepEqual(
      old.map((m) => m.status),
      ['superseded'],
    );
    const switched = (await ofRecord('coffee')).filter((m) => m.status === 'active');
    assert.equal(switched.length, 1);
    assert.equal(switched[0]!.valid_from, '2026-12-01T08:00:00Z');
    assert.equal(old[0]!.valid_to, '2026-12-01T08:00:00Z');
    // The switch is the tea line's next version, so its history says what ended it and when.
    const detail = await client.getMemory('me', old[0]!.id);
    assert.deepEqual(
      detail.revisions.map((r) => [r.id, r.cause]),
      [
        [old[0]!.id, 'derived'],
        [switched[0]!.id, 'superseded_by_record'],
      ],
    );
  });

  it("leaves Jonas's tea, a line that merely names tea, and the evening tea current", async () => {
    for (const key of ['jonas', 'shop', 'again'])
      assert.deepEqual(
        (await ofRecord(key)).map((m) => m.status),
        ['active'],
        key,
      );
  });

  it('"What does Lena drink in the morning?" does not serve the old tea line', async () => {
    const { context } = await client.createContext('me', {
      query: 'What does Lena drink in the morning?',
      mode: 'thorough',
    });
    const order = context.citations.map((c) => c.record_id);
    assert.ok(!order.includes(ids['tea']!), JSON.stringify(order));
    assert.ok(order.includes(ids['coffee']!), JSON.stringify(order));
  });

  it('forgetting the switch brings the morning tea back', async () => {
    await client.forgetRecord('me', ids['coffee']!);
    await waitForDerivation(client, 'me');
    assert.deepEqual(
      (await ofRecord('tea')).map((m) => m.status),
      ['active'],
    );
  });
});

// use4 H7's second case: an agent's typed fact of Lena's gym membership, then her own later word.
describe("a thing's end date said again in her words", () => {
  let root: string;
  let server: RunningServer;
  let client: MnemoClient;
  const ids: Record<string, string> = {};

  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'mnemo-ends-'));
    const served = await serveLocal(root, { timeZone: 'UTC' });
    server = served.server;
    client = createMnemoClient({ baseUrl: server.url, apiKey: served.key });
    await client.createBrain({ id: 'me', name: 'Me', self: { type: 'person', name: 'Lena Kovac' } });
    const remember = async (key: string, body: RecordCreate) => {
      ids[key] = (await client.rememberRecord('me', body)).record.id;
    };
    await remember('fact', {
      content: {
        kind: 'fact',
        subject: 'Lena Kovac',
        predicate: 'gym membership ends',
        value: 'January 31, 2027',
      },
      source: { name: 'mcp' },
      occurred_at: '2026-11-28T09:00:00Z',
    });
    await remember('said', {
      content: {
        kind: 'message',
        speaker: 'Lena Kovac',
        text: 'My gym membership runs until the end of February.',
      },
      occurred_at: '2026-12-02T18:00:00Z',
    });
    await waitForDerivation(client, 'me');
  });
  after(async () => {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('her later "My gym membership runs until the end of February." supersedes the fact in its slot', async () => {
    const all = (await client.listMemories('me', { limit: 100, status: 'all' } as never)).data;
    const of = (key: string) => all.filter((m) => m.citations.some((c) => c.record_id === ids[key]));
    const [fact, said] = [of('fact'), of('said')];
    assert.deepEqual(
      fact.map((m) => m.status),
      ['superseded'],
    );
    assert.deepEqual(
      said.map((m) => [m.statement, m.status, m.slot]),
      [['My gym membership runs until the end of February.', 'active', fact[0]!.slot]],
    );
    assert.notEqual(fact[0]!.slot, null);
  });
});
