// The UI against `mnemo serve --ui --engine reference`: one Memory per Record, substring retrieval.
// The first test has a server of its own, as it starts from one with no Brains; the others share one
// server and one signed-in page (opening the UI in a new page costs a page load, a sign-in and axe's
// injection, more than the rest of a short test), each on its own Brain.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createMnemoClient, isMnemoApiError } from '../../server/client/index.ts';
import { appPerFile, browserPerFile, checkScreen, navigateInPlace, openUi, startApp } from './harness.ts';

const context = browserPerFile();
// The tests after the first share one server and one signed-in page.
const { app, ui } = appPerFile(context, 'reference');

test('create a Brain, watch Memories appear, see where one comes from, forget the Record', async () => {
  // A server of its own: the UI starts from no Brains at all.
  const empty = await startApp('reference');
  try {
    const { page, problems } = await openUi(context(), empty);
    await page.getByText('No Brains yet').waitFor();
    // Whose Brains these are, and the key that writes where this window looks.
    await page.getByText('mnemo keys create --project local --env live').waitFor();
    await checkScreen(page, 'brains-empty');

    await page.getByLabel('Short id').fill('home');
    await page.getByLabel('Name', { exact: false }).first().fill('Home');
    await page.getByLabel('Kind').selectOption('person');
    await page.getByLabel('Their name').fill('Ana');
    await page.getByRole('button', { name: 'Create Brain' }).click();
    await page.getByRole('heading', { level: 1, name: 'Memories' }).waitFor();
    await page.getByText('No Memories yet').waitFor();

    const { record } = await empty.api.rememberRecord('home', {
      content: { kind: 'message', text: 'Ana moved to Lisbon in May and loves the trams.', speaker: 'Ana' },
      source: { name: 'chat' },
    });
    await empty.api.rememberRecord('home', { content: 'The dentist appointment is on Friday.' });

    // No reload: the list notices the new Memories itself.
    const link = page.getByRole('link', { name: /Lisbon/ });
    await link.waitFor();
    await checkScreen(page, 'memories');

    await link.click();
    // The message is the Memory's statement word for word: the evidence names its Record rather than
    // repeating it (a quote inside a longer Record: "a Memory from a long document shows its quote in
    // context").
    const evidence = page.getByRole('region', { name: 'Where this comes from' });
    await evidence.getByText('said in these words').waitFor();
    assert.equal(await evidence.getByRole('link', { name: record.id }).count(), 1);
    assert.match((await page.getByRole('heading', { level: 1 }).textContent()) ?? '', /loves the trams/);
    await checkScreen(page, 'memory');
    const memoryUrl = page.url();

    await page.getByRole('link', { name: 'Records' }).click();
    await page.getByRole('heading', { level: 1, name: 'Records' }).waitFor();
    await page.getByText('Ana: Ana moved to Lisbon').waitFor();
    await checkScreen(page, 'records');
    await page
      .getByRole('listitem')
      .filter({ hasText: record.id })
      .getByRole('button', { name: /^Forget “/ })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Forget this Record?' });
    await dialog.waitFor();
    await checkScreen(page, 'records-forget-dialog');
    await dialog.getByRole('button', { name: 'Forget Record' }).click();
    // The row goes; the status line says what was forgotten.
    await page
      .getByRole('list', { name: 'Records' })
      .getByText('Ana: Ana moved to Lisbon')
      .waitFor({ state: 'detached' });
    await page
      .getByRole('status')
      .filter({ hasText: 'Forgot the Record “Ana: Ana moved to Lisbon' })
      .waitFor();

    await page.goto(memoryUrl);
    await page.getByRole('heading', { level: 1, name: 'This Memory is not in this Brain' }).waitFor();
    await page.getByText('memory_not_found').waitFor();
    await page.getByRole('link', { name: 'Memories' }).first().click();
    await page.getByRole('link', { name: /dentist/ }).waitFor();
    assert.equal(await page.getByRole('link', { name: /Lisbon/ }).count(), 0);
    assert.deepEqual(problems, []);
  } finally {
    await empty.close();
  }
});

test('ask a question, open its Trace; Profile, Census and Conflicts render', async () => {
  await app().api.createBrain({ id: 'work', name: 'Work', self: { type: 'person', name: 'Ana' } });
  await app().api.rememberRecord('work', {
    content: { kind: 'document', title: 'Standup', text: 'The release ships on Thursday.' },
  });
  await app().api.rememberRecord('work', {
    content: { kind: 'fact', subject: 'release', predicate: 'owner', value: 'Bo' },
  });
  const { page, problems } = await ui();
  await navigateInPlace(page, '/');
  await page.getByRole('link', { name: 'Work' }).click();
  await page.getByRole('link', { name: 'Ask' }).click();
  await page.getByLabel('Question').fill('When does the release ship?');
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  await page.getByRole('heading', { name: 'What this Brain knows' }).waitFor();
  // The Memories the answer rests on, each linked, and the text an agent gets behind a disclosure.
  await page
    .getByRole('list', { name: 'What it rests on' })
    .getByRole('link', { name: /Thursday/ })
    .first()
    .waitFor();
  await page.getByText('What an agent would receive').click();
  await page.locator('.context-text').waitFor();
  assert.match((await page.locator('.context-text').textContent()) ?? '', /Thursday/);
  await checkScreen(page, 'ask');

  await page.getByRole('link', { name: 'See how this answer was put together' }).click();
  await page.getByRole('heading', { level: 1, name: /When does the release ship/ }).waitFor();
  await page.getByRole('heading', { name: 'Where the time went' }).waitFor();
  assert.ok((await page.locator('figure.chart').count()) >= 1, 'the trace has at least one chart');
  // Candidates are named by their words, read live from the Records, not by a cut-off id.
  await page.locator('svg .chart-label', { hasText: 'Standup' }).first().waitFor();
  // The picture is hidden from assistive tech; the rows in full, as a list, are what it reads.
  const chart = page
    .locator('figure.chart')
    .filter({ has: page.locator('svg .chart-label', { hasText: 'Standup' }) })
    .first();
  assert.equal(await chart.locator('svg').getAttribute('aria-hidden'), 'true');
  await chart.getByText('Every row in full').click();
  const row = chart.getByRole('listitem').filter({ hasText: 'Standup' }).first();
  await row.waitFor();
  assert.ok(!(await row.innerText()).includes('…'), 'a row in the list is not shortened');
  await checkScreen(page, 'trace');

  await page.getByRole('link', { name: 'Traces' }).first().click();
  await page.getByRole('link', { name: 'When does the release ship?' }).waitFor();
  await checkScreen(page, 'traces');

  // A miss: nothing shares a word with the question.
  await page.getByRole('link', { name: 'Ask' }).click();
  await page.getByLabel('Question').fill('Favourite colour?');
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  const miss = page.getByRole('region', { name: 'What this Brain knows' });
  await miss
    .getByText(/Nothing (in this Brain )?answers/)
    .first()
    .waitFor();
  // Said once: not again as an empty answer, nor as the question listed as not answered.
  assert.equal(await miss.getByText(/Nothing (in this Brain )?answers/).count(), 1);
  assert.equal(await miss.getByRole('heading', { name: 'Could not be answered' }).count(), 0);

  await page.getByRole('link', { name: 'Profile & Census' }).click();
  await page.getByRole('heading', { level: 2, name: 'Census' }).waitFor();
  await page.locator('.facts').first().waitFor();
  await checkScreen(page, 'profile-census');

  await page.getByRole('link', { name: 'Conflicts' }).click();
  await page.getByText('No conflicts').waitFor();
  await checkScreen(page, 'conflicts-empty');
  assert.deepEqual(problems, []);
});

test('the Traces list pages back to older questions', async () => {
  await app().api.createBrain({ id: 'log', name: 'Log' });
  await app().api.rememberRecord('log', { content: 'The boiler was serviced in March.' });
  for (let i = 1; i <= 53; i++) await app().api.createContext('log', { query: `boiler question ${i}` });
  const { page, problems } = await ui();
  await navigateInPlace(page, '/');
  await page.getByRole('link', { name: 'Log' }).click();
  await page.getByRole('link', { name: 'Traces' }).first().click();
  await page.getByRole('link', { name: 'boiler question 53' }).waitFor();
  const rows = page.getByRole('table', { name: 'Recent questions' }).locator('tbody tr');
  assert.equal(await rows.count(), 50);
  assert.equal(await page.getByRole('link', { name: 'boiler question 1', exact: true }).count(), 0);
  await page.getByRole('button', { name: 'Show older questions' }).click();
  await page.getByRole('link', { name: 'boiler question 1', exact: true }).waitFor();
  assert.equal(await rows.count(), 53);
  assert.equal(await page.getByRole('button', { name: 'Show older questions' }).count(), 0);
  assert.deepEqual(problems, []);
});

test('create a key (secret shown once), then revoke it', async () => {
  const { page, problems } = await ui();
  await navigateInPlace(page, '/');
  await page.getByRole('link', { name: 'Keys' }).click();
  await page.getByRole('heading', { level: 1, name: 'Keys' }).waitFor();
  // The list is the app's project's, and says where the others are managed.
  await page.getByRole('heading', { level: 2, name: 'Keys of project local' }).waitFor();
  await page.getByText(/listed by mnemo keys list/).waitFor();
  await page.getByLabel('Label').fill('calendar agent');
  await page.getByLabel('Accept Objects').uncheck();
  await page.getByRole('button', { name: 'Create key' }).click();
  const secret = (await page.getByTestId('new-key-secret').textContent())?.trim() ?? '';
  assert.match(secret, /^sk_live_local_/);
  await checkScreen(page, 'keys-created');

  const agent = createMnemoClient({ baseUrl: app().server.url, apiKey: secret, retry: false });
  await agent.listBrains();
  await page.getByRole('button', { name: 'Done' }).click();
  assert.equal(await page.getByTestId('new-key-secret').count(), 0, 'the secret is gone once dismissed');

  const row = page.getByRole('row', { name: /calendar agent/ });
  await row.getByRole('button', { name: /Revoke/ }).click();
  await page
    .getByRole('dialog', { name: 'Revoke this key?' })
    .getByRole('button', { name: 'Revoke key' })
    .click();
  await row.getByText(/Revoked/).waitFor();
  await checkScreen(page, 'keys');
  await assert.rejects(agent.listBrains(), (e) => isMnemoApiError(e) && e.code === 'key_revoked');
  assert.deepEqual(problems, []);
});

test('the sign-in link opened a second time says it was used and how to get in without a restart', async () => {
  // The shared page spent the server's sign-in link.
  await ui();
  // Another tab (a closed one reopened from history, a bookmark): the token has been spent.
  const again = await context().newPage();
  await again.goto(app().uiUrl);
  await again.getByRole('heading', { level: 1, name: 'Open Mnemo' }).waitFor();
  const alert = again.getByRole('alert');
  await alert.getByText('This sign-in link no longer works').waitFor();
  await alert.getByText(/This sign-in link was already used/).waitFor();
  await alert.getByText('mnemo keys create --project local --env live --admin').waitFor();
  await checkScreen(again, 'sign-in-link-used');
  await again.close();
});
