import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { ImportRequest, ImportResult, Scope } from '../../engine/contract/index.ts';
import { createMnemoClient, type MnemoClient } from '../../server/client/index.ts';
import { runImport } from '../../server/import/run-import.ts';
import { heldKey } from '../../server/import/forget-missing.ts';
import type { RunningServer } from '../../server/start-server.ts';
import { serveLocal } from './serve-local.ts';

// What each calendar and contacts file held (`mnemo-import-file` Objects, forget-missing.ts), through
// a real server on loopback with the local engine on an encrypted SQLite file: the upload uses them as
// the key's Object scopes allow, and they stay small however many events a calendar holds.
process.env.MNEMO_EMBEDDER = 'none';

const root = mkdtempSync(join(tmpdir(), 'mnemo-import-held-'));
let server: RunningServer;
let key: string;
let client: MnemoClient;

before(async () => {
  ({ server, key } = await serveLocal(root));
  client = createMnemoClient({ baseUrl: server.url, apiKey: key });
});

after(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

const heldType = 'mnemo-import-file';

/** An iCalendar file of one event a day from 1 January 2024, one per UID. */
function calendar(...uids: string[]): string {
  const day = (i: number) => new Date(Date.UTC(2024, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    ...uids.flatMap((uid, i) => [
      'BEGIN:VEVENT',
      `UID:${uid}`,
      `DTSTART:${day(i).replaceAll('-', '')}T100000Z`,
      `SUMMARY:Event ${i}`,
      'END:VEVENT',
    ]),
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}

const upload = (text: string, forget = false): ImportRequest => ({
  files: [{ name: 'work.ics', content_base64: Buffer.from(text).toString('base64') }],
  time_zone: 'UTC',
  recurrence_since: '2023-01-01T00:00:00Z',
  ...(forget ? { forget_missing: true } : {}),
});

async function keyWith(scopes: Scope[]): Promise<string> {
  return (await server.registry!.create({ env: 'test', project: 'home', scopes })).key;
}

async function post(brain: string, apiKey: string, body: ImportRequest): Promise<ImportResult> {
  const res = await fetch(`${server.url}/brains/${brain}/imports`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as ImportResult;
  assert.equal(res.status, 200, JSON.stringify(json));
  return json;
}

/** What the Brain records of each calendar and contacts file (not of folders' names: folder-names.ts). */
async function heldObjects(brain: string) {
  return (await client.listObjects(brain, { type: heldType, limit: 500 })).data.filter(
    (o) => (o.value as { source?: unknown } | null)?.source !== 'folder',
  );
}

async function eventIds(brain: string): Promise<string[]> {
  const ids = new Set<string>();
  for (let cursor: string | undefined; ;) {
    const page = await client.listRecords(brain, {
      limit: 200,
      source: 'ics',
      ...(cursor ? { cursor } : {}),
    });
    for (const r of page.data) ids.add(r.source.external_id!);
    if (!page.next_cursor) break;
    cursor = page.next_cursor;
  }
  return [...ids].sort();
}

test('an upload neither writes nor reads what files held beyond the key: objects:write to record, objects:read to forget', async () => {
  await client.createBrain({ id: 'scopes' });
  const noObjects = await keyWith(['records:write', 'records:read']);
  const plain = await post('scopes', noObjects, upload(calendar('e1', 'e2')));
  assert.equal(plain.imported, 2);
  assert.deepEqual(await heldObjects('scopes'), [], 'a key without objects:write wrote an Object');
  // The answer says so, and what follows: a later forget-missing import keeps what this file dropped.
  assert.equal(plain.forget_notes?.length, 1);
  assert.match(
    plain.forget_notes[0]!,
    /"work\.ics" holds now was not recorded \(.*objects:read\).* kept, not forgotten/,
  );
  const readsObjects = await keyWith(['records:write', 'records:read', 'objects:read']);
  const notWritten = await post('scopes', readsObjects, upload(calendar('e1', 'e2')));
  assert.match(notWritten.forget_notes!.join('\n'), /holds now was not recorded \(.*objects:write\)/);

  // Recorded by a key that may (the app's own key holds every scope), which says nothing of it.
  const recorded = await post('scopes', key, upload(calendar('e1', 'e2')));
  assert.equal((await heldObjects('scopes')).length, 1);
  assert.equal(recorded.forget_notes, undefined);

  // A key that may not read Objects cannot tell which file held e2: it is kept, and the answer says why.
  const blind = await keyWith(['records:write', 'records:read', 'objects:write']);
  const kept = await post('scopes', blind, upload(calendar('e1'), true));
  assert.equal(kept.forgotten, 0);
  assert.match(kept.forget_notes!.join('\n'), /nothing of "ics" was forgotten: .*objects:read/);
  assert.deepEqual(await eventIds('scopes'), ['ics:e1', 'ics:e2']);

  // One that may read them forgets e2, and says what it could not record (objects:write).
  const before = (await heldObjects('scopes'))[0]!.version;
  const readOnly = await keyWith(['records:write', 'records:read', 'objects:read']);
  const done = await post('scopes', readOnly, upload(calendar('e1'), true));
  assert.deepEqual(done.forgotten_items, [{ source: 'ics', external_id: 'ics:e2' }]);
  assert.match(done.forget_notes!.join('\n'), /holds now was not recorded \(.*objects:write\)/);
  assert.equal((await heldObjects('scopes'))[0]!.version, before, 'a key without objects:write wrote');
  assert.deepEqual(await eventIds('scopes'), ['ics:e1']);
});

test('a calendar whose UIDs outgrow a request body: what it holds is recorded small, once, and forget-missing works', async () => {
  await client.createBrain({ id: 'large' });
  // Outlook-style UIDs, 1,152 characters long: 5.8 MB of them, more than a 4 MiB request body, in
  // 5,000 events (as many of 112 characters would be 50,000, ten times the parsing for the same point).
  // All but three events have no start, so the parser skips them while the file still holds them.
  const uid = (i: number) => `040000008200E00074C5B7101A82E008${String(i).padStart(1_120, '0')}`;
  const undated = Array.from({ length: 5_000 }, (_, i) =>
    ['BEGIN:VEVENT', `UID:${uid(i)}`, `SUMMARY:Undated ${i}`, 'END:VEVENT'].join('\r\n'),
  );
  const body = (...kept: number[]) =>
    calendar(...kept.map(uid)).replace('END:VCALENDAR', `${undated.join('\r\n')}\r\nEND:VCALENDAR`);
  const file = join(root, 'large.ics');
  writeFileSync(file, body(100_001, 100_002, 100_003));
  const run = (forgetMissing = false) =>
    runImport({
      client,
      brainId: 'large',
      path: file,
      timeZone: 'UTC',
      windowStart: new Date('2023-01-01T00:00:00Z'),
      forgetMissing,
    });
  const first = await run();
  assert.equal(first.imported, 3);
  const held = await heldObjects('large');
  assert.equal(held.length, 1, 'what the calendar holds was not recorded');
  assert.ok(JSON.stringify(held[0]!.value).length < 1024 * 1024, 'recorded in digests, not whole UIDs');

  // The same file again records nothing new: no version piles up per import.
  await run();
  assert.equal((await heldObjects('large'))[0]!.version, held[0]!.version);

  writeFileSync(file, body(100_001, 100_003));
  const r = await run(true);
  assert.deepEqual(r.forgetNotes, []);
  assert.deepEqual(
    r.forgottenItems.map((i) => i.externalId),
    [`ics:${uid(100_002)}`],
  );
  assert.deepEqual(await eventIds('large'), [`ics:${uid(100_001)}`, `ics:${uid(100_003)}`]);
});

test('what an earlier Mnemo recorded (plain items) is still read: an event gone from its file is forgotten', async () => {
  await client.createBrain({ id: 'compat' });
  await post('compat', key, upload(calendar('e1', 'e2', 'e3')));
  const [now] = await heldObjects('compat');
  const { file } = now!.value as { file: string };
  // As the Mnemo before digests wrote it.
  await client.acceptObject('compat', {
    type: heldType,
    key: now!.key,
    value: { source: 'ics', file, items: ['ics:e1', 'ics:e2', 'ics:e3'] },
  });
  const r = await post('compat', key, upload(calendar('e1', 'e3'), true));
  assert.deepEqual(r.forget_notes, []);
  assert.deepEqual(r.forgotten_items, [{ source: 'ics', external_id: 'ics:e2' }]);
  assert.deepEqual(await eventIds('compat'), ['ics:e1', 'ics:e3']);
  // Recorded again in today's form: no UID in the clear.
  const [after] = await heldObjects('compat');
  assert.doesNotMatch(JSON.stringify(after!.value), /ics:e/);
});

test('mnemo import says which files it could not record what they hold for, and why', async () => {
  await client.createBrain({ id: 'cli-scopes' });
  const file = join(root, 'home.ics');
  writeFileSync(file, calendar('h1', 'h2'));
  const noObjects = createMnemoClient({
    baseUrl: server.url,
    apiKey: await keyWith(['records:write', 'records:read']),
  });
  const run = (c: MnemoClient) =>
    runImport({
      client: c,
      brainId: 'cli-scopes',
      path: file,
      timeZone: 'UTC',
      windowStart: new Date('2023-01-01T00:00:00Z'),
    });
  const done = await run(noObjects);
  assert.equal(done.imported, 2);
  assert.equal(done.heldNotes.length, 1);
  assert.match(done.heldNotes[0]!, /home\.ics" holds now was not recorded \(.*objects:read\)/);
  assert.deepEqual((await run(client)).heldNotes, [], 'a key that may record says nothing');
  assert.equal((await heldObjects('cli-scopes')).length, 1);
});

test('an occurrence deleted from a series is forgotten by an upload and by mnemo import that forget what is missing', async () => {
  const weekly = (...extra: string[]) =>
    [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'BEGIN:VEVENT',
      'UID:standup@example.com',
      'DTSTART:20240101T093000Z',
      'RRULE:FREQ=WEEKLY;COUNT=3',
      'SUMMARY:Team standup',
      ...extra,
      'END:VEVENT',
      'END:VCALENDAR',
      '',
    ].join('\r\n');
  const at = (day: string) => `ics:standup@example.com@2024-01-${day}T09:30:00Z`;
  await client.createBrain({ id: 'series' });
  await post('series', key, upload(weekly()));
  assert.deepEqual(await eventIds('series'), [at('01'), at('08'), at('15')]);
  const done = await post('series', key, upload(weekly('EXDATE:20240108T093000Z'), true));
  assert.deepEqual(done.forgotten_items, [{ source: 'ics', external_id: at('08') }]);
  assert.deepEqual(await eventIds('series'), [at('01'), at('15')]);

  const file = join(root, 'standup.ics');
  writeFileSync(file, weekly('EXDATE:20240108T093000Z'));
  const recurrence = { timeZone: 'UTC', windowStart: new Date('2023-01-01T00:00:00Z') };
  await runImport({ client, brainId: 'cli-series', path: file, ...recurrence });
  writeFileSync(file, weekly('EXDATE:20240108T093000Z,20240115T093000Z'));
  const again = await runImport({
    client,
    brainId: 'cli-series',
    path: file,
    forgetMissing: true,
    ...recurrence,
  });
  assert.equal(again.forgotten, 1);
  assert.deepEqual(await eventIds('cli-series'), [at('01')]);
});

test('mnemo import records a file by its path from the folder imported: the Objects name no place on this disk', async () => {
  await client.createBrain({ id: 'paths' });
  const folder = join(root, 'home-of-lena', 'Calendars');
  mkdirSync(folder, { recursive: true });
  const file = join(folder, 'work.ics');
  writeFileSync(file, calendar('p1', 'p2', 'p3'));
  const run = (forgetMissing = false) =>
    runImport({
      client,
      brainId: 'paths',
      path: folder,
      timeZone: 'UTC',
      windowStart: new Date('2023-01-01T00:00:00Z'),
      forgetMissing,
    });
  assert.equal((await run()).imported, 3);
  const listed = (await client.listObjects('paths', { type: heldType, limit: 500 })).data;
  assert.ok(listed.length > 0);
  assert.doesNotMatch(JSON.stringify(listed), /home-of-lena/u, 'no Object says where the folder lies');
  assert.deepEqual(
    (await heldObjects('paths')).map((o) => (o.value as { file: string }).file),
    ['Calendars/work.ics'],
  );
  writeFileSync(file, calendar('p1', 'p3'));
  assert.deepEqual(
    (await run(true)).forgottenItems.map((i) => i.externalId),
    ['ics:p2'],
  );
});

test('a file recorded under its absolute path by an earlier Mnemo is read, recorded again by its name, and the path retired', async () => {
  await client.createBrain({ id: 'retired' });
  const folder = join(root, 'lena-was-here', 'Calendars');
  mkdirSync(folder, { recursive: true });
  const file = join(folder, 'home.ics');
  writeFileSync(file, calendar('r1', 'r2', 'r3'));
  const run = (forgetMissing = false) =>
    runImport({
      client,
      brainId: 'retired',
      path: folder,
      timeZone: 'UTC',
      windowStart: new Date('2023-01-01T00:00:00Z'),
      forgetMissing,
    });
  assert.equal((await run()).imported, 3);
  // As the Mnemo before named the file: by its real path, and nothing under its name.
  const [now] = await heldObjects('retired');
  const digests = (now!.value as { digests: string[] }).digests;
  const abs = realpathSync(file);
  await client.acceptObject('retired', { type: heldType, key: now!.key, value: null });
  await client.acceptObject('retired', {
    type: heldType,
    key: heldKey('ics', abs),
    value: { source: 'ics', file: abs, digests },
  });
  writeFileSync(file, calendar('r1', 'r3'));
  const r = await run(true);
  assert.deepEqual(r.forgetNotes, []);
  assert.deepEqual(
    r.forgottenItems.map((i) => i.externalId),
    ['ics:r2'],
    "what the path's record held is still known as the file's",
  );
  const after = new Map((await heldObjects('retired')).map((o) => [o.key, o.value]));
  assert.equal(after.get(heldKey('ics', abs)), null, 'the record under the path says nothing now');
  const named = after.get(now!.key) as { file: string; digests: string[] };
  assert.deepEqual([named.file, named.digests.length], ['Calendars/home.ics', 2]);
  assert.doesNotMatch(JSON.stringify([...after.values()]), /lena-was-here/u);
});
