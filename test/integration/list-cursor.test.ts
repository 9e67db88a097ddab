import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { MnemoApiError, createMnemoClient, type MnemoClient } from '../../server/client/index.ts';
import { waitForDerivation } from '../../server/import/run-import.ts';
import type { RunningServer } from '../../server/start-server.ts';
import { serveLocal } from './serve-local.ts';

// Through a real server on loopback: the cursor is what an agent pages with, often alone.
const root = mkdtempSync(join(tmpdir(), 'mnemo-list-cursor-'));
let server: RunningServer;
let client: MnemoClient;

before(async () => {
  const served = await serveLocal(root);
  server = served.server;
  client = createMnemoClient({ baseUrl: server.url, apiKey: served.key });
  await client.createBrain({ id: 'b', self: { type: 'person', name: 'Ana' } });
  for (let i = 1; i <= 9; i++)
    await client.rememberRecord('b', {
      content:
        i % 3 === 0
          ? { kind: 'document', title: `Note ${i}`, text: `Note number ${i} says the ferry leaves at ${i}.` }
          : { kind: 'fact', subject: `Item ${i}`, predicate: 'colour', value: `shade ${i}` },
      occurred_at: `2024-01-0${i}T10:00:00Z`,
    });
  await waitForDerivation(client, 'b');
});
after(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

/** Every page of a list, each after the first asked for with its cursor alone. */
async function pagedAlone<T extends { id: string }>(
  first: { data: T[]; next_cursor: string | null },
  next: (cursor: string) => Promise<{ data: T[]; next_cursor: string | null }>,
): Promise<string[]> {
  const ids = first.data.map((x) => x.id);
  for (let page = first; page.next_cursor !== null;) {
    page = await next(page.next_cursor);
    ids.push(...page.data.map((x) => x.id));
  }
  return ids;
}

test('a cursor sent alone goes on with its list: the same order, the same filters, nothing twice', async () => {
  const all = (await client.listMemories('b', { order: 'desc', limit: 200 })).data.map((m) => m.id);
  assert.ok(all.length >= 9, `${all.length}`);
  const desc = await pagedAlone(await client.listMemories('b', { order: 'desc', limit: 2 }), (cursor) =>
    client.listMemories('b', { cursor, limit: 2 }),
  );
  assert.deepEqual(desc, all);

  const notes = (await client.listRecords('b', { kind: 'document', limit: 200 })).data.map((r) => r.id);
  assert.equal(notes.length, 3);
  const paged = await pagedAlone(await client.listRecords('b', { kind: 'document', limit: 1 }), (cursor) =>
    client.listRecords('b', { cursor, limit: 1 }),
  );
  assert.deepEqual(paged, notes);
});

test('a cursor sent with its order goes on the same; with the other order, back from its place', async () => {
  const first = await client.listMemories('b', { order: 'desc', limit: 2 });
  const same = await client.listMemories('b', { cursor: first.next_cursor!, order: 'desc', limit: 2 });
  const alone = await client.listMemories('b', { cursor: first.next_cursor!, limit: 2 });
  assert.deepEqual(same.data, alone.data);
  const back = await client.listMemories('b', { cursor: first.next_cursor!, order: 'asc', limit: 2 });
  assert.deepEqual(
    back.data.map((m) => m.id),
    [first.data[0]!.id],
    'after the second newest, oldest first: the newest',
  );
});

test('what a cursor carries is checked as the query it stands for: a made-up one is refused', async () => {
  const first = await client.listMemories('b', { order: 'desc', limit: 2 });
  const inner = JSON.parse(Buffer.from(first.next_cursor!, 'base64url').toString('utf8').slice(3)) as {
    c: string;
  };
  for (const p of [{ status: 'bogus' }, { order: 'sideways' }, { limit: 100000 }]) {
    const made = Buffer.from(`l1:${JSON.stringify({ c: inner.c, p })}`).toString('base64url');
    const refused = await client.listMemories('b', { cursor: made }).catch((e: unknown) => e);
    if ('limit' in p) {
      // A page's size is the request's own, never the cursor's.
      assert.ok(!(refused instanceof Error), String(refused));
      continue;
    }
    assert.ok(refused instanceof MnemoApiError, JSON.stringify(p));
    assert.deepEqual(
      [refused.status, refused.code, refused.message],
      [400, 'invalid_request_body', 'cursor: not a cursor this server issued'],
    );
  }
});
