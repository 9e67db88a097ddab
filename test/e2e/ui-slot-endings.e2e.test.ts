// Checked in the real UI with the local engine's rules: a home said in a sentence of its own ("I live in
// Lisbon with my partner Tom."), a move, and an ending ("I don't live in Porto anymore", which holds the
// slot as "Ana no longer lives in Porto"). A replaced version's page names what replaced it, and what
// holds now, each as what it is. One server and one browser for the file; each test on its own Brain.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appPerFile, browserPerFile, checkScreen, navigateInPlace, selfBrains } from './harness.ts';

const context = browserPerFile();
const { app, ui } = appPerFile(context, 'local');
const { chat } = selfBrains(app);

test('a replaced home names the home that replaced it, and apart from it the ending that holds now', async () => {
  await chat('ended', [
    ['I live in Lisbon with my partner Tom.', '2026-01-05T10:00:00Z'],
    ['i moved to porto', '2026-03-01T10:00:00Z'],
    ["I don't live in Porto anymore", '2026-05-01T10:00:00Z'],
  ]);
  const all = (await app().api.listMemories('ended', { status: 'all' })).data;
  const said = (s: string) => all.find((m) => m.statement === s);
  const lisbon = said('I live in Lisbon with my partner Tom.');
  const porto = said('Ana lives in Porto');
  const ended = said('Ana no longer lives in Porto');
  assert.ok(lisbon && porto && ended, `the engine's versions: ${all.map((m) => m.statement).join(' | ')}`);
  assert.equal(ended.status, 'active');

  const { page, problems } = await ui();
  await navigateInPlace(page, `/brains/ended/memories/${lisbon.id}`);
  const notice = page.locator('.notice').filter({ hasText: 'A newer version replaces this one' });
  await notice.waitFor();
  // Lisbon gave way to Porto, not to "no longer lives in Porto": that is said apart, as what holds now.
  assert.equal(
    (await notice.innerText()).trim(),
    'A newer version replaces this one: Ana lives in Porto (current now: Ana no longer lives in Porto)',
  );
  assert.equal(
    await notice.getByRole('link', { name: 'Ana lives in Porto' }).getAttribute('href'),
    `/brains/ended/memories/${porto.id}`,
  );
  assert.equal(
    await notice.getByRole('link', { name: 'Ana no longer lives in Porto' }).getAttribute('href'),
    `/brains/ended/memories/${ended.id}`,
  );
  await checkScreen(page, 'replaced-by-then-ended');

  // Porto's own successor is the one in force: named once, as before.
  await navigateInPlace(page, `/brains/ended/memories/${porto.id}`);
  await notice.filter({ hasText: 'no longer' }).waitFor();
  assert.equal(
    (await notice.innerText()).trim(),
    'A newer version replaces this one: Ana no longer lives in Porto',
  );
  assert.deepEqual(problems, []);
});

test('the history chart draws an ending as an outline, not as a home held to now', async () => {
  await chat('chart', [
    ['I live in Lisbon with my partner Tom.', '2026-01-05T10:00:00Z'],
    ["I don't live in Lisbon anymore", '2026-03-01T10:00:00Z'],
    ['i moved to porto', '2026-05-01T10:00:00Z'],
    ["I'm no longer based in Porto", '2026-07-01T10:00:00Z'],
  ]);
  const all = (await app().api.listMemories('chart', { status: 'all' })).data;
  assert.deepEqual(
    all.map((m) => m.statement),
    [
      'I live in Lisbon with my partner Tom.',
      'Ana no longer lives in Lisbon',
      'Ana lives in Porto',
      'Ana no longer lives in Porto',
    ],
  );
  const { page, problems } = await ui();
  await navigateInPlace(page, `/brains/chart/memories/${all[0]!.id}`);
  const bars = page.locator('.timeline rect');
  await bars.nth(3).waitFor();
  const ended = await bars.evaluateAll((rs) => rs.map((r) => r.classList.contains('ended')));
  assert.deepEqual(ended, [false, true, false, true], 'the endings, and only they, are outlines');
  assert.deepEqual(await page.locator('.timeline svg text.timeline-text').allTextContents(), [
    'v1',
    'v2 ended',
    'v3',
    'v4 ended',
  ]);
  await checkScreen(page, 'history-with-endings');
  assert.deepEqual(problems, []);
});

test('withdrawing a new job that followed a quit says no job is then current, not that a value comes back', async () => {
  await chat('quit', [
    ['I work at Acme.', '2026-01-05T10:00:00Z'],
    ['I no longer work at Acme', '2026-03-01T10:00:00Z'],
    ['I work at Sonae.', '2026-05-01T10:00:00Z'],
  ]);
  const all = (await app().api.listMemories('quit', { status: 'all' })).data;
  const sonae = all.find((m) => m.statement === 'Ana works at Sonae');
  assert.ok(sonae, `the engine's versions: ${all.map((m) => m.statement).join(' | ')}`);
  const { page, problems } = await ui();
  await navigateInPlace(page, `/brains/quit/memories/${sonae.id}`);
  await page.getByLabel(/simply wrong/).check();
  await page.getByRole('button', { name: 'Withdraw Memory' }).click();
  const dialog = page.getByRole('dialog', { name: 'Withdraw this Memory?' });
  await dialog
    .getByText(
      'The earlier version (version 2) takes its place again, and agents are told of that instead, with no value current:',
    )
    .waitFor();
  await dialog.locator('.quote', { hasText: 'Ana no longer works at Acme' }).waitFor();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'hidden' });
  assert.deepEqual(problems, []);
});
