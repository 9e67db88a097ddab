// The Import form against `mnemo serve --ui` with the local engine: what a person chose (files and
// options) is still there after a look at another tab, per Brain, and each chosen file can be removed
// alone, from the keyboard too. One server and one signed-in page for the file, each test on its own
// Brain.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { appPerFile, browserPerFile, checkScreen, navigateInPlace } from './harness.ts';

const context = browserPerFile();
const { app, ui } = appPerFile(context, 'local');

const note = (name: string, words: string) => ({
  name,
  mimeType: 'text/markdown',
  buffer: Buffer.from(`# ${name}\n\n${words}\n`),
});

async function openImport(page: Page, brainId: string): Promise<void> {
  await navigateInPlace(page, `/brains/${brainId}/import`);
  await page.getByRole('heading', { level: 1, name: 'Import' }).waitFor();
}

/** The accessible name a focused Remove button carries ("Remove a.md"). */
const focusedLabel = (page: Page): Promise<string> =>
  page.evaluate<string>('document.activeElement?.getAttribute("aria-label") ?? ""');

const chosenPaths = async (page: Page): Promise<string[]> =>
  (await page.getByRole('list', { name: 'Chosen files' }).locator('li .mono').allTextContents()).sort();

test('the files and options chosen on Import are still there after a look at another tab, for that Brain only', async () => {
  await app().api.createBrain({ id: 'keep', name: 'Keep', self: { type: 'person', name: 'Ana' } });
  await app().api.createBrain({ id: 'other', name: 'Other' });
  const { page, problems } = await ui();
  await openImport(page, 'keep');
  await page
    .getByLabel('Files', { exact: true })
    .setInputFiles([
      note('Garden.md', 'The quince tree by the shed.'),
      note('Boat.md', 'The kayak is blue.'),
    ]);
  await page.getByLabel('What kind of export is it?').selectOption('markdown');
  await page.getByLabel('Time zone').fill('Europe/Lisbon');
  await page.getByLabel('Your name in chats and mail').fill('Ana Silva');
  await page.getByLabel('Dates in WhatsApp chats').selectOption('mdy');
  await page.getByLabel(/Who may see them/).selectOption('local_only');
  const days = page.getByRole('group', { name: /Repeating calendar events/ });
  await days.getByLabel('From', { exact: true }).fill('2022-03-06');
  await days.getByLabel('To', { exact: true }).fill('2022-03-14');

  const nav = page.getByRole('navigation', { name: 'Brain keep' });
  await nav.getByRole('link', { name: 'Records' }).click();
  await page.getByRole('heading', { level: 1, name: 'Records' }).waitFor();
  await nav.getByRole('link', { name: 'Import' }).click();
  await page.getByRole('heading', { level: 1, name: 'Import' }).waitFor();

  assert.deepEqual(await chosenPaths(page), ['Boat.md', 'Garden.md']);
  await page.getByRole('button', { name: 'Import 2 files' }).waitFor();
  assert.equal(await page.getByLabel('What kind of export is it?').inputValue(), 'markdown');
  assert.equal(await page.getByLabel('Time zone').inputValue(), 'Europe/Lisbon');
  assert.equal(await page.getByLabel('Your name in chats and mail').inputValue(), 'Ana Silva');
  assert.equal(await page.getByLabel('Dates in WhatsApp chats').inputValue(), 'mdy');
  assert.equal(await page.getByLabel(/Who may see them/).inputValue(), 'local_only');
  assert.equal(await days.getByLabel('From', { exact: true }).inputValue(), '2022-03-06');
  assert.equal(await days.getByLabel('To', { exact: true }).inputValue(), '2022-03-14');

  // Another Brain's form is its own.
  await openImport(page, 'other');
  await page.getByText('Nothing chosen yet.').waitFor();
  assert.equal(await page.getByLabel('Time zone').inputValue(), '');
  assert.equal(await page.getByLabel(/Who may see them/).inputValue(), 'shareable');

  // The files kept are the files chosen: imported as chosen, for this device only.
  await openImport(page, 'keep');
  await page.getByRole('button', { name: 'Import 2 files' }).click();
  await page
    .locator('.import-summary')
    .getByText(/2 new items imported/)
    .waitFor();
  const records = (await app().api.listRecords('keep')).data;
  assert.deepEqual(
    records.map((r) => r.visibility),
    ['local_only', 'local_only'],
  );
  assert.ok(records.some((r) => JSON.stringify(r.content).includes('quince tree')));
  // Sent: the list starts again; the options stay for the next import.
  await page.getByText('Nothing chosen yet.').waitFor();
  assert.equal(await page.getByLabel('Time zone').inputValue(), 'Europe/Lisbon');
  assert.deepEqual(problems, []);
});

test('an import that ends while another tab is on screen takes its files off the list, and keeps a file chosen meanwhile', async () => {
  await app().api.createBrain({ id: 'away', name: 'Away' });
  const { page, problems } = await ui();
  await openImport(page, 'away');
  // Enough notes that the import is still running when the person looks elsewhere.
  const total = 300;
  const notes = Array.from({ length: total }, (_, i) =>
    note(`note-${String(i).padStart(4, '0')}.md`, `The heron came back to pond ${i}.`),
  );
  await page.getByLabel('Files', { exact: true }).setInputFiles(notes);
  await page.getByRole('button', { name: `Import ${total} files` }).click();
  // Chosen while the files go out: added to the list after them, not shown among its first eight.
  await page
    .getByLabel('Files', { exact: true })
    .setInputFiles([note('Later.md', 'Chosen during the import.')]);
  // Still running when the person looks elsewhere.
  await page.getByRole('progressbar', { name: 'Import progress' }).waitFor();
  const nav = page.getByRole('navigation', { name: 'Brain away' });
  await nav.getByRole('link', { name: 'Records' }).click();
  await page.getByRole('heading', { level: 1, name: 'Records' }).waitFor();
  const deadline = Date.now() + 90_000;
  while ((await app().api.getCensus('away')).counts.records < total) {
    assert.ok(Date.now() < deadline, 'the import did not finish');
    await new Promise((r) => setTimeout(r, 200));
  }
  await nav.getByRole('link', { name: 'Import' }).click();
  await page
    .locator('.import-summary')
    .getByText(new RegExp(`${total} new items imported`))
    .waitFor({ timeout: 30_000 });
  assert.deepEqual(await chosenPaths(page), ['Later.md']);
  await page.getByRole('button', { name: 'Import 1 file' }).waitFor();
  assert.deepEqual(problems, []);
});

test('each chosen file can be removed alone, from the keyboard; focus goes to the next one, then back to Files', async () => {
  await app().api.createBrain({ id: 'pick', name: 'Pick' });
  const { page, problems } = await ui();
  await openImport(page, 'pick');
  const files = page.getByLabel('Files', { exact: true });
  await files.setInputFiles([note('a.md', 'Alpha.'), note('b.md', 'Bravo.'), note('c.md', 'Charlie.')]);
  await page.getByText('3 files chosen').waitFor();

  // Tab from one Remove to the next, Enter on it: b.md goes, and focus is on c.md's.
  await page.getByRole('button', { name: 'Remove a.md' }).focus();
  await page.keyboard.press('Tab');
  assert.equal(await focusedLabel(page), 'Remove b.md');
  await page.keyboard.press('Enter');
  await page.getByText('2 files chosen').waitFor();
  assert.deepEqual(await chosenPaths(page), ['a.md', 'c.md']);
  assert.equal(await focusedLabel(page), 'Remove c.md');
  // The box does not go on saying "3 files" of a list of two.
  assert.equal(await files.inputValue(), '');
  await checkScreen(page, 'import-chosen-files');

  await page.getByRole('button', { name: 'Import 2 files' }).click();
  await page
    .locator('.import-summary')
    .getByText(/2 new items imported/)
    .waitFor();
  const texts = (await app().api.listRecords('pick')).data.map((r) => JSON.stringify(r.content));
  assert.equal(texts.length, 2);
  assert.ok(!texts.some((t) => t.includes('Bravo')), 'the removed file was not sent');

  // The last one removed: focus goes back to where files are chosen.
  await files.setInputFiles([note('d.md', 'Delta.'), note('e.md', 'Echo.')]);
  await page.getByRole('button', { name: 'Remove e.md' }).press('Enter');
  assert.equal(await focusedLabel(page), 'Remove d.md');
  await page.keyboard.press('Enter');
  await page.getByText('Nothing chosen yet.').waitFor();
  assert.equal(
    await page.evaluate<string>('document.activeElement?.getAttribute("type") ?? ""'),
    'file',
    'focus is on the Files box',
  );

  // Past the first eight, "Show all" lists every file, each with its own Remove.
  await files.setInputFiles(Array.from({ length: 10 }, (_, i) => note(`n${i}.md`, `Note ${i}.`)));
  await page.getByText('and 2 more').waitFor();
  assert.equal(await page.getByRole('button', { name: 'Remove n9.md' }).count(), 0);
  await page.getByRole('button', { name: 'Show all 10 files' }).click();
  await page.getByRole('button', { name: 'Remove n9.md' }).click();
  await page.getByText('9 files chosen').waitFor();
  assert.equal(await page.getByRole('list', { name: 'Chosen files' }).getByText('n9.md').count(), 0);
  assert.deepEqual(problems, []);
});

test('a Brain forgotten takes its Import choices with it: one made again with its id starts blank', async () => {
  await app().api.createBrain({ id: 'again', name: 'Again' });
  const { page, problems } = await ui();
  await openImport(page, 'again');
  await page.getByLabel('Files', { exact: true }).setInputFiles([note('Old.md', 'From the first Brain.')]);
  await page.getByLabel('Time zone').fill('Asia/Tokyo');
  await page.getByRole('button', { name: 'Import 1 file' }).waitFor();

  await navigateInPlace(page, '/');
  await page.getByRole('button', { name: 'Forget again' }).click();
  const dialog = page.getByRole('dialog', { name: /^Forget the Brain/ });
  await dialog.getByLabel(/^Type its short id/).fill('again');
  await dialog.getByRole('button', { name: 'Forget this Brain' }).click();
  await page.getByRole('status').filter({ hasText: 'Forgot the Brain' }).waitFor();

  await app().api.createBrain({ id: 'again', name: 'Again' });
  await openImport(page, 'again');
  await page.getByText('Nothing chosen yet.').waitFor();
  assert.equal(await page.getByLabel('Time zone').inputValue(), '');
  assert.deepEqual(problems, []);
});
