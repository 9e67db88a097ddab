// Checked in the real UI, from a QA pass over a new user's first hours: an invalid Brain id is refused in
// the form's words; the Forget-Brain dialog and Census do not count the importer's own Objects as
// accepted ones; a future calendar event's Memory does not read "from …" beside "Current"; a correction being typed is not
// lost to a reload or a server restart (and signing in again returns to its page).
// One browser for the file; one server for the file, and the restart's own, started twice.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMnemoClient } from '../../server/client/index.ts';
import { FileKeyRegistry } from '../../engine/auth/key-registry.ts';
import { icsOf } from '../../server/import/test-support.ts';
import { startServer } from '../../server/start-server.ts';
import {
  appPerFile,
  browserPerFile,
  checkScreen,
  derivationSettled,
  focusedElement,
  navigateInPlace,
} from './harness.ts';

const context = browserPerFile();
const { app, ui } = appPerFile(context, 'local');

const base64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const draftKeys = (page: Page) =>
  page.evaluate<string[]>(
    'Object.keys(sessionStorage).filter((k) => k.startsWith("mnemo.draft-correction."))',
  );

test('a Brain id with a space is refused in the form’s words; an underscore is taken', async () => {
  const { page, problems } = await ui();
  await navigateInPlace(page, '/');
  const id = page.getByLabel(/^Short id/);
  await id.waitFor();
  assert.match(await page.locator('label', { has: id }).innerText(), /underscores/);
  await id.fill('Work Notes');
  await page.getByRole('button', { name: 'Create Brain' }).click();
  const refused = page.getByRole('alert').filter({ hasText: 'Work Notes' });
  await refused.waitFor();
  assert.match(await refused.innerText(), /no spaces/);
  assert.match(await refused.innerText(), /Work-Notes/);
  assert.equal(await id.getAttribute('aria-invalid'), 'true');
  assert.equal(await page.evaluate<string>('document.activeElement?.getAttribute("name") ?? ""'), 'id');
  await checkScreen(page, 'brain-id-refused');
  await id.fill('work_notes');
  await refused.waitFor({ state: 'detached' });
  await page.getByRole('button', { name: 'Create Brain' }).click();
  await page.waitForURL(/\/brains\/work_notes/);
  assert.equal((await app().api.getBrain('work_notes')).id, 'work_notes');
  assert.deepEqual(problems, []);
});

/** A Brain holding one calendar file with one all-day event two years from now, derived. */
async function calendarBrain(brainId: string, name: string): Promise<number> {
  const year = new Date().getUTCFullYear() + 2;
  await app().api.createBrain({ id: brainId, name, self: { type: 'person', name: 'Ana' } });
  const ics = icsOf([
    'UID:maya@example.com',
    `DTSTART;VALUE=DATE:${year}0314`,
    `DTEND;VALUE=DATE:${year}0315`,
    "SUMMARY:Maya's birthday",
  ]);
  const imported = await app().api.importFiles(brainId, {
    files: [{ name: 'family.ics', content_base64: base64(ics) }],
  });
  assert.equal(imported.imported, 1);
  await derivationSettled(app(), brainId);
  return year;
}

test("the Forget dialog names the importer's own Objects as such, not as accepted ones", async () => {
  await calendarBrain('plans', 'Plans');
  const objects = (await app().api.listObjects('plans')).data;
  assert.deepEqual(
    objects.map((o) => o.type),
    ['mnemo-import-file'],
    'the importer keeps one Object for the file; the person accepted none',
  );
  const { page, problems } = await ui();
  await navigateInPlace(page, '/');
  await page.getByRole('button', { name: 'Forget plans' }).click();
  const dialog = page.getByRole('dialog', { name: 'Forget the Brain “Plans”?' });
  await dialog.getByText('0 accepted Objects').waitFor();
  await dialog.getByText('1 Object Mnemo keeps for its imports', { exact: false }).waitFor();
  assert.doesNotMatch(await dialog.innerText(), /1 accepted Object/);
  await checkScreen(page, 'forget-brain-import-objects');
  await dialog.getByLabel(/^Type its short id/).fill('plans');
  await dialog.getByRole('button', { name: 'Forget this Brain' }).click();
  const gone = page.getByRole('status').filter({ hasText: 'Forgot the Brain' });
  await gone.waitFor();
  assert.match(await gone.innerText(), /0 accepted Objects and 1 Object Mnemo kept for its imports\.$/);
  assert.deepEqual(problems, []);
});

test("Census counts the importer's own Objects apart from accepted ones, as the Forget dialog does", async () => {
  await calendarBrain('census', 'Census');
  const { page, problems } = await ui();
  await navigateInPlace(page, '/brains/census/profile');
  const facts = page.locator('section[aria-labelledby="census"] dl.facts');
  const value = (term: string) =>
    facts.locator('dt', { hasText: new RegExp(`^${term}$`) }).locator('xpath=following-sibling::dd[1]');
  await value('Objects Mnemo keeps for its imports').waitFor();
  assert.equal((await value('Accepted Objects').innerText()).trim(), '0');
  assert.match(await value('Objects Mnemo keeps for its imports').innerText(), /^1 /);
  await checkScreen(page, 'census-import-objects');
  assert.deepEqual(problems, []);
});

test('a future calendar event\'s Memory is current now, about its day to come, not "from" it', async () => {
  const year = await calendarBrain('events', 'Events');
  const maya = (await app().api.listMemories('events')).data.find((m) => m.statement.includes('Maya'))!;
  assert.ok(maya, "the birthday's Memory");
  // The engine's word: an event holds no slot, so it is current from when it is known (not scheduled).
  assert.equal(maya.status, 'active');
  const { page, problems } = await ui();
  await navigateInPlace(page, '/brains/events/memories');
  const row = page.getByRole('row').filter({ hasText: "Maya's birthday" });
  await row.waitFor();
  const [truth, , status] = (await row.getByRole('cell').allInnerTexts()).slice(3);
  assert.equal(status, 'Current');
  assert.equal(truth, `now (about Mar 14, ${year}, still to come)`);
  await navigateInPlace(page, `/brains/events/memories/${maya.id}`);
  const facts = page.locator('.facts');
  await facts.getByText('Current').waitFor();
  assert.match(await facts.innerText(), new RegExp(`True\\s+now \\(about Mar 14, ${year}, still to come\\)`));
  assert.doesNotMatch(await facts.innerText(), /from Mar 14/);
  assert.deepEqual(problems, []);
});

test('a correction being typed is there again after a reload, until it is discarded or saved', async () => {
  await app().api.createBrain({ id: 'fix', name: 'Fix', self: { type: 'person', name: 'Ana' } });
  await app().api.rememberRecord('fix', {
    content: { kind: 'fact', subject: 'Ana', predicate: 'city', value: 'Lisbon' },
    occurred_at: '2024-01-01T00:00:00Z',
  });
  await derivationSettled(app(), 'fix');
  const [lisbon] = (await app().api.listMemories('fix')).data;
  const { page, problems } = await ui();
  await navigateInPlace(page, `/brains/fix/memories/${lisbon!.id}`);
  const statement = page.getByLabel('What is actually true');
  const reason = page.getByLabel(/^Why/);
  await statement.waitFor();
  const original = await statement.inputValue();
  await statement.fill("Ana's city: Porto");
  await reason.fill('I moved in May');
  await page.reload();
  await page.getByRole('heading', { level: 1, name: original }).waitFor();
  assert.equal(await statement.inputValue(), "Ana's city: Porto");
  assert.equal(await reason.inputValue(), 'I moved in May');
  await page.getByText('Your correction from before is still here, not saved yet.').waitFor();
  await checkScreen(page, 'correction-draft-restored');

  // Discarded: the Memory's own words again, and nothing kept for the next reload.
  await page.getByRole('button', { name: 'Discard changes' }).click();
  assert.equal(await statement.inputValue(), original);
  assert.equal(await reason.inputValue(), '');
  assert.match(await focusedElement(page), /^TEXTAREA/);
  assert.deepEqual(await draftKeys(page), []);
  await page.reload();
  await page.getByRole('heading', { level: 1, name: original }).waitFor();
  assert.equal(await statement.inputValue(), original);
  assert.equal(await page.getByText('Your correction from before is still here').count(), 0);

  // Saved: kept no longer.
  await statement.fill("Ana's city: Porto");
  assert.equal((await draftKeys(page)).length, 1);
  await page.getByRole('button', { name: 'Save correction' }).click();
  await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
  assert.deepEqual(await draftKeys(page), []);
  assert.deepEqual(problems, []);
});

test('a correction typed before the server restarts is there again after signing in, on its own page', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'mnemo-e2e-restart-'));
  const keyRegistry = join(dataDir, 'keys.json');
  FileKeyRegistry.ensure(keyRegistry);
  const options = {
    engine: 'local' as const,
    ui: true,
    dataDir,
    keyRegistry,
    configDir: join(dataDir, 'config'),
  };
  let server = await startServer({ ...options, port: 0 });
  const port = Number(new URL(server.url).port);
  const page = await context().newPage();
  try {
    const key = (await server.registry!.create({ env: 'live', project: 'local', label: 'e2e' })).key;
    const api = createMnemoClient({ baseUrl: server.url, apiKey: key, retry: false });
    await api.createBrain({ id: 'restart', name: 'Restart', self: { type: 'person', name: 'Ana' } });
    await api.rememberRecord('restart', {
      content: { kind: 'fact', subject: 'Ana', predicate: 'city', value: 'Lisbon' },
      occurred_at: '2024-01-01T00:00:00Z',
    });
    await derivationSettled({ api } as Parameters<typeof derivationSettled>[0], 'restart');
    const [lisbon] = (await api.listMemories('restart')).data;
    await page.goto(server.uiUrl!);
    await page.getByRole('heading', { level: 1, name: 'Brains' }).waitFor();
    const memoryPath = `/brains/restart/memories/${lisbon!.id}`;
    await navigateInPlace(page, memoryPath);
    const statement = page.getByLabel('What is actually true');
    await statement.fill('Ana lives in Porto, near the river');
    await page.getByLabel(/^Why/).fill('Moved last spring');

    // The server stops and starts again on its address: the UI's key is revoked, the tab is signed out.
    await server.close();
    server = await startServer({ ...options, port });
    await page.getByRole('alert').filter({ hasText: 'This sign-in has ended' }).waitFor({ timeout: 45_000 });
    // The person opens the new address the server printed, in the same tab.
    await page.goto(server.uiUrl!);
    await page.getByRole('heading', { level: 1 }).filter({ hasText: 'Lisbon' }).waitFor();
    assert.equal(new URL(page.url()).pathname, memoryPath, 'back on the page they were on');
    assert.equal(await statement.inputValue(), 'Ana lives in Porto, near the river');
    assert.equal(await page.getByLabel(/^Why/).inputValue(), 'Moved last spring');
    await page.getByText('Your correction from before is still here, not saved yet.').waitFor();
  } finally {
    await page.close();
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
