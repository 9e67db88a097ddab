// Finding a person's Memories and Records as a person types a name: a first name or a surname alone,
// without its accents. One server and one browser for the file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { appPerFile, browserPerFile, checkScreen, derivationSettled, navigateInPlace } from './harness.ts';

const context = browserPerFile();
const { app, ui } = appPerFile(context, 'local');

/** Zoë Kovač's Brain: what Marko Babić, another Marko, Inês Duarte and she herself said. */
async function people(): Promise<void> {
  const api = app().api;
  await api.createBrain({ id: 'zoe', name: 'Zoë', self: { type: 'person', name: 'Zoë Kovač' } });
  const said: [string, string][] = [
    ['Marko Babić', 'The ferry to Hvar leaves at nine.'],
    ['Marko Babić', 'My sister is a nurse in Split.'],
    ['Marko', 'Band practice moved to Thursday.'],
    ['Inês Duarte', 'The kitchen tiles arrived from Porto.'],
    ['Zoë Kovač', 'I booked the dentist for Monday.'],
  ];
  for (const [speaker, text] of said)
    await api.rememberRecord('zoe', { content: { kind: 'message', speaker, text } });
  await derivationSettled(app(), 'zoe');
}

let written: Promise<void> | undefined;
/** The Brain, written once for the file's tests, whichever runs first. */
const brain = () => (written ??= people());

/**
 * The statements the Memories list shows, sorted: none when it says nothing matches, null while it
 * shows neither (loading).
 */
async function statements(page: Page): Promise<string[] | null> {
  if (await page.getByText('No Memories match these filters').isVisible()) return [];
  const cells = page.getByRole('table', { name: 'Memories' }).locator('tbody tr td:first-child');
  const texts = (await cells.allInnerTexts()).map((t) => t.trim()).sort();
  return texts.length > 0 ? texts : null;
}

test('Search, About and Whose on Memories find a person by a first name or a surname, accents optional', async () => {
  await brain();
  const { page, problems } = await ui();
  await navigateInPlace(page, '/brains/zoe/memories');
  await page.getByRole('table', { name: 'Memories' }).getByText('Band practice').waitFor();
  // The rows listed once the list has answered for these filters: read until they are what is
  // expected (a list drawn before the answer still shows the rows of the filters before), or 5 s.
  const filtered = async (
    fields: { Search?: string; About?: string; Whose?: string },
    expected: string[],
  ) => {
    await page.getByRole('searchbox').fill(fields.Search ?? '');
    await page.getByLabel('About').fill(fields.About ?? '');
    await page.getByLabel('Whose').fill(fields.Whose ?? '');
    await page.getByRole('button', { name: 'Search' }).click();
    const rows = () => statements(page);
    let seen = await rows();
    for (
      const end = Date.now() + 5000;
      JSON.stringify(seen) !== JSON.stringify(expected) && Date.now() < end;
    ) {
      await page.waitForTimeout(100);
      seen = await rows();
    }
    assert.deepEqual(seen, expected, JSON.stringify(fields));
  };
  const babic = ['My sister is a nurse in Split.', 'The ferry to Hvar leaves at nine.'];
  const marko = ['Band practice moved to Thursday.'];
  // "babic" is in none of his statements: he is whom they are about and whose they are.
  await filtered({ Search: 'babic' }, babic);
  await filtered({ Search: 'babic nurse' }, ['My sister is a nurse in Split.']);
  await filtered({ About: 'Marko Babic' }, babic);
  await filtered({ About: 'marko' }, [...babic, ...marko].sort());
  await filtered({ Whose: 'ines' }, ['The kitchen tiles arrived from Porto.']);
  await filtered({ Whose: 'Inês' }, ['The kitchen tiles arrived from Porto.']);
  await filtered({ Whose: 'zoe' }, ['I booked the dentist for Monday.']);
  await filtered({ About: 'you' }, ['I booked the dentist for Monday.']);
  await filtered({ About: 'bab' }, []);
  // The address keeps the words typed, so the list is the same when it is opened again.
  await filtered({ About: 'marko', Whose: 'babic' }, babic);
  assert.equal(new URL(page.url()).searchParams.get('owner'), 'babic');
  assert.deepEqual(problems, []);
});

test('Records has a search box: a speaker or words of the text find the Record to forget', async () => {
  await brain();
  const { page, problems } = await ui();
  await navigateInPlace(page, '/brains/zoe/records');
  const list = page.getByRole('list', { name: 'Records' });
  await list.getByText('Band practice').waitFor();
  const search = page.getByRole('searchbox', { name: /Search/ });
  await search.fill('babic sister');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.waitForURL(/[?&]q=babic/);
  await list.getByText('Band practice').waitFor({ state: 'detached' });
  // The old page goes before the searched one comes: wait for it, then read the whole list.
  await list.locator('.record-line', { hasText: 'My sister is a nurse' }).waitFor();
  assert.deepEqual(
    (await list.locator('.record-line').allInnerTexts()).map((t) => t.trim()),
    ['Marko Babić: My sister is a nurse in Split.'],
  );
  await list.getByRole('button', { name: /^Forget “/ }).waitFor();
  await checkScreen(page, 'records-searched');
  // Nothing matches: said as the other filters say it.
  await search.fill('lisbon');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.getByText('No Records match these filters').waitFor();
  assert.deepEqual(problems, []);
});
