// The UI against `mnemo serve --ui` with the local engine: derivation, correction, Objects, forgetting.
// One server and one signed-in page for the file, each test on its own Brain.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Request } from 'playwright-core';
import { appPerFile, browserPerFile, checkScreen, navigateInPlace } from './harness.ts';

const context = browserPerFile();
// A synchronous budget of 1 ms for thorough questions: every thorough assembly outlasts it, so the
// first answer to one is always a 202. Only the last test asks a thorough question.
const { app, ui } = appPerFile(context, 'local', { thoroughSyncMs: 1 });

test('correct a Memory and see the new version; accept it as an Object; forget a Record and its Memory goes', async () => {
  await app().api.createBrain({ id: 'me', name: 'Me', self: { type: 'person', name: 'Ana' } });
  await app().api.rememberRecord('me', {
    content: { kind: 'fact', subject: 'Ana', predicate: 'city', value: 'Lisbon' },
    source: { name: 'mail' },
  });
  const { record: note } = await app().api.rememberRecord('me', {
    content: { kind: 'message', text: 'I started learning the cello last winter.', speaker: 'Ana' },
  });
  const { page, problems } = await ui();
  await navigateInPlace(page, '/');
  await page.getByRole('link', { name: 'Me', exact: true }).click();
  await page.getByRole('heading', { level: 1, name: 'Memories' }).waitFor();
  const fact = page.getByRole('link', { name: /Lisbon/ });
  await fact.waitFor();
  await page.getByRole('link', { name: /cello/ }).waitFor();
  await checkScreen(page, 'local-memories');

  await fact.click();
  // The fact's Record is the Memory's line, which the page words for her ("Ana's city is Lisbon"): its
  // evidence names the Record as a fact's instead of repeating the line under it.
  const evidence = page.getByRole('region', { name: 'Where this comes from' });
  await evidence.getByText('from a fact').waitFor();
  assert.equal(await evidence.locator('mark').count(), 0);
  await page.getByLabel('What is actually true').fill('Ana lives in Faro');
  await page.getByLabel('Why').fill('moved in March');
  await page.getByRole('button', { name: 'Save correction' }).click();
  // The old version now points at its replacement, and the history holds both.
  const newer = page.getByRole('status').getByRole('link', { name: 'Ana lives in Faro' });
  await newer.waitFor();
  await page
    .getByRole('list', { name: 'Versions, oldest first' })
    .getByText('Version 2', { exact: true })
    .waitFor();
  await checkScreen(page, 'local-memory-corrected');
  await newer.click();
  await page.getByRole('heading', { level: 1, name: 'Ana lives in Faro' }).waitFor();

  await page.getByRole('button', { name: 'Accept as Object' }).click();
  await page.getByText(/Accepted as .*, version 1\./).waitFor();
  await checkScreen(page, 'local-memory-accepted');
  // The Objects tab lists what was accepted, at its current version: the corrected line's value under
  // the slot it corrects, not the whole sentence.
  await page.getByRole('link', { name: 'Objects' }).click();
  const objects = page.getByRole('table', { name: 'Objects' });
  const row = objects.locator('tbody tr');
  await row.getByText('"Faro"', { exact: true }).waitFor();
  assert.equal(await row.count(), 1);
  assert.deepEqual((await row.locator('td').allInnerTexts()).slice(0, 3), ['ana', 'city', '"Faro"']);
  await checkScreen(page, 'local-objects');

  await page.getByRole('link', { name: 'Memories' }).first().click();
  await page.getByRole('link', { name: /cello/ }).click();
  const celloUrl = page.url();
  await page.getByRole('link', { name: 'Records' }).click();
  await page
    .getByRole('listitem')
    .filter({ hasText: note.id })
    .getByRole('button', { name: /^Forget “/ })
    .click();
  await page.getByRole('dialog').getByRole('button', { name: 'Forget Record' }).click();
  await page.getByRole('list', { name: 'Records' }).getByText(/cello/).waitFor({ state: 'detached' });
  await page
    .getByRole('status')
    .filter({ hasText: /^Forgot the Record “Ana: I started learning the cello/ })
    .waitFor();
  await page.goto(celloUrl);
  await page
    .getByRole('heading', { level: 1, name: /This Memory is not in this Brain|being worked out again/ })
    .waitFor();

  await page.getByRole('link', { name: 'Profile & Census' }).click();
  await page.getByRole('heading', { level: 2, name: 'Census' }).waitFor();
  await page.locator('.facts').first().waitFor();
  await checkScreen(page, 'local-profile-census');
  assert.deepEqual(problems, []);
});

test('a value dated to start later reads "Starts later", not current, and can still be corrected', async () => {
  await app().api.createBrain({ id: 'later', name: 'Later', self: { type: 'person', name: 'Ana' } });
  await app().api.rememberRecord('later', {
    content: { kind: 'fact', subject: 'Ana', predicate: 'employer', value: 'Acme' },
    occurred_at: '2024-01-01T00:00:00Z',
  });
  await app().api.rememberRecord('later', {
    content: { kind: 'fact', subject: 'Ana', predicate: 'employer', value: 'Globex' },
    occurred_at: '2099-01-01T00:00:00Z',
  });
  await app().api.rememberRecord('later', {
    content: { kind: 'fact', subject: 'Ana', predicate: 'home_city', value: 'Munich' },
    occurred_at: '2099-02-01T00:00:00Z',
  });
  const { page, problems } = await ui();
  await navigateInPlace(page, '/');
  await page.getByRole('link', { name: 'Later', exact: true }).click();
  await page.getByRole('heading', { level: 1, name: 'Memories' }).waitFor();
  // "Current only" is today's value; "Starting later" lists the scheduled one.
  await page.getByRole('link', { name: /Acme/ }).waitFor();
  assert.equal(await page.getByRole('link', { name: /Globex/ }).count(), 0);
  await page.getByLabel('Show').selectOption('scheduled');
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('link', { name: /Globex/ }).click();
  await page.getByRole('heading', { level: 1, name: "Ana's employer is Globex" }).waitFor();
  await page.locator('.facts').getByText('Starts later').waitFor();
  await page
    .getByRole('status')
    .getByText(/This value holds from .*; until then .*Acme is current\./)
    .waitFor();
  // Replaced by nothing: no "newer version" notice, and it can be corrected like a current value.
  assert.equal(await page.getByText(/A newer version replaces this one/).count(), 0);
  await page.getByRole('button', { name: 'Save correction' }).waitFor();
  // A value to come with none before it says so, not that an earlier one is current.
  await page.goBack();
  await page.getByRole('link', { name: /Munich/ }).click();
  await page.getByRole('heading', { level: 1, name: "Ana's home city is Munich" }).waitFor();
  await page
    .getByRole('status')
    .getByText(/This value holds from .*; until then no other value of it is known\./)
    .waitFor();
  // Its history's axis runs from now to later, the value drawn from its day on.
  assert.deepEqual(await page.locator('.timeline text.chart-label').allTextContents(), ['now', 'later']);
  assert.deepEqual(problems, []);
});

test('a correction with a day under "Holds from" starts then, and the value before it holds until then', async () => {
  await app().api.createBrain({ id: 'from', name: 'From', self: { type: 'person', name: 'Ana' } });
  const fact = (value: string, occurred_at: string) =>
    app().api.rememberRecord('from', {
      content: { kind: 'fact', subject: 'Ana', predicate: 'employer', value },
      occurred_at,
    });
  await fact('Acme', '2024-01-01T00:00:00Z');
  // Taken as holding from the day it was said; she starts on a day to come.
  await fact('Sonae', '2026-03-01T10:00:00Z');
  const { page, problems } = await ui();
  await navigateInPlace(page, '/');
  await page.getByRole('link', { name: 'From', exact: true }).click();
  await page.getByRole('heading', { level: 1, name: 'Memories' }).waitFor();
  await page.getByRole('link', { name: /Sonae/ }).click();
  await page.getByRole('heading', { level: 1, name: "Ana's employer is Sonae" }).waitFor();
  // The same words, from another day: the day alone makes it a correction.
  const save = page.getByRole('button', { name: 'Save correction' });
  assert.equal(await save.getAttribute('aria-disabled'), 'true');
  await page.getByLabel('Holds from').fill('2099-01-11');
  assert.equal(await save.getAttribute('aria-disabled'), null);
  await checkScreen(page, 'local-memory-holds-from');
  await save.click();
  const newer = page.getByRole('status').getByRole('link', { name: "Ana's employer is Sonae" });
  await newer.waitFor();
  const memories = (await app().api.listMemories('from', { status: 'all', limit: 50 })).data;
  const later = memories.find((m) => m.status === 'scheduled');
  const acme = memories.find((m) => m.statement === 'Ana employer: Acme');
  // The start of that day where the person is, with its offset.
  assert.match(later?.valid_from ?? '', /^2099-01-11T00:00:00[+-]\d\d:\d\d$/);
  assert.deepEqual([acme?.status, acme?.valid_to], ['active', later?.valid_from]);
  await newer.click();
  await page.locator('.facts').getByText('Starts later').waitFor();
  await page
    .getByRole('status')
    .getByText(/This value holds from .*2099.*; until then .*Acme is current\./)
    .waitFor();
  assert.deepEqual(problems, []);
});

test('a thorough question over the synchronous budget is answered once its assembly ends', async () => {
  await app().api.createBrain({ id: 'home', name: 'Home' });
  await app().api.rememberRecord('home', {
    content: { kind: 'message', text: 'The boiler was serviced in March by Rui.', speaker: 'Ana' },
  });
  const first = await app().api.createContext('home', { query: 'boiler serviced', mode: 'thorough' });
  assert.equal(first.status, 202, 'the server answers 202 at this budget');
  const { page, problems } = await ui();
  await navigateInPlace(page, '/');
  const asked: Array<{ body: string | null; watermark: string | undefined }> = [];
  const seen = (r: Request) => {
    if (r.method() === 'POST' && r.url().endsWith('/context'))
      asked.push({ body: r.postData(), watermark: r.headers()['brain-watermark'] });
  };
  page.on('request', seen);
  await page.getByRole('link', { name: 'Home', exact: true }).click();
  await page.getByRole('link', { name: 'Ask' }).click();
  await page.getByLabel('Question').fill('Who serviced the boiler?');
  await page.getByLabel('How hard to look').selectOption('thorough');
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  await page.getByText('What an agent would receive').click();
  await page.locator('.context-text').waitFor();
  assert.match((await page.locator('.context-text').textContent()) ?? '', /Rui/);
  page.off('request', seen);
  // The retry is the very same request, so the server hands over the assembly the 202 announced.
  assert.ok(asked.length >= 2, `${asked.length} requests`);
  assert.ok(
    asked.every((a) => a.body === asked[0]!.body && a.watermark === undefined),
    JSON.stringify(asked),
  );
  assert.deepEqual(problems, []);
});
