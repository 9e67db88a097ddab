// Checked in the real UI: a large Brain's conflicts, screens following what an agent writes without
// re-reading every loaded page, long unbroken text staying inside the window, keyboard focus and
// confirmations after actions (Keys "Copied"), and an import's summary surviving a look at another tab.
// One server, one browser and one signed-in page for the file; each test on its own Brain.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Locator } from 'playwright-core';
import type { Memory } from '../../engine/contract/index.ts';
import {
  advanceUntil,
  appPerFile,
  browserPerFile,
  checkScreen,
  derivationSettled,
  focusedElement,
  navigateInPlace,
  pageUntil,
} from './harness.ts';

const context = browserPerFile({ fakeClock: true });
const { app, ui } = appPerFile(context, 'local', {
  viewport: { width: 1280, height: 900 },
  seed: seedBigBrain,
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Two sources state different values for one slot at the same time: a conflict. */
async function disagree(brainId: string, subject: string, values: [string, string]) {
  for (const [value, source] of [
    [values[0], 'phone'],
    [values[1], 'laptop'],
  ] as const) {
    await app().api.rememberRecord(brainId, {
      content: { kind: 'fact', subject, predicate: 'lives in', value },
      source: { name: source },
      occurred_at: '2024-01-01T00:00:00Z',
    });
  }
}

async function seedBigBrain(): Promise<void> {
  // A large Brain: 300 messages (one import, the fastest way to write them), then a conflict that is
  // newer than all of them. More than the Memories list and the Profile show in four and two steps of
  // Show more (below). The conflict is found from the server's list, never by reading Memories (the
  // first test fails on any other read), so more Memories would prove nothing more.
  await app().api.createBrain({ id: 'big', name: 'Big', self: { type: 'person', name: 'Bo' } });
  const lines = Array.from(
    { length: 300 },
    (_, i) => `[01/02/2024, 10:${String(i % 60).padStart(2, '0')}:00] Bo: note number ${i}`,
  );
  await app().api.importFiles('big', {
    format: 'whatsapp',
    time_zone: 'UTC',
    files: [{ name: 'WhatsApp Chat.txt', content_base64: Buffer.from(lines.join('\n')).toString('base64') }],
  });
  await disagree('big', 'Bo', ['Porto', 'Lisbon']);
  await derivationSettled(app(), 'big');
}

test("a conflict among hundreds of older Memories is listed at once, from the server's list of conflicts", async () => {
  const { page, problems } = await ui();
  const reads: string[] = [];
  const seen = (r: { url(): string }) => {
    if (/\/brains\/big\/memories(\?|$)/.test(r.url())) reads.push(new URL(r.url()).search);
  };
  page.on('request', seen);
  await navigateInPlace(page, '/brains/big/conflicts');
  await page.getByRole('heading', { level: 1, name: 'Conflicts' }).waitFor();
  const slot = page
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { level: 2, name: /lives in/ }) });
  await slot.getByRole('link', { name: /Porto/ }).waitFor();
  await slot.getByRole('link', { name: /Lisbon/ }).waitFor();
  page.off('request', seen);
  // The conflicts are asked for, not found by reading the Brain's 302 Memories.
  assert.deepEqual(
    reads.filter((s) => !s.includes('contested=true')),
    [],
    `only the list of conflicts is read: ${reads.join(' ')}`,
  );
  assert.equal(await page.getByText(/Only the first/).count(), 0);
  assert.deepEqual(problems, []);
});

test('more conflicts than one step: the rest wait for "Show the next", and a partial list never says "No conflicts"', async () => {
  // 60 people, each with two current homes from two sources at the same time, and Person 0 a third
  // from a third source, written last: 121 contested values, more than the first step of 100 (whose
  // last 40 values are the first of their slot read; Person 0's third is past it).
  await app().api.createBrain({ id: 'many', name: 'Many', self: { type: 'person', name: 'Ed' } });
  const writes = Array.from(
    { length: 120 },
    (_, i) => () =>
      app().api.rememberRecord('many', {
        content: {
          kind: 'fact',
          subject: `Person ${i % 60}`,
          predicate: 'lives in',
          value: i < 60 ? `North ${i}` : `South ${i % 60}`,
        },
        source: { name: i < 60 ? 'phone' : 'laptop' },
        occurred_at: '2024-01-01T00:00:00Z',
      }),
  );
  for (let i = 0; i < writes.length; i += 24) await Promise.all(writes.slice(i, i + 24).map((w) => w()));
  await app().api.rememberRecord('many', {
    content: { kind: 'fact', subject: 'Person 0', predicate: 'lives in', value: 'West 0' },
    source: { name: 'tablet' },
    occurred_at: '2024-01-01T00:00:00Z',
  });
  await derivationSettled(app(), 'many');
  const { page, problems } = await ui();
  await navigateInPlace(page, '/brains/many/conflicts');
  const note = page.getByText(/Only the first 100 disagreeing values of 121 are shown; 20 values/);
  await note.waitFor();
  assert.equal(await page.getByText('No conflicts').count(), 0);
  const cards = page.locator('main ul.list > li');
  assert.equal(await cards.count(), 40, 'the slots whose two values were both read');
  // Person 0's card shows two of its three values; keeping one withdraws both others, as the dialog says.
  const person0 = cards.filter({ has: page.getByRole('heading', { level: 2, name: /^Person 0 ·/ }) });
  assert.equal(await person0.getByRole('button', { name: /Keep this one/ }).count(), 2);
  await person0.getByRole('button', { name: /Keep this one.*North 0$/ }).click();
  const dialog = page.getByRole('dialog', { name: /Keep “Person 0 lives in North 0”/ });
  await dialog.getByText('Person 0 lives in West 0').waitFor();
  await dialog.getByText('Person 0 lives in South 0').waitFor();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('button', { name: 'Show the next 100' }).click();
  await note.waitFor({ state: 'detached' });
  await pageUntil(page, "document.querySelectorAll('main ul.list > li').length === 60");
  assert.deepEqual(problems, []);
});

test('Show more keeps focus; an agent write reaches the list with one delta read, not every page again', async () => {
  const { page, problems } = await ui();
  // Oldest first, so the first Memory the API lists is loaded and its correction's new version is not.
  await navigateInPlace(page, '/brains/big/memories?order=asc');
  await page.getByRole('table', { name: 'Memories' }).waitFor();
  const rows = page.getByRole('table', { name: 'Memories' }).locator('tbody tr');
  const more = page.getByRole('button', { name: 'Show more' });
  for (let pages = 2; pages <= 4; pages += 1) {
    await more.focus();
    await page.keyboard.press('Enter');
    await pageUntil(page, `document.querySelectorAll('main tbody tr').length === ${pages * 50}`);
    // Focus stays on the button, not on <body> (the next Tab would go to "Skip to content").
    assert.equal(await focusedElement(page), 'BUTTON Show more');
  }
  assert.equal(await rows.count(), 200);
  // Count what the list reads when the Brain changes.
  const reads: string[] = [];
  page.on('request', (r) => {
    if (/\/brains\/big\/memories(\?|$)/.test(r.url())) reads.push(new URL(r.url()).search);
  });
  const first = (await app().api.listMemories('big', { limit: 1 })).data[0]!;
  await app().api.rememberRecord('big', {
    content: { kind: 'correction', corrects: first.id, statement: 'Bo wrote note number zero' },
  });
  // The corrected first row leaves the list of current Memories (its new version, newest, is at the
  // end of the list, which "Show more" reaches), and nothing else moves.
  const corrected = page.getByRole('link', { name: first.statement, exact: true });
  await advanceUntil(page, async () => (await corrected.count()) === 0);
  await sleep(500);
  assert.ok(reads.length > 0, 'the change was read');
  assert.ok(
    reads.every((s) => s.includes('since_watermark') && !s.includes('cursor')),
    `only delta reads, no loaded page read again: ${reads.join(' ')}`,
  );
  assert.ok(reads.length <= 3, `a delta read per change, not one read per page: ${reads.length}`);
  assert.equal(await rows.count(), 199);
  assert.deepEqual(problems, []);
});

test('the Profile reads past its first page with Show more, each line once', async () => {
  const { page, problems } = await ui();
  await navigateInPlace(page, '/brains/big/profile');
  const items = 'section[aria-labelledby="profile"] ul.list > li';
  await pageUntil(page, `document.querySelectorAll('${items}').length === 100`, 10_000);
  const more = page.locator('section[aria-labelledby="profile"]').getByRole('button', { name: 'Show more' });
  await more.focus();
  await page.keyboard.press('Enter');
  await pageUntil(page, `document.querySelectorAll('${items}').length === 200`);
  assert.equal(await focusedElement(page), 'BUTTON Show more');
  const links = await page.evaluate<string[]>(
    `[...document.querySelectorAll('${items} .item-main > p:first-child a')].map((a) => a.getAttribute('href'))`,
  );
  assert.equal(new Set(links).size, 200, 'no line shown twice');
  assert.deepEqual(problems, []);
});

test('Records, Conflicts, Profile and the Brains list follow what an agent writes', async () => {
  await app().api.createBrain({ id: 'follow', name: 'Follow', self: { type: 'person', name: 'Cy' } });
  const { page, problems } = await ui();
  await navigateInPlace(page, '/brains/follow/records');
  await page.getByText('Nothing written yet').waitFor();
  await app().api.rememberRecord('follow', {
    content: { kind: 'message', speaker: 'Cy', text: 'I keep bees on the roof.' },
  });
  // Each screen follows by polling: the page's clock is moved on past the polls' intervals.
  const shown = (l: Locator) => advanceUntil(page, () => l.isVisible());
  await shown(page.getByText('I keep bees on the roof.'));

  await navigateInPlace(page, '/brains/follow/conflicts');
  await page.getByText('No conflicts').waitFor();
  await disagree('follow', 'Cy', ['Faro', 'Braga']);
  await shown(page.getByRole('heading', { level: 2, name: /lives in/ }));

  await navigateInPlace(page, '/brains/follow/profile');
  await page.locator('dl.facts dt:has-text("Records") + dd').filter({ hasText: /^3/ }).waitFor();
  await app().api.rememberRecord('follow', {
    content: { kind: 'message', speaker: 'Cy', text: 'Bees again.' },
  });
  await shown(page.locator('dl.facts dt:has-text("Records") + dd').filter({ hasText: /^4/ }));

  await navigateInPlace(page, '/');
  await page.getByRole('link', { name: 'Follow' }).waitFor();
  await app().api.createBrain({ id: 'later', name: 'Made by an agent' });
  await shown(page.getByRole('link', { name: 'Made by an agent' }));
  assert.deepEqual(problems, []);
});

test('long URLs, snake_case names and Brain ids stay inside the window at 1280 and 800 px', async () => {
  const url =
    'https://docs.google.com/document/d/1a2B3c4D5e6F7g8H9i0JkLmNoPqRsTuVwXyZ1a2B3c4D5e6F7g8H9i0JkLmNoPq/edit?usp=sharing_eil_m&ts=65f0c1d2';
  await app().api.createBrain({ id: 'long', name: 'Long', self: { type: 'person', name: 'Ana' } });
  await app().api.createBrain({ id: `agent-memory.${'x'.repeat(90)}` });
  const fact = await app().api.rememberRecord('long', {
    content: {
      kind: 'fact',
      subject: 'Ana',
      predicate: 'preferred_contact_method_for_urgent_work_matters',
      value: 'phone',
    },
    source: { name: url },
  });
  await app().api.rememberRecord('long', {
    content: { kind: 'message', speaker: 'Ana', text: `My reading list is at ${url}` },
  });
  await disagree('long', 'Ana', ['Porto', 'Lisbon']);
  await derivationSettled(app(), 'long');
  const memoryId = (await app().api.getRecord('long', fact.record.id)).memory_ids[0]!;
  const { page, problems } = await ui();
  const screens = {
    brains: '/',
    keys: '/keys',
    memories: '/brains/long/memories',
    memory: `/brains/long/memories/${memoryId}`,
    conflicts: '/brains/long/conflicts',
    profile: '/brains/long/profile',
  };
  const wide: string[] = [];
  for (const width of [1280, 800]) {
    await page.setViewportSize({ width, height: 900 });
    for (const [name, path] of Object.entries(screens)) {
      await navigateInPlace(page, path);
      await page.locator('main h1').waitFor();
      await page.locator('main .loading').waitFor({ state: 'detached' });
      if (name === 'profile') await page.getByRole('link', { name: /My reading list/ }).waitFor();
      const scrollWidth = await page.evaluate<number>('document.documentElement.scrollWidth');
      if (scrollWidth > width) wide.push(`${name}@${width}: ${scrollWidth}px`);
    }
  }
  assert.deepEqual(wide, [], 'no page is wider than the window');
  // The statement keeps its room next to a long "About".
  await page.setViewportSize({ width: 1280, height: 900 });
  await navigateInPlace(page, screens.memories);
  const statementWidth = await page
    .getByRole('table', { name: 'Memories' })
    .locator('th')
    .first()
    .evaluate((th) => th.getBoundingClientRect().width);
  assert.ok(statementWidth > 380, `Statement column ${statementWidth}px`);
  // Where it fits, the table's box is no stop for Tab; on a phone, where it scrolls sideways, it is a
  // named region a keyboard reaches and scrolls.
  const box = page.locator('.table-scroll').filter({ has: page.getByRole('table', { name: 'Memories' }) });
  assert.equal(await box.getAttribute('tabindex'), null);
  await page.setViewportSize({ width: 400, height: 900 });
  const region = page.getByRole('region', { name: 'Memories (scrolls sideways)' });
  await region.waitFor();
  assert.equal(await region.getAttribute('tabindex'), '0');
  await region.focus();
  await page.keyboard.press('ArrowRight');
  let scrolled = 0;
  for (let i = 0; i < 40 && scrolled === 0; i++) {
    await sleep(50);
    scrolled = await region.evaluate((el) => el.scrollLeft);
  }
  assert.ok(scrolled > 0, 'the arrow key scrolled the table');
  await page.setViewportSize({ width: 1280, height: 900 });
  await navigateInPlace(page, screens.profile);
  await page.getByRole('link', { name: /My reading list/ }).waitFor();
  await checkScreen(page, 'audit-long-profile-1280');
  await page.setViewportSize({ width: 800, height: 900 });
  await checkScreen(page, 'audit-long-profile-800');
  await page.setViewportSize({ width: 1280, height: 900 });
  assert.deepEqual(problems, []);
});

test('confirmations are said and focus stays where the person is', async () => {
  await app().api.createBrain({ id: 'keys', name: 'Keyboard', self: { type: 'person', name: 'Di' } });
  await app().api.rememberRecord('keys', {
    content: { kind: 'fact', subject: 'Di', predicate: 'city', value: 'Lisbon' },
  });
  await app().api.rememberRecord('keys', {
    content: { kind: 'fact', subject: 'Di', predicate: 'pet', value: 'a cat' },
  });
  await derivationSettled(app(), 'keys');
  const memories = (await app().api.listMemories('keys')).data;
  const city = memories.find((m: Memory) => m.predicate === 'city')!;
  const pet = memories.find((m: Memory) => m.predicate === 'pet')!;
  const { page, problems } = await ui();

  // Remember this: a note saved is said, and focus stays on the button.
  await navigateInPlace(page, '/brains/keys/records');
  await page.getByLabel('What should this Brain remember?').fill('Di plays the oboe.');
  await page.getByRole('button', { name: 'Remember this' }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('status').filter({ hasText: 'Note saved' }).waitFor();
  assert.equal(await focusedElement(page), 'BUTTON Remember this');

  // Save correction: "Saved." is said with the new version, and focus is on that message.
  await navigateInPlace(page, `/brains/keys/memories/${city.id}`);
  await page.getByLabel('What is actually true').fill('Di lives in Faro');
  await page.getByRole('button', { name: 'Save correction' }).focus();
  await page.keyboard.press('Enter');
  const saved = page.getByRole('status').filter({ hasText: 'Saved.' });
  await saved.getByRole('link', { name: 'Di lives in Faro' }).waitFor();
  await pageUntil(page, "document.activeElement?.textContent?.startsWith('Saved.')");

  // Withdrawing asks first; Cancel keeps the Memory.
  await navigateInPlace(page, `/brains/keys/memories/${pet.id}`);
  await page.getByLabel(/withdraw it without a replacement/).check();
  await page.getByRole('button', { name: 'Withdraw Memory' }).click();
  const dialog = page.getByRole('dialog', { name: 'Withdraw this Memory?' });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'detached' });
  assert.equal((await app().api.getMemory('keys', pet.id)).status, 'active');
  await page.getByRole('button', { name: 'Withdraw Memory' }).click();
  await dialog.getByRole('button', { name: 'Withdraw Memory' }).click();
  await page.getByRole('status').filter({ hasText: 'Saved. This Memory is withdrawn' }).waitFor();
  assert.equal((await app().api.getMemory('keys', pet.id)).status, 'retracted');

  // Ask: an invalid Purpose in folded "More filters" is said, not silently ignored.
  await navigateInPlace(page, '/brains/keys/ask');
  await page.getByLabel('Question').fill('Where does Di live?');
  await page.getByText('More filters').click();
  await page.getByLabel(/Purpose/).fill('Customer support');
  await page.getByText('More filters').click();
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  await page.getByRole('alert').filter({ hasText: 'Purpose is one lower-case word' }).waitFor();
  assert.equal(await page.locator('details').getAttribute('open'), '');
  await page.getByLabel(/Purpose/).fill('support');
  await page.getByRole('button', { name: 'Ask', exact: true }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'What this Brain knows' }).waitFor();
  assert.equal(await focusedElement(page), 'BUTTON Ask');
  // The answer says which question it answers, and is still there after a visit elsewhere and Back.
  const answer = page.getByRole('region', { name: 'What this Brain knows' });
  const answered = answer.locator('q').filter({ hasText: /^Where does Di live\?$/ });
  await answered.waitFor();
  await page.getByLabel('Question').fill('Where does Di work?');
  await answered.waitFor();
  await navigateInPlace(page, '/brains/keys/traces');
  await page.goBack();
  await answered.waitFor();
  assert.equal(await page.getByLabel('Question').inputValue(), 'Where does Di live?');

  // Keys: Copy says what happened.
  await navigateInPlace(page, '/keys');
  await page.getByRole('button', { name: 'Create key' }).click();
  await page.getByRole('button', { name: 'Copy' }).click();
  await page.getByText(/^(Copied\.|Could not copy)/).waitFor();
  assert.deepEqual(problems, []);
});

test('an import finished while the person looked at another tab still shows its summary', async () => {
  await app().api.createBrain({ id: 'imp', name: 'Imports' });
  const { page, problems } = await ui();
  await navigateInPlace(page, '/brains/imp/import');
  await page.getByLabel('Files', { exact: true }).setInputFiles({
    name: 'notes.md',
    mimeType: 'text/markdown',
    buffer: Buffer.from('# Garden\n\nThe tomatoes go in after the last frost.\n'),
  });
  await page.getByRole('button', { name: 'Import 1 file' }).click();
  // Off to Records at once, then back.
  await page.getByRole('navigation', { name: 'Brain imp' }).getByRole('link', { name: 'Records' }).click();
  await page.getByRole('heading', { level: 1, name: 'Records' }).waitFor();
  await page.getByRole('navigation', { name: 'Brain imp' }).getByRole('link', { name: 'Import' }).click();
  await page.getByRole('heading', { level: 1, name: 'Import' }).waitFor();
  await page.getByRole('heading', { name: 'Import finished' }).waitFor();
  await page.getByText('1 new item imported').waitFor();
  assert.deepEqual(problems, []);
});
