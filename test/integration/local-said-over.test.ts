import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createMnemoClient, type MnemoClient } from '../../server/client/index.ts';
import { waitForDerivation } from '../../server/import/run-import.ts';
import type { RunningServer } from '../../server/start-server.ts';
import { serveLocal } from './serve-local.ts';

let root: string;
let server: RunningServer;
let client: MnemoClient;

before(async () => {
  root = mkdtempSync(join(tmpdir(), 'mnemo-said-over-'));
  const served = await serveLocal(root, { timeZone: 'UTC' });
  server = served.server;
  client = createMnemoClient({ baseUrl: server.url, apiKey: served.key });
});
after(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

/** A message: its key in the test, its speaker, its words, when it was said. */
type Said = readonly [key: string, speaker: string, text: string, at: string];

/** A Brain of Lena Kovac's holding these messages, derived: each Record's id by its key. */
async function brainSaying(brain: string, messages: readonly Said[]): Promise<Record<string, string>> {
  await client.createBrain({ id: brain, name: brain, self: { type: 'person', name: 'Lena Kovac' } });
  const ids: Record<string, string> = {};
  for (const [key, speaker, text, at] of messages) {
    const body = { content: { kind: 'message' as const, speaker, text }, occurred_at: at };
    ids[key] = (await client.rememberRecord(brain, body)).record.id;
  }
  await waitForDerivation(client, brain);
  return ids;
}

/** Every version of the Memories citing a Record. */
const citing = async (brain: string, recordId: string | undefined) =>
  (await client.listMemories(brain, { limit: 100, status: 'all' } as never)).data.filter((m) =>
    m.citations.some((c) => c.record_id === recordId),
  );

describe('a choice said to be off', () => {
  const brain = 'choices';
  let ids: Record<string, string> = {};
  before(async () => {
    ids = await brainSaying(brain, [
      ['sqlite', 'Lena Kovac', 'We decided to use SQLite for the desktop store.', '2026-11-02T10:00:00Z'],
      ['hetzner', 'Lena Kovac', "We're going with the Hetzner box for the server.", '2026-11-03T10:00:00Z'],
      ['jonasJira', 'Jonas Weber', "We'll use Jira for the tickets.", '2026-11-04T10:00:00Z'],
      ['fast', 'Lena Kovac', 'SQLite is fast enough for one person.', '2026-11-05T10:00:00Z'],
      [
        'off',
        'Lena Kovac',
        'We are not doing SQLite after all, we switched to PostgreSQL.',
        '2026-11-20T10:00:00Z',
      ],
      ['aws', 'Lena Kovac', "We're not doing the AWS box after all.", '2026-11-21T10:00:00Z'],
      ['lenaJira', 'Lena Kovac', "We won't use Jira after all.", '2026-11-22T10:00:00Z'],
    ]);
  });

  const statusOf = async (key: string) => (await citing(brain, ids[key])).map((m) => m.status);

  it('"not doing SQLite after all" supersedes her decision to use SQLite, as its next version', async () => {
    const old = await citing(brain, ids['sqlite']);
    assert.deepEqual(
      old.map((m) => m.status),
      ['superseded'],
    );
    assert.equal(old[0]!.valid_to, '2026-11-20T10:00:00Z');
    const detail = await client.getMemory(brain, old[0]!.id);
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
    const { context } = await client.createContext(brain, { query: 'What database did we decide on?' });
    assert.equal(context.status, 'ready');
    const order = context.citations.map((c) => c.record_id);
    assert.equal(order[0], ids['off'], JSON.stringify(order));
    assert.match(context.text ?? '', /superseded\nWe decided to use SQLite/u);
  });

  it('forgetting the change brings the decision back', async () => {
    await client.forgetRecord(brain, ids['off']!);
    await waitForDerivation(client, brain);
    assert.deepEqual(await statusOf('sqlite'), ['active']);
  });
});

describe('a state of her own said not to be so', () => {
  const brain = 'states';
  let ids: Record<string, string> = {};
  before(async () => {
    ids = await brainSaying(brain, [
      ['walnuts', 'Lena Kovac', "I'm seriously allergic to walnuts.", '2026-10-02T10:00:00Z'],
      ['cats', 'Lena Kovac', "I'm allergic to cats.", '2026-10-03T10:00:00Z'],
      ['jonas', 'Jonas Weber', "I'm allergic to walnuts too.", '2026-10-04T10:00:00Z'],
      [
        'pecans',
        'Lena Kovac',
        "Turns out I'm not allergic to walnuts, it was pecans all along.",
        '2026-11-20T10:00:00Z',
      ],
    ]);
  });

  const statusOf = async (key: string) => (await citing(brain, ids[key])).map((m) => [m.status, m.valid_to]);

  it('"Turns out I\'m not allergic to walnuts" supersedes her walnut allergy, and nothing else', async () => {
    assert.deepEqual(await statusOf('walnuts'), [['superseded', '2026-11-20T10:00:00Z']]);
    assert.deepEqual(await statusOf('pecans'), [['active', null]]);
    assert.deepEqual(await statusOf('cats'), [['active', null]]);
    assert.deepEqual(await statusOf('jonas'), [['active', null]]);
  });

  it('"What am I allergic to?" leads with what she found out', async () => {
    const { context } = await client.createContext(brain, { query: 'What am I allergic to?' });
    assert.equal(context.status, 'ready');
    assert.equal(context.citations[0]?.record_id, ids['pecans'], context.text ?? '');
  });
});
