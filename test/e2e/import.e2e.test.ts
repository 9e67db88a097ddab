// The Import screen against `mnemo serve --ui` with the local engine: choose files, drop files, the
// summary, re-import adding nothing (notes also when chosen another way), and removing a whole import.
// One server and one signed-in page for the file, each test on its own Brain.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { runImport } from '../../server/import/run-import.ts';
import { standups2022Ics } from '../../server/import/test-support.ts';
import { appPerFile, browserPerFile, checkScreen, navigateInPlace } from './harness.ts';

const context = browserPerFile();
const { app, ui } = appPerFile(context, 'local');
const samples = mkdtempSync(join(tmpdir(), 'mnemo-e2e-import-'));
after(() => rmSync(samples, { recursive: true, force: true }));

const noteText =
  '---\ndate: 2024-02-03\ntags: [garden]\n---\n# Garden\n\nThe quince tree was planted by the shed.\n';
const chatText =
  '12/01/2024, 09:15 - Bo: Lunch at the harbour on Friday?\n' +
  '12/01/2024, 09:16 - Ana: Yes, and bring the kayak maps\n' +
  'they are in the blue folder\n';

/** Drops files on the drop zone the way a browser does, with a DataTransfer holding them. */
async function dropFiles(page: Page, files: { name: string; text: string }[]): Promise<void> {
  const transfer = await page.evaluateHandle((list) => {
    // Runs in the page; the test project has Node's types, not the DOM's, so name the one DOM class used.
    const { DataTransfer } = globalThis as unknown as {
      DataTransfer: new () => { items: { add(file: File): void } };
    };
    const dt = new DataTransfer();
    for (const f of list) dt.items.add(new File([f.text], f.name, { type: 'text/plain' }));
    return dt;
  }, files);
  await page.locator('.dropzone').dispatchEvent('dragover', { dataTransfer: transfer });
  await page.locator('.dropzone').dispatchEvent('drop', { dataTransfer: transfer });
}

test('import a note and a WhatsApp chat from the screen; re-import adds nothing; remove the imports and they go', async () => {
  const notePath = join(samples, 'Garden.md');
  const chatPath = join(samples, 'WhatsApp Chat with Bo.txt');
  writeFileSync(notePath, noteText);
  writeFileSync(chatPath, chatText);
  await app().api.createBrain({ id: 'me', name: 'Me', self: { type: 'person', name: 'Ana' } });
  const { page, problems } = await ui();
  await navigateInPlace(page, '/');
  await page.getByRole('link', { name: 'Me', exact: true }).click();
  const nav = page.getByRole('navigation', { name: 'Brain me' });
  await nav.getByRole('link', { name: 'Import' }).click();
  await page.getByRole('heading', { level: 1, name: 'Import' }).waitFor();
  await page.getByText('Nothing imported yet').waitFor();

  await page.getByLabel('Files', { exact: true }).setInputFiles([notePath, chatPath]);
  await page.getByRole('list', { name: 'Chosen files' }).getByText('WhatsApp Chat with Bo.txt').waitFor();
  await page.getByLabel('Time zone').fill('Europe/Lisbon');
  await page.getByRole('button', { name: 'Import 2 files' }).click();
  const summary = page.locator('.import-summary');
  await summary.getByRole('heading', { name: 'Import finished' }).waitFor();
  assert.match((await summary.textContent()) ?? '', /3 new items imported, 0 items already here/);
  await summary.getByText(/Garden\.md: read as Markdown notes/).waitFor();
  await summary.getByText(/WhatsApp Chat with Bo\.txt: read as a WhatsApp chat/).waitFor();
  // 12/01/2024 is 12 January or 1 December: the summary says which it read, and how to choose.
  await summary.getByText(/its dates read both ways \(12\/1 could be 12 January or 1 December\)/).waitFor();
  const imports = page.getByRole('table');
  await imports.getByText('WhatsApp chats', { exact: true }).waitFor();
  await imports.getByText('Markdown notes', { exact: true }).waitFor();
  // Each import counts what a person brought in, by what it is.
  await imports.getByRole('row', { name: /^Markdown notes markdown 1 note / }).waitFor();
  await imports.getByRole('row', { name: /^WhatsApp chats whatsapp 2 messages / }).waitFor();
  await checkScreen(page, 'import');

  await nav.getByRole('link', { name: 'Records' }).click();
  await page
    .getByText(/quince tree/)
    .first()
    .waitFor();
  await page
    .getByText(/kayak maps/)
    .first()
    .waitFor();
  await nav.getByRole('link', { name: 'Memories' }).click();
  await page
    .getByRole('link', { name: /quince tree/ })
    .first()
    .waitFor();
  await page
    .getByRole('link', { name: /kayak maps/ })
    .first()
    .waitFor();

  // The same files again, dropped this time: nothing new.
  await nav.getByRole('link', { name: 'Import' }).click();
  await dropFiles(page, [
    { name: 'Garden.md', text: noteText },
    { name: 'WhatsApp Chat with Bo.txt', text: chatText },
  ]);
  await page.getByRole('list', { name: 'Chosen files' }).getByText('Garden.md').waitFor();
  await page.getByLabel('Time zone').fill('Europe/Lisbon');
  await page.getByRole('button', { name: 'Import 2 files' }).click();
  await summary.getByText(/0 new items imported, 3 items already here/).waitFor();
  const records = await app().api.listRecords('me');
  assert.equal(records.data.length, 3, 're-importing wrote no Record');

  for (const label of ['WhatsApp chats', 'Markdown notes']) {
    await page.getByRole('button', { name: `Remove this import of ${label}` }).click();
    const dialog = page.getByRole('dialog', { name: `Remove the import “${label}”?` });
    await dialog.getByText(/Memories that rest only on them are removed too/).waitFor();
    await dialog.getByRole('button', { name: 'Remove import' }).click();
    await page
      .getByRole('status')
      .getByText(new RegExp(`Removed “${label}”`))
      .waitFor();
  }
  await page.getByText('Nothing imported yet').waitFor();
  await nav.getByRole('link', { name: 'Records' }).click();
  await page.getByText('Nothing written yet').waitFor();
  await nav.getByRole('link', { name: 'Memories' }).click();
  await page.getByRole('heading', { level: 1, name: 'Memories' }).waitFor();
  await page.getByText('No Memories yet').waitFor();
  assert.equal(await page.getByText(/quince|kayak/).count(), 0);

  // The chat again, its dates read month first as chosen: 1 December, and nothing to say about it.
  await nav.getByRole('link', { name: 'Import' }).click();
  await page.getByLabel('Files', { exact: true }).setInputFiles([chatPath]);
  await page.getByLabel('Time zone').fill('UTC');
  await page.getByLabel('Dates in WhatsApp chats').selectOption('mdy');
  await page.getByRole('button', { name: 'Import 1 file' }).click();
  await summary.getByText(/2 new items imported/).waitFor();
  assert.doesNotMatch((await summary.textContent()) ?? '', /read both ways/);
  const dated = await app().api.listRecords('me');
  assert.deepEqual(
    dated.data.map((r) => r.occurred_at.slice(0, 10)),
    ['2024-12-01', '2024-12-01'],
  );
  assert.deepEqual(problems, []);
});

test("import a calendar: a repeating event outside the default window is named, the chosen days bring it in; your name is the Brain's own person", async () => {
  const calPath = join(samples, 'work.ics');
  writeFileSync(calPath, standups2022Ics);
  await app().api.createBrain({ id: 'cal', name: 'Cal', self: { type: 'person', name: 'Ana Silva' } });
  const { page, problems } = await ui();
  await navigateInPlace(page, '/');
  await page.getByRole('link', { name: 'Cal', exact: true }).click();
  const nav = page.getByRole('navigation', { name: 'Brain cal' });
  await nav.getByRole('link', { name: 'Import' }).click();
  await page.getByRole('heading', { level: 1, name: 'Import' }).waitFor();
  // Until the person types another, their name is the Brain's own person's.
  const name = page.getByLabel('Your name in chats and mail');
  for (let i = 0; i < 100 && (await name.inputValue()) === ''; i += 1) await page.waitForTimeout(50);
  assert.equal(await name.inputValue(), 'Ana Silva');

  await page.getByLabel('Files', { exact: true }).setInputFiles([calPath]);
  await page.getByRole('button', { name: 'Import 1 file' }).click();
  const summary = page.locator('.import-summary');
  await summary.getByText(/0 new items imported/).waitFor();
  await summary.getByText('Why items were skipped').click();
  await summary.getByText(/series "Team standup": no occurrence in the import window/).waitFor();

  await page.getByLabel('Files', { exact: true }).setInputFiles([calPath]);
  const days = page.getByRole('group', { name: /Repeating calendar events/ });
  // The To day is in the window: 6 to 14 March holds the first two (09:00Z on the 7th and the 14th).
  // The days are the browser's; a From of the 6th keeps the 7th's in them in any zone, UTC-12 to +14.
  await days.getByLabel('From', { exact: true }).fill('2022-03-06');
  await days.getByLabel('To', { exact: true }).fill('2022-03-14');
  await page.getByRole('button', { name: 'Import 1 file' }).click();
  await summary.getByText(/2 new items imported/).waitFor();
  assert.deepEqual((await app().api.listRecords('cal')).data.map((r) => r.occurred_at.slice(0, 10)).sort(), [
    '2022-03-07',
    '2022-03-14',
  ]);
  await page.getByLabel('Files', { exact: true }).setInputFiles([calPath]);
  await days.getByLabel('From', { exact: true }).fill('2022-01-01');
  await days.getByLabel('To', { exact: true }).fill('2022-12-31');
  await page.getByRole('button', { name: 'Import 1 file' }).click();
  await summary.getByText(/1 new item imported/).waitFor();
  const records = await app().api.listRecords('cal');
  assert.deepEqual(records.data.map((r) => r.occurred_at.slice(0, 10)).sort(), [
    '2022-03-07',
    '2022-03-14',
    '2022-03-21',
  ]);
  await checkScreen(page, 'import-calendar');
  assert.deepEqual(problems, []);
});

test('an import chosen for this device only writes local_only Records; the default shares them', async () => {
  const privatePath = join(samples, 'Diary.md');
  const sharedPath = join(samples, 'Plans.md');
  writeFileSync(privatePath, '# Diary\n\nSaw the doctor about my knee.\n');
  writeFileSync(sharedPath, '# Plans\n\nBook the ferry for June.\n');
  await app().api.createBrain({ id: 'device', name: 'Device', self: { type: 'person', name: 'Ana' } });
  const { page } = await ui();
  await navigateInPlace(page, '/');
  await page.getByRole('link', { name: 'Device', exact: true }).click();
  await page.getByRole('navigation', { name: 'Brain device' }).getByRole('link', { name: 'Import' }).click();
  await page.getByRole('heading', { level: 1, name: 'Import' }).waitFor();
  const importOne = async (path: string) => {
    await page.getByLabel('Files', { exact: true }).setInputFiles([path]);
    await page.getByRole('button', { name: 'Import 1 file' }).click();
    await page.locator('.import-summary').getByRole('heading', { name: 'Import finished' }).waitFor();
  };
  await page.getByLabel(/Who may see them/).selectOption('local_only');
  await importOne(privatePath);
  await page.getByLabel(/Who may see them/).selectOption('shareable');
  await importOne(sharedPath);
  const records = (await app().api.listRecords('device')).data;
  const of = (words: string) => records.find((r) => JSON.stringify(r.content).includes(words))?.visibility;
  assert.equal(of('doctor'), 'local_only');
  assert.equal(of('ferry'), 'shareable');
});

test('notes chosen from their folder, then from its parent, then imported from disk add nothing; an edit replaces the old version', async () => {
  const parent = join(samples, 'Parent');
  const notes = join(parent, 'Notes');
  mkdirSync(notes, { recursive: true });
  writeFileSync(join(notes, 'todo.md'), '# Todo\n\nRepaint the gate green.\n');
  writeFileSync(join(notes, 'ideas.md'), '# Ideas\n\nA bench under the fig tree.\n');
  await app().api.createBrain({ id: 'folders', name: 'Folders' });
  const { page, problems } = await ui();
  await navigateInPlace(page, '/brains/folders/import');
  await page.getByRole('heading', { level: 1, name: 'Import' }).waitFor();
  await page.getByText(/also when you choose a folder above it or import it with mnemo import/).waitFor();
  const summary = page.locator('.import-summary');
  const importFolder = async (folder: string, said: RegExp) => {
    await page.getByLabel('A folder (a vault, a Slack export)').setInputFiles(folder);
    await page.getByRole('button', { name: 'Import 2 files' }).click();
    await summary.getByText(said).waitFor();
  };

  await importFolder(notes, /2 new items imported, 0 items already here/);
  await importFolder(parent, /0 new items imported, 2 items already here/);
  await summary.getByText(/2 notes were matched to notes already here by folder and file name/).waitFor();
  const matched = summary.getByRole('list', { name: 'Notes matched to notes already here' });
  assert.deepEqual(await matched.getByRole('listitem').allTextContents(), [
    'Parent/Notes/ideas.md → Notes/ideas.md',
    'Parent/Notes/todo.md → Notes/todo.md',
  ]);
  const disk = await runImport({ client: app().api, brainId: 'folders', path: parent });
  assert.deepEqual([disk.imported, disk.unchanged, disk.failed], [0, 2, 0]);

  writeFileSync(join(notes, 'todo.md'), '# Todo\n\nRepaint the gate blue.\n');
  await importFolder(
    parent,
    /0 new items imported, 1 item replaced with its new version, 1 item already here/,
  );
  await summary.getByText(/: read as .* — 0 new, 1 replaced, 1 already here, 0 skipped\./).waitFor();
  // Two notes, not three Records: the edited note's earlier version is said apart.
  await page
    .getByRole('table')
    .getByRole('row', { name: /^Markdown notes markdown 2 notes 1 replaced version / })
    .waitFor();
  const records = (await app().api.listRecords('folders', { source: 'markdown' })).data;
  assert.deepEqual(
    [...new Set(records.map((r) => r.source.external_id))].sort(),
    ['Notes/ideas.md', 'Notes/todo.md'],
    'two notes, whichever way they were chosen',
  );
  assert.equal(records.length, 3, 'the edited note is a new revision of the same item');
  const same = await runImport({ client: app().api, brainId: 'folders', path: notes });
  assert.deepEqual([same.imported, same.replaced, same.unchanged], [0, 0, 2]);
  // Edited again and imported from disk (`mnemo import`): replaced there too.
  writeFileSync(join(notes, 'ideas.md'), '# Ideas\n\nA bench under the olive tree.\n');
  const edited = await runImport({ client: app().api, brainId: 'folders', path: notes });
  assert.deepEqual([edited.imported, edited.replaced, edited.unchanged], [0, 1, 1]);
  assert.deepEqual(problems, []);
});

test('one WhatsApp chat of an import is removed alone from the screen; the other chats stay', async () => {
  const boPath = join(samples, 'WhatsApp Chat with Bo.txt');
  const cyPath = join(samples, 'WhatsApp Chat with Cy.txt');
  writeFileSync(boPath, chatText);
  writeFileSync(cyPath, '13/01/2024, 10:00 - Cy: The hives are calm\n');
  await app().api.createBrain({ id: 'two-chats', name: 'Two chats' });
  const { page, problems } = await ui();
  await navigateInPlace(page, '/');
  await page.getByRole('link', { name: 'Two chats', exact: true }).click();
  const nav = page.getByRole('navigation', { name: 'Brain two-chats' });
  await nav.getByRole('link', { name: 'Import' }).click();
  await page.getByLabel('Files', { exact: true }).setInputFiles([boPath, cyPath]);
  await page.getByLabel('Time zone').fill('UTC');
  await page.getByRole('button', { name: 'Import 2 files' }).click();
  await page
    .locator('.import-summary')
    .getByText(/3 new items imported/)
    .waitFor();

  const imports = page.getByRole('table');
  await imports.getByRole('row', { name: /Chat “Bo” 2 messages/ }).waitFor();
  await imports.getByRole('row', { name: /Chat “Cy” 1 message/ }).waitFor();
  await checkScreen(page, 'import-chats');
  await page.getByRole('button', { name: 'Remove this chat “Bo”' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove the chat “Bo”?' });
  await dialog.getByText(/The other chats of WhatsApp chats stay/).waitFor();
  await dialog.getByRole('button', { name: 'Remove chat' }).click();
  await page
    .getByRole('status')
    .getByText(/Removed the chat “Bo” of WhatsApp chats: 2 Records/)
    .waitFor();
  await imports.getByRole('row', { name: /Chat “Bo”/ }).waitFor({ state: 'detached' });
  await imports.getByRole('row', { name: /Chat “Cy” 1 message/ }).waitFor();
  await imports.getByText('WhatsApp chats', { exact: true }).waitFor();
  const left = await app().api.listRecords('two-chats');
  assert.deepEqual(
    left.data.map((r) => r.source.external_id),
    ['whatsapp:Cy:2024-01-13T10:00:00.000Z:Cy:1'],
  );
  assert.deepEqual(problems, []);
});
