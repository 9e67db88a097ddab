// Checked in the real UI: the addresses, notices, names and first
// steps that read as slips. One server and one browser for the file; each test on its own Brain.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appPerFile, browserPerFile, checkScreen, derivationSettled, navigateInPlace } from './harness.ts';

const context = browserPerFile();
const { app, ui } = appPerFile(context, 'local');

/** A Brain of Ana's whose two sources give two home cities at once: a conflict. */
async function twoCities(brainId: string): Promise<void> {
  await app().api.createBrain({ id: brainId, name: brainId, self: { type: 'person', name: 'Ana' } });
  for (const [value, source] of [
    ['Porto', 'phone'],
    ['Lisbon', 'laptop'],
  ] as const) {
    await app().api.rememberRecord(brainId, {
      content: { kind: 'fact', subject: 'self', predicate: 'home_city', value },
      source: { name: source },
      occurred_at: '2024-01-01T00:00:00Z',
    });
  }
  await derivationSettled(app(), brainId);
}

test('/brains, the parent of every Brain’s address, opens the Brains list at its own address', async () => {
  const { page, problems } = await ui();
  for (const path of ['/brains', '/brains/']) {
    await navigateInPlace(page, '/keys');
    await page.getByRole('heading', { level: 1, name: 'Keys' }).waitFor();
    await navigateInPlace(page, path);
    await page.getByRole('heading', { level: 1, name: 'Brains' }).waitFor();
    await page.waitForURL((u) => u.pathname === '/');
    assert.equal(await page.getByText('Page not found').count(), 0);
    assert.equal(
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Brains' })
        .getAttribute('aria-current'),
      'page',
    );
  }
  assert.deepEqual(problems, []);
});

test('keeping one value on Conflicts says so in the success green, not in a warning’s amber', async () => {
  await twoCities('kept');
  const { page, problems } = await ui();
  await navigateInPlace(page, '/brains/kept/conflicts');
  await page.getByRole('button', { name: /^Keep this one.*Lisbon$/ }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Keep it, withdraw the other' }).click();
  const notice = page.getByRole('status').locator('.notice').filter({ hasText: /^Kept/ });
  await notice.waitFor();
  const drawn = await notice.evaluate((el) => {
    const style = el.ownerDocument.defaultView!.getComputedStyle(el);
    return [style.backgroundColor, style.color];
  });
  // --ok-bg and --ok-text (renderer/styles.css), where the warning's are rgb(253, 240, 213) on rgb(77, 51, 0).
  assert.deepEqual(drawn, ['rgb(227, 242, 230)', 'rgb(28, 90, 42)']);
  await checkScreen(page, 'conflict-kept');
  assert.deepEqual(problems, []);
});

test('a Memory’s breadcrumb names it by its words, shortened, and its id is still on the page', async () => {
  await twoCities('crumbs');
  const long = await app().api.rememberRecord('crumbs', {
    content: {
      kind: 'document',
      text: 'The ferry to the island leaves from the old harbour every morning at seven, except on Sundays.',
    },
  });
  await derivationSettled(app(), 'crumbs');
  const memoryId = (await app().api.getRecord('crumbs', long.record.id)).memory_ids[0]!;
  const { page, problems } = await ui();
  await navigateInPlace(page, `/brains/crumbs/memories/${memoryId}`);
  await page.getByRole('heading', { level: 1, name: /^The ferry to the island/ }).waitFor();
  const crumbs = page.locator('main .crumbs');
  assert.equal(
    await crumbs.innerText(),
    'Memories / The ferry to the island leaves from the old harbour every…',
  );
  assert.equal(await crumbs.locator('[title]').getAttribute('title'), memoryId);
  assert.doesNotMatch(await crumbs.innerText(), /mem_/);
  const facts = page.locator('.facts');
  assert.equal(await facts.locator('dt', { hasText: /^Id$/ }).locator('+ dd').innerText(), memoryId);
  assert.deepEqual(problems, []);
});

test('a Record’s and a trace’s breadcrumbs name them by their words, their ids under Id', async () => {
  await app().api.createBrain({ id: 'crumbs2', name: 'Crumbs', self: { type: 'person', name: 'Ana' } });
  const note = await app().api.rememberRecord('crumbs2', {
    content: {
      kind: 'document',
      text: 'The ferry to the island leaves from the old harbour every morning at seven, except on Sundays.',
    },
  });
  await derivationSettled(app(), 'crumbs2');
  const { context: ctx } = await app().api.createContext('crumbs2', {
    query: 'When does the ferry to the island leave on a weekday morning, and from which harbour?',
  });
  const { page, problems } = await ui();
  const crumbs = page.locator('main .crumbs');
  const idFact = page.locator('.facts dt', { hasText: /^Id$/ }).locator('+ dd');

  await navigateInPlace(page, `/brains/crumbs2/records/${note.record.id}`);
  await page.getByRole('heading', { level: 1, name: /^The ferry to the island/ }).waitFor();
  assert.equal(
    await crumbs.innerText(),
    'Records / The ferry to the island leaves from the old harbour every…',
  );
  assert.equal(await crumbs.locator('[title]').getAttribute('title'), note.record.id);
  assert.equal(await idFact.innerText(), note.record.id);

  await navigateInPlace(page, `/brains/crumbs2/traces/${ctx.id}`);
  await page.getByRole('heading', { level: 1, name: /^“When does the ferry/ }).waitFor();
  assert.equal(await crumbs.innerText(), 'Traces / “When does the ferry to the island leave on a weekday…”');
  assert.equal(await crumbs.locator('[title]').getAttribute('title'), ctx.id);
  assert.equal(await idFact.innerText(), ctx.id);

  await navigateInPlace(page, '/brains/crumbs2/traces/ctx_gone');
  await page.getByRole('heading', { level: 1, name: 'This trace is no longer kept' }).waitFor();
  assert.equal(await crumbs.innerText(), 'Traces / ctx_gone', 'a trace not read is named by its address');
  assert.deepEqual(problems, []);
});

test('a filter value no menu offers is refused in the menus’ words', async () => {
  await app().api.createBrain({ id: 'bad-filter', name: 'Bad filter' });
  const { page, problems } = await ui();
  await navigateInPlace(page, '/brains/bad-filter/memories?status=bogus');
  const refusal = page.getByRole('alert');
  await refusal.waitFor();
  assert.match(
    await refusal.innerText(),
    /Show: must be one of “Current only”, “Starting later”, “Replaced”, “Withdrawn”, “All versions”/,
  );
  await navigateInPlace(page, '/brains/bad-filter/records?status=bogus');
  await page.getByRole('alert').filter({ hasText: 'Status:' }).waitFor();
  assert.match(await page.getByRole('alert').innerText(), /Status: must be one of “Processing”, “Ready”/);
  assert.deepEqual(problems, []);
});

test('an empty Brain’s Memories lead to Import and to adding a note', async () => {
  await app().api.createBrain({ id: 'blank', name: 'Blank' });
  const { page, problems } = await ui();
  await navigateInPlace(page, '/brains/blank/memories');
  const empty = page.locator('main .status.empty').filter({ hasText: 'No Memories yet' });
  await empty.waitFor();
  await empty.getByRole('link', { name: 'import' }).click();
  await page.getByRole('heading', { level: 1, name: 'Import' }).waitFor();
  assert.equal(new URL(page.url()).pathname, '/brains/blank/import');
  await page.goBack();
  await empty.getByRole('link', { name: 'add a note' }).click();
  await page.getByLabel('What should this Brain remember?').waitFor();
  assert.equal(new URL(page.url()).pathname, '/brains/blank/records');
  assert.deepEqual(problems, []);
});

test('Create a Brain asks the name first and suggests the short id from it, until the id is typed', async () => {
  const { page, problems } = await ui();
  await navigateInPlace(page, '/');
  const form = page.getByRole('region', { name: 'Create a Brain' });
  const name = form.getByRole('textbox', { name: /^Name/ });
  const id = form.getByRole('textbox', { name: /^Short id/ });
  await name.waitFor();
  // The name comes first, in reading and Tab order.
  await name.focus();
  await page.keyboard.press('Tab');
  assert.equal(await id.evaluate((el) => el === el.ownerDocument.activeElement), true);
  await name.fill('Zoë’s memory');
  assert.equal(await id.inputValue(), 'zoes-memory');
  await name.fill('Zoë’s notes');
  assert.equal(await id.inputValue(), 'zoes-notes', 'it follows the name while not typed');
  // Typed by the person: theirs from then on.
  await id.fill('zoe');
  await name.fill('Zoë Kovač');
  assert.equal(await id.inputValue(), 'zoe');
  await form.getByRole('button', { name: 'Create Brain' }).click();
  await page.waitForURL(/\/brains\/zoe\/memories$/);
  await page.getByRole('navigation', { name: 'Brain zoe' }).getByText('Zoë Kovač').waitFor();
  assert.deepEqual(problems, []);
});

test('a Brain made without an owner gets one from the Brains list, and her words become hers', async () => {
  // As a hub's Brain made by a device's first sync was: her own words another person's, no Profile.
  await app().api.createBrain({ id: 'hubless', name: 'Hubless' });
  await app().api.rememberRecord('hubless', {
    content: { kind: 'message', speaker: 'Lea Horvat', text: 'I am allergic to hazelnuts.' },
  });
  await derivationSettled(app(), 'hubless');
  const { page, problems } = await ui();
  await navigateInPlace(page, '/brains/hubless/profile');
  await page.getByText('This Brain does not know whose memory it is').waitFor();
  await page.getByRole('main').getByRole('link', { name: 'Brains', exact: true }).click();
  await page.getByRole('button', { name: 'Set whose memory hubless is' }).click();
  const dialog = page.getByRole('dialog', { name: 'Whose memory is “Hubless”?' });
  // Said of the kind chosen.
  const kind = dialog.getByRole('combobox', { name: 'Kind' });
  await kind.selectOption({ label: 'An organisation' });
  await dialog.getByText(/^What this organisation says/).waitFor();
  await kind.selectOption({ label: 'A person' });
  await dialog.getByText(/^What this person says/).waitFor();
  await dialog.getByRole('textbox', { name: 'Their name' }).fill('Lea Horvat');
  await checkScreen(page, 'brain-owner-dialog');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await dialog.waitFor({ state: 'detached' });
  await page.getByRole('cell', { name: /Lea Horvat \(person\)/ }).waitFor();
  // Derived again in the background: the Profile fills with what she said.
  await navigateInPlace(page, '/brains/hubless/profile');
  await page.getByText('I am allergic to hazelnuts.').first().waitFor({ timeout: 20_000 });
  assert.deepEqual(problems, []);
});

test('the Memories search box is named "Search", its hint said as its description', async () => {
  await app().api.createBrain({ id: 'search', name: 'Search' });
  const { page, problems } = await ui();
  await navigateInPlace(page, '/brains/search/memories');
  const box = page.getByRole('searchbox', { name: 'Search', exact: true });
  await box.waitFor();
  const described = await box.evaluate((el) =>
    (el.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id: string) => el.ownerDocument.getElementById(id)?.textContent ?? '')
      .join(' '),
  );
  assert.equal(
    described,
    'every word, in any order, in a statement or the names beside it; case and accents do not matter',
  );
  // "Order" names the order alone, no longer the search box too.
  assert.equal(await page.getByLabel('Order').count(), 1);
  assert.equal(await page.getByLabel('Order').evaluate((el) => el.tagName), 'SELECT');
  await checkScreen(page, 'memories-search-named');
  assert.deepEqual(problems, []);
});

test('an imported mail is named by its subject on Records and on its own page, not by its header lines', async () => {
  await app().api.createBrain({ id: 'mail', name: 'Mail' });
  // The text as the mail importer writes it (server/import/formats/mbox.ts).
  const header = 'Subject: Lunch on Friday\nFrom: Ana Horvat <ana@example.com>\nTo: Maya <maya@example.com>';
  const written = await app().api.rememberRecord('mail', {
    content: {
      kind: 'message',
      speaker: 'Ana Horvat',
      text: `${header}\n\nAre we still on for the ramen place?`,
    },
    occurred_at: '2024-03-01T09:00:00Z',
  });
  const { page, problems } = await ui();
  await navigateInPlace(page, '/brains/mail/records');
  const line = page
    .getByRole('list', { name: 'Records' })
    .getByRole('listitem')
    .filter({ hasText: 'Lunch on Friday' })
    .locator('.record-line');
  await line.waitFor();
  assert.equal(await line.innerText(), 'Ana Horvat: Lunch on Friday — Are we still on for the ramen place?');
  await navigateInPlace(page, `/brains/mail/records/${written.record.id}`);
  await page.getByRole('heading', { level: 1, name: 'Lunch on Friday', exact: true }).waitFor();
  // The page quotes the Record's whole text, its header lines as written.
  assert.match(
    await page.locator('main blockquote.record-text').innerText(),
    /^Subject: Lunch on Friday\nFrom: Ana Horvat/,
  );
  await checkScreen(page, 'mail-record-named-by-subject');
  assert.deepEqual(problems, []);
});

test('a Memory said in the same words many times lists those words once, with each of its Records', async () => {
  await app().api.createBrain({
    id: 'said-often',
    name: 'Said often',
    self: { type: 'person', name: 'Maya' },
  });
  const ids: string[] = [];
  for (let day = 1; day <= 12; day++) {
    const r = await app().api.rememberRecord('said-often', {
      content: { kind: 'message', speaker: 'user', text: 'My sister Lea is vegetarian.' },
      occurred_at: new Date(Date.UTC(2024, 0, day, 9)).toISOString(),
    });
    ids.push(r.record.id);
  }
  // The same words from another source: a source of its own.
  const other = await app().api.rememberRecord('said-often', {
    content: { kind: 'message', speaker: 'user', text: 'My sister Lea is vegetarian.' },
    source: { name: 'phone' },
    occurred_at: '2024-02-01T09:00:00Z',
  });
  await derivationSettled(app(), 'said-often');
  const memory = (await app().api.listMemories('said-often', {})).data.find(
    (m) => m.statement === 'My sister Lea is vegetarian.',
  )!;
  const { page, problems } = await ui();
  await navigateInPlace(page, `/brains/said-often/memories/${memory.id}`);
  const sources = page.locator('section[aria-labelledby="evidence"] .list > li');
  await sources.first().waitFor();
  // Twelve copies are one row, and the Memory's other source is not folded away under them.
  assert.equal(await sources.count(), 2);
  const group = sources.filter({ hasText: 'said 12 times' });
  assert.match(
    await group.locator('.meta').innerText(),
    /said 12 times, Jan 1, 2024, \d+:00 [AP]M – Jan 12, 2024, \d+:00 [AP]M/,
  );
  await group.getByText('Its 12 Records').click();
  assert.deepEqual(await group.locator('details a').allInnerTexts(), ids);
  const phone = sources.filter({ hasText: 'from phone' });
  assert.match(await phone.innerText(), new RegExp(`Feb 1, 2024, [^\\n]*\\n${other.record.id}$`));
  assert.equal(await phone.locator('details').count(), 0);
  assert.equal(await page.getByRole('button', { name: /^Show all/ }).count(), 0);
  await checkScreen(page, 'evidence-same-words-once');
  assert.deepEqual(problems, []);
});

test('a refusal to create a Brain goes once a field it was said of is changed', async () => {
  await app().api.createBrain({ id: 'taken', name: 'Taken' });
  const { page, problems } = await ui();
  await navigateInPlace(page, '/');
  const form = page.getByRole('region', { name: 'Create a Brain' });
  await form.getByRole('textbox', { name: /^Name/ }).fill('Taken');
  await form.getByRole('button', { name: 'Create Brain' }).click();
  const refusal = form.getByText(/already exists/);
  await refusal.waitFor();
  await form.getByRole('textbox', { name: /^Short id/ }).fill('taken-2');
  assert.equal(await refusal.count(), 0, 'the refusal of "taken" is not said of "taken-2"');
  await form.getByRole('button', { name: 'Create Brain' }).click();
  await page.waitForURL(/\/brains\/taken-2\/memories$/);
  assert.deepEqual(problems, []);
});

test("a correction is named by the Memory it changed, and an agent's is no person's in the history", async () => {
  await app().api.createBrain({ id: 'mended', name: 'Mended', self: { type: 'person', name: 'Ana' } });
  const said = await app().api.rememberRecord('mended', {
    content: { kind: 'fact', subject: 'self', predicate: 'favourite_colour', value: 'green' },
  });
  await app().api.rememberRecord('mended', {
    content: { kind: 'document', text: 'The gate code is 4412.' },
  });
  await derivationSettled(app(), 'mended');
  const [colour] = (await app().api.getRecord('mended', said.record.id)).memory_ids;
  const gate = (await app().api.listMemories('mended', { limit: 10 })).data.find((m) =>
    m.statement.includes('gate code'),
  )!;
  await app().api.rememberRecord('mended', {
    content: { kind: 'correction', corrects: colour!, statement: 'Ana’s favourite colour is blue' },
    source: { name: 'agent' },
  });
  const withdrawal = await app().api.rememberRecord('mended', {
    content: { kind: 'correction', corrects: gate.id, reason: 'changed' },
  });
  await derivationSettled(app(), 'mended');
  const { page, problems } = await ui();
  await navigateInPlace(page, '/brains/mended/records');
  const rows = page.getByRole('main');
  await rows.getByRole('link', { name: '“The gate code is 4412.”' }).waitFor();
  assert.equal(await rows.getByText('Withdrew a Memory').count(), 0);
  await navigateInPlace(page, `/brains/mended/records/${withdrawal.record.id}`);
  await page.getByRole('heading', { level: 1, name: 'Withdrawal of “The gate code is 4412.”' }).waitFor();
  await navigateInPlace(page, `/brains/mended/memories/${colour}`);
  const history = page.getByRole('list', { name: 'Versions, oldest first' });
  await history.getByText('a correction', { exact: true }).waitFor();
  assert.equal(await history.getByText(/person/).count(), 0);
  assert.deepEqual(problems, []);
});
