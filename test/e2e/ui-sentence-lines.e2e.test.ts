// Checked in the real UI with the local engine's rules: a home said in the person's own sentence ("I
// live in Lisbon with my partner Tom.") holds its slot in those words (rules-v28), so the line is its
// own quote. Every view that shows a line with its quote shows the quote only when it says more, and
// an Object accepted from such a line holds the home, not the sentence. One server and one browser for
// the file; each test on its own Brain.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  appPerFile,
  browserPerFile,
  checkScreen,
  derivationSettled,
  navigateInPlace,
  selfBrains,
} from './harness.ts';

const context = browserPerFile();
const { app, ui } = appPerFile(context, 'local');
const { chat, memoryOf } = selfBrains(app);

const sentence = 'I live in Lisbon with my partner Tom.';

test('a Profile line in its own words is not followed by the same words as its quote', async () => {
  await chat('profile', [
    [sentence, '2026-01-05T10:00:00Z'],
    ['My favourite colour is green.', '2026-01-12T10:00:00Z'],
  ]);
  const home = await memoryOf('profile', sentence);
  const { page, problems } = await ui();
  await navigateInPlace(page, '/brains/profile/profile');
  const line = page.locator('.list-item').filter({ has: page.getByRole('link', { name: sentence }) });
  await line.waitFor();
  // The sentence once, as the line; its source one press away instead of the same words again.
  assert.equal(await line.locator('mark').count(), 0);
  assert.equal(((await line.innerText()).match(/partner Tom/g) ?? []).length, 1, await line.innerText());
  assert.equal(
    await line.getByRole('link', { name: 'said in these words' }).getAttribute('href'),
    `/brains/profile/records/${home.citations[0]!.record_id}`,
  );
  // A quote in other words than its line still shows: it says how the line was said.
  const colour = page.locator('.list-item').filter({ hasText: 'favourite colour is green' });
  assert.deepEqual(await colour.locator('mark').allInnerTexts(), ['My favourite colour is green.']);
  assert.equal(await colour.getByText('said in these words').count(), 0);
  await checkScreen(page, 'profile-line-in-own-words');
  assert.deepEqual(problems, []);
});

test('a Memory in its own words shows its evidence without the same words again, and Accept offers the home', async () => {
  await chat('detail', [[sentence, '2026-01-05T10:00:00Z']]);
  const home = await memoryOf('detail', sentence);
  assert.equal((await app().api.getMemory('detail', home.id)).value, 'Lisbon');
  const { page, problems } = await ui();
  await navigateInPlace(page, `/brains/detail/memories/${home.id}`);
  await page.getByRole('heading', { level: 1, name: sentence }).waitFor();
  const evidence = page.getByRole('region', { name: 'Where this comes from' });
  await evidence.getByText('said in these words').waitFor();
  assert.doesNotMatch(await evidence.innerText(), /partner Tom/);
  assert.equal(await evidence.getByRole('link', { name: home.citations[0]!.record_id }).count(), 1);
  assert.equal(await page.locator('dl.facts dt:text-is("Value") + dd').innerText(), 'Lisbon');
  // The Object holds the slot's value; the sentence stays the Memory's.
  assert.equal(await page.getByLabel('Value (JSON)').inputValue(), '"Lisbon"');
  assert.equal(await page.getByLabel('Key').inputValue(), 'lives-in');
  await checkScreen(page, 'memory-in-own-words');
  assert.deepEqual(problems, []);
});

test('a value in Conflicts in its own words is not quoted again under it', async () => {
  await chat('conflict', [[sentence, '2026-01-05T10:00:00Z']]);
  // Another source gives another home from the same instant: neither replaces the other.
  await app().api.rememberRecord('conflict', {
    content: { kind: 'fact', subject: 'Ana', predicate: 'lives_in', value: 'Braga' },
    source: { name: 'crm' },
    occurred_at: '2026-01-05T10:00:00Z',
  });
  await derivationSettled(app(), 'conflict');
  const { page, problems } = await ui();
  await navigateInPlace(page, '/brains/conflict/conflicts');
  const value = (said: string) =>
    page.locator('.values > li').filter({ has: page.getByRole('link', { name: said, exact: true }) });
  // The sentence in the person's own words; the fact's line, worded as a sentence, in no one's: each
  // is its evidence's line, not quoted again under itself.
  for (const [said, from] of [
    [sentence, 'said in these words'],
    ['Ana lives in Braga', 'from a fact'],
  ] as const) {
    await value(said).getByText(from).waitFor();
    assert.equal(await value(said).locator('mark').count(), 0, said);
  }
  await value('Ana lives in Braga').getByText('from crm').waitFor();
  await checkScreen(page, 'conflict-values-in-own-words');
  assert.deepEqual(problems, []);
});
