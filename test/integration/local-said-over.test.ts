import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createMnemoClient, type MnemoClient } from '../../server/client/index.ts';
import { waitForDerivation } from '../../server/import/run-import.ts';
import type { RunningServer } from '../../server/start-server.ts';
import { serveLocal } from './serve-local.ts';

describe('a choice said to be off', () => {
  let root: string;
  let server: RunningServer;
  let client: MnemoClient;
  const ids: Record<string, string> = {};

  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'mnemo-choices-'));
    const served = await serveLocal(root, { timeZone: 'UTC' });
    server = served.server;
    client = createMnemoClient({ baseUrl: server.url, apiKey: served.key });
    await client.createBrain({ id: 'me', name: 'Me', self: { type: 'person', name: 'Lena Kovac' } });
    const say = async (key: string, speaker: string, text: string, at: string) => {
      const body = { content: { kind: 'message' as const, speaker, text }, occurred_at: at };
      ids[key] = (await client.rememberRecord('me', body)).record.id;
    };
    await say(
      'sqlite',
      'Lena Kovac',
      'We decided to use SQLite for the desktop store.',
      '2026-11-02T10:00:00Z',
    );
    await say(
      'hetzner',
      'Lena Kovac',
      "We're going with the Hetzner box for the server.",
      '2026-11-03T10:00:00Z',
    );
    await say('jonasJira', 'Jonas Weber', "We'll use Jira for the tickets.", '2026-11-04T10:00:00Z');
    await say('fast', 'Lena Kovac', 'SQLite is fast enough for one person.', '2026-11-05T10:00:00Z');
    await say(
      'off',
      'Lena Kovac',
      'We are not doing SQLite after all, we switched to PostgreSQL.',
      '2026-11-20T10:00:00Z',
    );
    await say('aws', 'Lena Kovac', "We're not doing the AWS box after all.", '2026-11-21T10:00:00Z');
    await say('lenaJira', 'Lena Kovac', "We won't use Jira after all.", '2026-11-22T10:00:00Z');
    await waitForDerivation(client, 'me');
  });
  after(async () => {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  });

  const memories = async () => (await client.listMemories('me', { limit: 100, status: 'all' } as never)).data;
  const statusOf = async (key: string) =>
    (await memories()).filter((m) => m.citations.some((c) => c.record_id === ids[key])).map((m) => m.status);

  it('"not doing SQLite after all" supersedes her decision to use SQLite, as its next version', async () => {
    const all = await memories();
    const old = all.filter((m) => m.citations.some((c) => c.record_id === ids['sqlite']));
    assert.deepEqual(
      old.map((m) => m.status),
      ['superseded'],
    );
    assert.equal(old[0]!.valid_to, '2026-11-20T10:00:00Z');
    const detail = await client.getMemory('me', old[0]!.id);
    assert.deepEqual(
      detail.revisions.map((r) => r.statement),
      [
        'We decided to use SQLite for the desktop store.',
        'We are not doing SQLite after all, we switched to PostgreSQL.',
      ],
    );
  });

  it("leaves a line that only names SQLite, another box, and Jonas's own choice current", async () => {
    assert.deepEqual(await statusOf('fast'), ['active']);
    assert.deepEqual(await statusOf('hetzner'), ['active']);
    assert.deepEqual(await statusOf('jonasJira'), ['active']);
    assert.deepEqual(await statusOf('lenaJira'), ['active']);
  });

  it('"What database did we decide on?" leads with the change, the old decision marked superseded', async () => {
    const { context } = await client.createContext('me', { query: 'What database did we decide on?' });
    assert.equal(context.status, 'ready');
    const order = context.citations.map((c) => c.record_id);
    assert.equal(order[0], ids['off'], JSON.stringify(order));
    assert.match(context.text ?? '', /superseded\nWe decided to use SQLite/u);
  });

  it('forgetting the change brings the decision back', async () => {
    await client.forgetRecord('me', ids['off']!);
    await waitForDerivation(client, 'me');
    assert.deepEqual(await statusOf('sqlite'), ['active']);
  });
});

describe('a state of her own said not to be so', () => {
  let root: string;
  let server: RunningServer;
  let client: MnemoClient;
  const ids: Record<string, string> = {};

  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'mnemo-states-'));
    const served = await serveLocal(root, { timeZone: 'UTC' });
    server = served.server;
    client = createMnemoClient({ baseUrl: server.url, apiKey: served.key });
    await client.createBrain({ id: 'me', name: 'Me', self: { type: 'person', name: 'Lena Kovac' } });
    const say = async (key: string, speaker: string, text: string, at: string) => {
      const body = { content: { kind: 'message' as const, speaker, text }, occurred_at: at };
      ids[key] = (await client.rememberRecord('me', body)).record.id;
    };
    await say('walnuts', 'Lena Kovac', "I'm seriously allergic to walnuts.", '2026-10-02T10:00:00Z');
    await say('cats', 'Lena Kovac', "I'm allergic to cats.", '2026-10-03T10:00:00Z');
    await say('jonas', 'Jonas Weber', "I'm allergic to walnuts too.", '2026-10-04T10:00:00Z');
    await say(
      'pecans',
      'Lena Kovac',
      "Turns out I'm not allergic to walnuts, it was pecans all along.",
      '2026-11-20T10:00:00Z',
    );
    await waitForDerivation(client, 'me');
  });
  after(async () => {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  });

  const statusOf = async (key: string) =>
    (await client.listMemories('me', { limit: 100, status: 'all' } as never)).data
      .filter((m) => m.citations.some((c) => c.record_id === ids[key]))
      .map((m) => [m.status, m.valid_to]);

  it('"Turns out I\'m not allergic to walnuts" supersedes her walnut allergy, and nothing else', async () => {
    assert.deepEqual(await statusOf('walnuts'), [['superseded', '2026-11-20T10:00:00Z']]);
    assert.deepEqual(await statusOf('pecans'), [['active', null]]);
    assert.deepEqual(await statusOf('cats'), [['active', null]]);
    assert.deepEqual(await statusOf('jonas'), [['active', null]]);
  });

  it('"What am I allergic to?" leads with what she found out', async () => {
    const { context } = await client.createContext('me', { query: 'What am I allergic to?' });
    assert.equal(context.status, 'ready');
    assert.equal(context.citations[0]?.record_id, ids['pecans'], context.text ?? '');
  });
});
