import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, test } from 'node:test';
import { FileKeyRegistry } from '../../engine/auth/key-registry.ts';
import { createLocalEngine } from '../../engine/local/index.ts';
import type { Engine } from '../../engine/types.ts';
import { createMnemoClient, type MnemoClient } from '../client/index.ts';
import { formatSummary } from '../cli/commands/import.ts';
import { runImport, waitForDerivation } from './run-import.ts';
import { serveApp, type ServedApp } from '../http/testing/serve-app.ts';

// `mnemo import` of notes and the app's upload of them, against the local engine (an encrypted SQLite
// file) over /v1 on loopback.
const dir = mkdtempSync(join(tmpdir(), 'mnemo-note-identity-'));
const registry = FileKeyRegistry.ensure(join(dir, 'keys.json'));
const tenant = { project: 'home', env: 'test' } as const;
let engine: Engine;
let server: ServedApp;
let client: MnemoClient;

before(async () => {
  engine = await createLocalEngine({ dataDir: join(dir, 'data'), dbKey: 'n'.repeat(64), reranker: null });
  server = await serveApp({ engine, registry });
  client = createMnemoClient({ baseUrl: `${server.origin}/v1`, apiKey: (await registry.create(tenant)).key });
});

after(async () => {
  await server.close();
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

const note = (path: string, text: string) => {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  return path;
};

/** The active Memories' statements that mention WORD. */
async function active(brain: string, word: string): Promise<string[]> {
  const page = await client.listMemories(brain, { q: word, status: 'active' });
  return page.data.map((m) => m.statement);
}

test('two notes named todo.md, imported one after the other, both stay retrievable', async () => {
  const a = note(join(dir, 'a', 'todo.md'), '# Todo\nBuy oat milk ALPHAITEM\n');
  const b = note(join(dir, 'b', 'todo.md'), '# Todo\nCall the plumber BETAITEM\n');
  assert.equal((await runImport({ client, brainId: 'coll', path: a })).imported, 1);
  assert.equal((await runImport({ client, brainId: 'coll', path: b })).imported, 1);
  const records = (await client.listRecords('coll', { source: 'markdown' })).data;
  assert.equal(new Set(records.map((r) => r.source.external_id)).size, 2);
  assert.equal((await active('coll', 'ALPHAITEM')).length, 1, 'the first note was not superseded');
  assert.equal((await active('coll', 'BETAITEM')).length, 1);
});

test('one note imported alone, in its folder and as a vault is stored once', async () => {
  const n = note(join(dir, 'vault', 'sub', 'n.md'), '# N\nThe spare key is under the GAMMAITEM pot\n');
  const runs = [
    await runImport({ client, brainId: 'once', path: n }),
    await runImport({ client, brainId: 'once', path: join(dir, 'vault') }),
    await runImport({ client, brainId: 'once', path: join(dir, 'vault'), format: 'obsidian' }),
  ];
  assert.deepEqual(
    runs.map((r) => [r.imported, r.unchanged]),
    [
      [1, 0],
      [0, 1],
      [0, 1],
    ],
  );
  assert.equal((await client.listRecords('once', {})).data.length, 1);
});

/** FILES uploaded as the app sends them, each named by its path from FROM on, as the browser gives it. */
function upload(brain: string, from: string, files: string[]) {
  return client.importFiles(brain, {
    files: files.map((f) => ({
      name: relative(from, f).split('\\').join('/'),
      content_base64: readFileSync(f).toString('base64'),
      last_modified: '2024-03-01T10:00:00.000Z',
    })),
  });
}

const counts = (s: { imported: number; unchanged: number; failed: number }) => [
  s.imported,
  s.unchanged,
  s.failed,
];

/** The external ids of BRAIN's notes, one per item, and how many Records (revisions) they have. */
async function items(brain: string): Promise<{ ids: string[]; records: number }> {
  const records = (await client.listRecords(brain, { source: 'markdown', limit: 200 })).data;
  return { ids: [...new Set(records.map((r) => r.source.external_id!))].sort(), records: records.length };
}

test('notes uploaded from their folder, from its parent and imported from disk are the same items; an edit replaces the old version', async () => {
  const parent = join(dir, 'chosen', 'Parent');
  const todo = note(join(parent, 'Notes', 'todo.md'), '# Todo\nBuy the DELTAITEM seeds\n');
  const ideas = note(join(parent, 'Notes', 'ideas.md'), '# Ideas\nA pond by the fence\n');
  await client.createBrain({ id: 'chosen' });

  const first = await upload('chosen', parent, [todo, ideas]);
  assert.deepEqual(counts(first), [2, 0, 0]);
  assert.equal(first.matched_notes, undefined, 'no note took a stored name');
  const above = await upload('chosen', join(parent, '..'), [todo, ideas]);
  assert.deepEqual(counts(above), [0, 2, 0]);
  assert.deepEqual(above.matched_notes, {
    count: 2,
    examples: [
      { item: 'Parent/Notes/ideas.md', external_id: 'Notes/ideas.md' },
      { item: 'Parent/Notes/todo.md', external_id: 'Notes/todo.md' },
    ],
  });
  // From disk the notes are named from the folder imported, as its upload names them, and their
  // files have another time.
  const fromDisk = await runImport({ client, brainId: 'chosen', path: parent });
  assert.deepEqual(counts(fromDisk), [0, 2, 0]);
  assert.deepEqual(fromDisk.matchedNotes, {
    count: 2,
    examples: [
      { item: 'Parent/Notes/ideas.md', name: 'Notes/ideas.md' },
      { item: 'Parent/Notes/todo.md', name: 'Notes/todo.md' },
    ],
  });
  assert.match(
    formatSummary(fromDisk),
    /2 notes were written under the name the brain already had[^\n]*\n.*\n {2}Parent\/Notes\/todo.md -> Notes\/todo.md/,
  );
  assert.deepEqual(await items('chosen'), { ids: ['Notes/ideas.md', 'Notes/todo.md'], records: 2 });

  writeFileSync(todo, '# Todo\nBuy the EPSILONITEM seeds\n');
  const edited = await runImport({ client, brainId: 'chosen', path: parent });
  assert.deepEqual([edited.replaced, ...counts(edited)], [1, 0, 1, 0], 'the edit replaced, not new');
  assert.deepEqual(await items('chosen'), { ids: ['Notes/ideas.md', 'Notes/todo.md'], records: 3 });
  await waitForDerivation(client, 'chosen');
  assert.deepEqual(await active('chosen', 'DELTAITEM'), [], 'the old version is no longer current');
  assert.equal((await active('chosen', 'EPSILONITEM')).length, 1);
  // The edited note uploaded from its parent is the version just imported.
  assert.deepEqual(counts(await upload('chosen', join(parent, '..'), [todo, ideas])), [0, 2, 0]);
});

test('notes imported from disk and then uploaded are the same items; an edit uploaded replaces the old version', async () => {
  const notes = join(dir, 'disk-first', 'Notes');
  const todo = note(join(notes, 'todo.md'), '# Todo\nCall ZETAITEM about the roof\n');
  assert.deepEqual(counts(await runImport({ client, brainId: 'disk', path: notes })), [1, 0, 0]);
  assert.deepEqual(counts(await upload('disk', join(notes, '..'), [todo])), [0, 1, 0]);

  writeFileSync(todo, '# Todo\nCall ETAITEM about the roof\n');
  const edited = await upload('disk', join(notes, '..', '..'), [todo]);
  assert.deepEqual([edited.replaced, ...counts(edited)], [1, 0, 0, 0], 'the edit replaced, not new');
  assert.deepEqual(await items('disk'), { ids: ['Notes/todo.md'], records: 2 });
  await waitForDerivation(client, 'disk');
  assert.deepEqual(await active('disk', 'ZETAITEM'), []);
  assert.equal((await active('disk', 'ETAITEM')).length, 1);
});

test('two todo.md in folders of the same name stay two items: the second goes by its parent too; an upload of the name is the first', async () => {
  const work = note(join(dir, 'two', 'Work', 'Notes', 'todo.md'), '# Todo\nSend the THETAITEM invoice\n');
  const home = note(join(dir, 'two', 'Home', 'Notes', 'todo.md'), '# Todo\nWater the IOTAITEM ferns\n');
  assert.deepEqual(counts(await runImport({ client, brainId: 'two', path: work })), [1, 0, 0]);
  assert.deepEqual(counts(await runImport({ client, brainId: 'two', path: home })), [1, 0, 0]);
  assert.deepEqual(await items('two'), { ids: ['Home/Notes/todo.md', 'Notes/todo.md'], records: 2 });
  // Each again, in either order: each keeps its own name.
  assert.deepEqual(counts(await runImport({ client, brainId: 'two', path: home })), [0, 1, 0]);
  assert.deepEqual(counts(await runImport({ client, brainId: 'two', path: work })), [0, 1, 0]);
  // The browser says "Notes/todo.md": the name the first folder holds, as on every device.
  const edited = note(join(dir, 'two', 'upload', 'Notes', 'todo.md'), '# Todo\nSend the KAPPAITEM invoice\n');
  const uploaded = await upload('two', join(dir, 'two', 'upload'), [edited]);
  assert.deepEqual([uploaded.replaced, ...counts(uploaded)], [1, 0, 0, 0]);
  assert.deepEqual(await items('two'), { ids: ['Home/Notes/todo.md', 'Notes/todo.md'], records: 3 });
  await waitForDerivation(client, 'two');
  for (const word of ['IOTAITEM', 'KAPPAITEM'])
    assert.equal((await active('two', word)).length, 1, `${word} is current`);
});

test("an upload holding a note under a stored name and another folder's note of that name keeps them apart", async () => {
  const chosen = join(dir, 'both');
  const current = note(join(chosen, 'Notes', 'todo.md'), '# Todo\nOil the LAMBDAITEM hinges\n');
  const old = note(join(chosen, 'Archive', 'Notes', 'todo.md'), '# Todo\nFix the MUITEM latch\n');
  await client.createBrain({ id: 'both' });
  assert.deepEqual(counts(await upload('both', chosen, [current])), [1, 0, 0]);
  // Archive/ is read first, and its Notes/todo.md could be the stored one: the upload's own is.
  assert.deepEqual(counts(await upload('both', chosen, [old, current])), [1, 1, 0]);
  assert.deepEqual(await items('both'), { ids: ['Archive/Notes/todo.md', 'Notes/todo.md'], records: 2 });
});

test('from disk, two notes that could each take a stored name leave it to neither, whichever is read first', async () => {
  const parent = join(dir, 'rivals', 'Parent');
  const current = note(join(parent, 'Notes', 'todo.md'), '# Todo\nPaint the NUITEM shed\n');
  await client.createBrain({ id: 'rivals' });
  assert.deepEqual(counts(await upload('rivals', parent, [current])), [1, 0, 0]);
  // Archive/ is walked first; either Notes/todo.md could be the one uploaded.
  note(join(parent, 'Archive', 'Notes', 'todo.md'), '# Todo\nSand the XIITEM door\n');
  const run = await runImport({ client, brainId: 'rivals', path: parent });
  assert.deepEqual(counts(run), [2, 0, 0]);
  // One Record each: Archive's text did not become a revision of the stored note.
  assert.deepEqual(await items('rivals'), {
    ids: ['Notes/todo.md', 'Parent/Archive/Notes/todo.md', 'Parent/Notes/todo.md'],
    records: 3,
  });
  assert.equal(run.matchedNotes.count, 0);
});

test('an upload of two folders whose notes could each take a stored name leaves it to neither', async () => {
  const chosen = join(dir, 'pair');
  const stored = note(join(chosen, 'Notes', 'todo.md'), '# Todo\nBook the OMICRONITEM table\n');
  await client.createBrain({ id: 'pair' });
  assert.deepEqual(counts(await upload('pair', chosen, [stored])), [1, 0, 0]);
  const a = note(join(chosen, 'A', 'Notes', 'todo.md'), '# Todo\nBook the PIITEM flight\n');
  const b = note(join(chosen, 'B', 'Notes', 'todo.md'), '# Todo\nBook the RHOITEM train\n');
  assert.deepEqual(counts(await upload('pair', chosen, [a, b])), [2, 0, 0]);
  assert.deepEqual(await items('pair'), {
    ids: ['A/Notes/todo.md', 'B/Notes/todo.md', 'Notes/todo.md'],
    records: 3,
  });
  await waitForDerivation(client, 'pair');
  assert.equal((await active('pair', 'OMICRONITEM')).length, 1, 'the stored note is not superseded');
});

test('a key that may write but not read Records imports notes under their own names', async () => {
  const parent = join(dir, 'blind', 'Parent');
  const todo = note(join(parent, 'Notes', 'todo.md'), '# Todo\nTune the SIGMAITEM piano\n');
  await client.createBrain({ id: 'blind' });
  assert.deepEqual(counts(await upload('blind', parent, [todo])), [1, 0, 0]);
  const { key } = await registry.create({ ...tenant, scopes: ['records:write'] });
  const writer = createMnemoClient({ baseUrl: `${server.origin}/v1`, apiKey: key });
  const run = await runImport({ client: writer, brainId: 'blind', path: parent });
  assert.deepEqual([...counts(run), run.matchedNotes.count], [1, 0, 0, 0]);
  assert.deepEqual(await items('blind'), { ids: ['Notes/todo.md', 'Parent/Notes/todo.md'], records: 2 });
});

test('a note dated by a day alone, imported in one zone and then another, is stored once', async () => {
  const folder = join(dir, 'travel');
  const trip = note(join(folder, 'trip.md'), '---\ndate: 2024-04-02\n---\nBooked the ZETAITEM flights\n');
  const lisbon = await runImport({ client, brainId: 'travel', path: folder, timeZone: 'Europe/Lisbon' });
  assert.deepEqual(counts(lisbon), [1, 0, 0]);
  // This machine's zone, as an import without --time-zone reads it, and a zone far away.
  for (const timeZone of ['UTC', 'Asia/Tokyo'])
    assert.deepEqual(
      counts(await runImport({ client, brainId: 'travel', path: folder, timeZone })),
      [0, 1, 0],
    );
  // The app's upload of the same note, read in yet another zone.
  const uploaded = await client.importFiles('travel', {
    files: [{ name: 'travel/trip.md', content_base64: readFileSync(trip).toString('base64') }],
    time_zone: 'America/New_York',
  });
  assert.deepEqual(counts(uploaded), [0, 1, 0]);
  const records = (await client.listRecords('travel', {})).data;
  assert.deepEqual(
    records.map((r) => r.occurred_at),
    ['2024-04-02T00:00:00+01:00'],
    'one Record, dated as first imported',
  );
});

/**
 * BRAIN holding FOLDER's notes as a Mnemo before this one wrote them: each under its real absolute
 * path, with the text and time an import gives it now (read from an import into a scratch Brain).
 */
async function importedAsBefore(brain: string, folder: string, device?: string): Promise<string[]> {
  const scratch = `${brain}-scratch`;
  await runImport({ client, brainId: scratch, path: folder });
  const ids: string[] = [];
  for (const r of (await client.listRecords(scratch, { source: 'markdown', limit: 200 })).data) {
    const id = join(realpathSync(join(folder, '..')), r.source.external_id!)
      .split('\\')
      .join('/');
    const at = device === undefined ? id : id.replace(realpathSync(dir), device);
    await client.rememberRecord(brain, {
      content: r.content,
      source: { name: 'markdown', external_id: at },
      ...(r.occurred_at ? { occurred_at: r.occurred_at } : {}),
    });
    ids.push(at);
  }
  return ids.sort();
}

test('notes imported under their absolute paths before are the same items: unchanged, edited, removed', async () => {
  const folder = join(dir, 'upgrade', 'Notes');
  const todo = note(join(folder, 'todo.md'), '# Todo\nRenew the TAUITEM permit\n');
  note(join(folder, 'ideas.md'), '# Ideas\nA shed for the UPSILONITEM bikes\n');
  const gone = note(join(folder, 'gone.md'), '# Gone\nThe PHIITEM note\n');
  await client.createBrain({ id: 'upgrade' });
  const before = await importedAsBefore('upgrade', folder);
  // Another device's copy of the folder, imported before too, at its own path: this device's is taken.
  await importedAsBefore('upgrade', folder, '/Users/lena/Documents');
  const again = await runImport({ client, brainId: 'upgrade', path: folder });
  assert.deepEqual([again.replaced, ...counts(again)], [0, 0, 3, 0], 'no note is new');

  writeFileSync(todo, '# Todo\nRenew the CHIITEM permit\n');
  rmSync(gone);
  const edited = await runImport({ client, brainId: 'upgrade', path: folder, forgetMissing: true });
  assert.deepEqual([edited.replaced, ...counts(edited)], [1, 0, 1, 0]);
  assert.deepEqual(
    edited.forgottenItems.map((i) => i.externalId),
    [before.find((id) => id.endsWith('/gone.md'))],
  );
  const held = await items('upgrade');
  assert.equal(held.records, 6 - 1 + 1, "the removed note's Record forgotten, the edit one more");
  assert.ok(!held.ids.some((id) => id.startsWith('Notes/')), 'nothing was written under a new name');
  await waitForDerivation(client, 'upgrade');
  assert.deepEqual(await active('upgrade', 'TAUITEM').then((m) => m.length), 1, "the other device's");
  assert.equal((await active('upgrade', 'CHIITEM')).length, 1);
});

test("another folder's note imported before under its absolute path is not this folder's note of that name", async () => {
  const work = join(dir, 'apart', 'Work', 'Notes');
  note(join(work, 'todo.md'), '# Todo\nFile the PSIITEM report\n');
  await client.createBrain({ id: 'apart' });
  const [workId] = await importedAsBefore('apart', work);
  // Imported now, Home/Notes is the first folder this device names "Notes".
  const home = join(dir, 'apart', 'Home', 'Notes');
  note(join(home, 'todo.md'), '# Todo\nFeed the OMEGAITEM cat\n');
  const run = await runImport({ client, brainId: 'apart', path: home });
  assert.deepEqual([run.replaced, ...counts(run)], [0, 1, 0, 0]);
  assert.deepEqual(await items('apart'), { ids: ['Notes/todo.md', workId!].sort(), records: 2 });
  await waitForDerivation(client, 'apart');
  assert.equal((await active('apart', 'PSIITEM')).length, 1, "Work's note is current");
});
