import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createMnemoClient, type MnemoClient } from '../../server/client/index.ts';
import { waitForDerivation } from '../../server/import/run-import.ts';
import type { RunningServer } from '../../server/start-server.ts';
import { serveLocal } from './serve-local.ts';

// use4 H5: in Lena Kovac's Brain her partner names her by her first name alone, as people do.
describe("another person's words naming the self by her first name", () => {
  let root: string;
  let server: RunningServer;
  let client: MnemoClient;
  const ids: Record<string, string> = {};

  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'mnemo-self-named-'));
    const served = await serveLocal(root, { timeZone: 'UTC' });
    server = served.server;
    client = createMnemoClient({ baseUrl: server.url, apiKey: served.key });
    await client.createBrain({ id: 'me', name: 'Me', self: { type: 'person', name: 'Lena Kovac' } });
    const say = async (key: string, speaker: string, text: string, at: string) => {
      const body = { content: { kind: 'message' as const, speaker, text, thread: 'home' }, occurred_at: at };
      ids[key] = (await client.rememberRecord('me', body)).record.id;
    };
    await say('own', 'Lena Kovac', 'My birthday is May 3.', '2026-11-28T09:00:00Z');
    await say('his', 'Jonas Weber', "Lena's birthday is May 4.", '2026-11-28T09:05:00Z');
    await say('home', 'Jonas Weber', 'Lena lives in Graz.', '2026-11-28T09:06:00Z');
    await say('job', 'Jonas Weber', 'Lena works at Bosch.', '2026-11-28T09:07:00Z');
    await say('phone', 'Jonas Weber', "Lena's number is +385 91 234 5678.", '2026-11-28T09:08:00Z');
    await say('allergy', 'Jonas Weber', 'Lena is allergic to walnuts.', '2026-11-28T09:09:00Z');
    await say('greeting', 'Jonas Weber', 'Morning Lena, the plumber comes at 10.', '2026-11-29T08:00:00Z');
    await say('thanks', 'Jonas Weber', 'Thanks Lena!', '2026-11-29T08:01:00Z');
    await say('ask', 'Jonas Weber', 'Lena, can you buy milk?', '2026-11-29T08:02:00Z');
    await waitForDerivation(client, 'me');
  });
  after(async () => {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  });

  const memories = async () => (await client.listMemories('me', { limit: 100 })).data;
  const of = async (key: string) =>
    (await memories()).filter((m) => m.citations.some((c) => c.record_id === ids[key]));

  it('"Lena\'s birthday is May 4." is his word of her birthday: a conflict with hers, over /v1', async () => {
    const contested = await client.listMemories('me', { contested: 'true', limit: 50 });
    assert.deepEqual(contested.data.map((m) => m.statement).sort(), [
      "Jonas Weber says Lena Kovac's birthday is May 4",
      "Lena Kovac's birthday is May 3",
    ]);
    assert.equal(new Set(contested.data.map((m) => m.slot)).size, 1);
    const { context } = await client.createContext('me', { query: 'When is my birthday?' });
    assert.equal(context.status, 'ready');
    if (context.status !== 'ready') return;
    assert.ok(context.conflicts.length > 0, JSON.stringify(context.conflicts));
  });

  it('her home, job and phone said by her first name are her slots as he says them', async () => {
    for (const [key, statement] of [
      ['home', 'Jonas Weber says Lena Kovac lives in Graz'],
      ['job', 'Jonas Weber says Lena Kovac works at Bosch'],
      ['phone', "Jonas Weber says Lena Kovac's phone number is +385 91 234 5678"],
    ] as const) {
      const [m] = await of(key);
      assert.deepEqual([m?.statement, m?.subject, m?.owner.state], [statement, 'Lena Kovac', 'self'], key);
    }
  });

  it('no person "Lena" beside her: the allergy is said of her as by her whole name', async () => {
    const all = await memories();
    assert.deepEqual(
      all.filter((m) => m.subject === 'Lena' || m.owner.entity === 'Lena').map((m) => m.statement),
      [],
    );
    const [allergy] = await of('allergy');
    assert.equal(allergy?.statement, 'Lena is allergic to walnuts.');
  });

  it('a greeting, a thanks and a request to her stay his words, as before', async () => {
    const [greeting] = await of('greeting');
    assert.deepEqual(
      [greeting?.statement, greeting?.owner],
      ['Morning Lena, the plumber comes at 10.', { state: 'other', entity: 'Jonas Weber' }],
    );
    assert.deepEqual(await of('thanks'), []);
    assert.deepEqual(await of('ask'), []);
  });
});
