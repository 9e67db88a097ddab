// Checked in the real UI: screens say what is true after the person acts or the world changes
// (a withdrawal that brings back an earlier value, a Brain that is gone, an import cut short, a link
// opened in a new tab), words do not break mid-word, and focus lands where the person can read on.
// One server and one browser for the file; each test on its own Brain.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { statementLabel } from '../../renderer/record-text.ts';
import {
  advanceUntil,
  appPerFile,
  browserPerFile,
  checkScreen,
  derivationSettled,
  focusedElement,
  navigateInPlace,
} from './harness.ts';

const context = browserPerFile({ fakeClock: true });
const { app, ui, signOut } = appPerFile(context, 'local', { viewport: { width: 1280, height: 900 } });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Two of the UI's 5 s poll intervals of the page's time: a poll still running asks at least once more. */
async function passPolls(page: Page): Promise<void> {
  for (let i = 0; i < 2; i += 1) {
    await page.clock.fastForward(5000);
    await sleep(250);
  }
}

test('withdrawing a Memory says the earlier value comes back, and then links the value now current', async () => {
  await app().api.createBrain({ id: 'withdraw', name: 'Withdraw', self: { type: 'person', name: 'Ana' } });
  for (const [value, at] of [
    ['Lisbon', '2024-01-01T00:00:00Z'],
    ['Porto', '2024-06-01T00:00:00Z'],
  ] as const)
    await app().api.rememberRecord('withdraw', {
      content: { kind: 'fact', subject: 'Ana', predicate: 'city', value },
      source: { name: 'mail' },
      occurred_at: at,
    });
  await derivationSettled(app(), 'withdraw');
  const all = (await app().api.listMemories('withdraw', { status: 'all' })).data;
  const porto = all.find((m) => m.statement.includes('Porto'))!;
  const lisbon = all.find((m) => m.statement.includes('Lisbon'))!;
  assert.equal(porto.status, 'active');
  // Facts about Ana by name read as the page words them: "Ana's city is Porto".
  const portoSaid = statementLabel(porto);
  const lisbonSaid = statementLabel(lisbon);
  const { page, problems } = await ui();
  await navigateInPlace(page, `/brains/withdraw/memories/${porto.id}`);
  await page.getByRole('heading', { level: 1, name: portoSaid }).waitFor();
  // Opened by link, it was "Loading…" first: focus waited for the heading.
  assert.equal(await focusedElement(page), `H1 ${portoSaid}`);
  // The history says how each version came to be, not what later happened to it.
  const versions = page.getByRole('list', { name: 'Versions, oldest first' }).getByRole('listitem');
  assert.match(await versions.nth(0).innerText(), /worked out from a Record/);
  assert.match(await versions.nth(1).innerText(), /from a newer Record about the same thing/);
  assert.equal(await page.getByText('replaced by a newer Record').count(), 0);
  await page.getByLabel(/withdraw it without a replacement/).check();
  await page.getByRole('button', { name: 'Withdraw Memory' }).click();
  const dialog = page.getByRole('dialog', { name: 'Withdraw this Memory?' });
  await dialog.getByText('The earlier value (version 1) takes its place again').waitFor();
  await dialog.locator('blockquote', { hasText: lisbonSaid }).waitFor();
  assert.equal(await dialog.getByText('nothing takes its place').count(), 0);
  await checkScreen(page, 'withdraw-dialog-earlier-value');
  await dialog.getByRole('button', { name: 'Withdraw Memory' }).click();

  const notice = page.getByRole('status').filter({ hasText: 'Saved. This Memory is withdrawn' });
  await notice.getByText(/Current instead:/).waitFor();
  const link = notice.getByRole('link', { name: lisbonSaid });
  await link.click();
  await page.getByRole('heading', { level: 1, name: lisbonSaid }).waitFor();
  assert.equal(await focusedElement(page), `H1 ${lisbonSaid}`);
  await page.locator('.facts').getByText('Current').waitFor();
  assert.equal((await app().api.getMemory('withdraw', lisbon.id)).status, 'active');
  // Back on the withdrawn one, it names what withdrew it: a correction, not its engine's words.
  await navigateInPlace(page, `/brains/withdraw/memories/${porto.id}`);
  const withdrawn = page.getByRole('status').filter({ hasText: 'This Memory is withdrawn' });
  await withdrawn.getByText(/Withdrawn by a correction of/).waitFor();
  assert.doesNotMatch(await withdrawn.innerText(), /mem_/);
  assert.deepEqual(problems, []);
});

/**
 * Ordinary words (letters only, up to 16) in the page's tables, headers and badges that are drawn
 * across two lines: broken mid-word. Long tokens (URLs, snake_case names) may break; these may not.
 */
const brokenWords = (page: Page) =>
  page.evaluate<string[]>(`(() => {
    const broken = [];
    const walker = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (!n.parentElement?.closest('table, .badge')) continue;
      for (const m of n.data.matchAll(/\\S+/g)) {
        const word = m[0].replace(/^[(“]+|[,.;:)”]+$/g, '');
        if (!/^[A-Za-z]{2,16}$/.test(word)) continue;
        const at = m.index + m[0].indexOf(word);
        const range = document.createRange();
        range.setStart(n, at);
        range.setEnd(n, at + word.length);
        const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (tops.size > 1) broken.push(word);
      }
    }
    return broken;
  })()`);

test('table text wraps long tokens but never breaks ordinary words; wide tables scroll at narrow widths', async () => {
  const url =
    'https://docs.google.com/document/d/1a2B3c4D5e6F7g8H9i0JkLmNoPqRsTuVwXyZ1a2B3c4D5e6F7g8H9i0JkLmNoPq/edit?usp=sharing_eil_m&ts=65f0c1d2';
  await app().api.createBrain({ id: 'words', name: 'Words', self: { type: 'person', name: 'Ana' } });
  await app().api.rememberRecord('words', {
    content: {
      kind: 'fact',
      subject: 'Ana',
      predicate: 'preferred_contact_method_for_urgent_work_matters',
      value: 'phone',
    },
    source: { name: url },
  });
  await app().api.rememberRecord('words', {
    content: { kind: 'fact', subject: 'Ana', predicate: 'reading_list_location', value: url },
  });
  await derivationSettled(app(), 'words');
  await app().api.acceptObject('words', {
    type: 'contact_preference',
    key: 'preferred_contact_method_for_urgent_work_matters',
    value: { url, note: 'x'.repeat(120) },
  });
  const { page, problems } = await ui();
  const screens = { memories: '/brains/words/memories', objects: '/brains/words/objects', brains: '/' };
  for (const [name, path] of Object.entries(screens)) {
    await navigateInPlace(page, path);
    await page.locator('main table').first().waitFor();
    assert.deepEqual(await brokenWords(page), [], `${name} at 1280 px: no word broken`);
  }
  await page.setViewportSize({ width: 800, height: 900 });
  for (const [name, path] of Object.entries(screens)) {
    await navigateInPlace(page, path);
    await page.locator('main table').first().waitFor();
    const scrollWidth = await page.evaluate<number>('document.documentElement.scrollWidth');
    assert.ok(scrollWidth <= 800, `${name} at 800 px: the page is not wider than the window`);
    assert.deepEqual(await brokenWords(page), [], `${name} at 800 px: no word broken`);
  }
  await navigateInPlace(page, screens.memories);
  await page.locator('main table').first().waitFor();
  await checkScreen(page, 'memories-long-tokens-800');
  // A phone's width: no page wider than the window (the Keys table's hidden button text included), and
  // every one of the Brain's pages within reach without scrolling sideways.
  await app().server.registry!.create({ env: 'live', project: 'local', label: 'a second key' });
  await page.setViewportSize({ width: 390, height: 844 });
  for (const [name, path] of Object.entries({ ...screens, keys: '/keys' })) {
    await navigateInPlace(page, path);
    await page.locator('main table').first().waitFor();
    const scrollWidth = await page.evaluate<number>('document.documentElement.scrollWidth');
    assert.ok(scrollWidth <= 390, `${name} at 390 px: the page is ${scrollWidth} px wide`);
  }
  await navigateInPlace(page, screens.memories);
  const tabs = page.getByRole('navigation', { name: 'Brain words' }).getByRole('link');
  assert.ok((await tabs.count()) >= 8);
  for (const tab of await tabs.all()) {
    const box = (await tab.boundingBox())!;
    assert.ok(box.x >= 0 && box.x + box.width <= 390, `${await tab.textContent()} is within the window`);
  }
  await checkScreen(page, 'memories-390');
  assert.deepEqual(problems, []);
});

test('a Brain that is not there, or is forgotten while its page is open, is said to be gone and is no longer polled', async () => {
  const { page, problems } = await ui();
  const polls: string[] = [];
  const seen = (r: { url(): string }) => {
    if (/\/v1\/brains\/[^/]+\/profile/.test(r.url())) polls.push(r.url());
  };
  page.on('request', seen);
  try {
    // A mistyped address: no Brain's navigation, no endless poll.
    await navigateInPlace(page, '/brains/doesnotexist/memories');
    const gone = page.getByRole('heading', { level: 1, name: 'This Brain does not exist' });
    await gone.waitFor();
    await page.getByRole('link', { name: 'Go to your Brains' }).waitFor();
    assert.equal(await page.getByRole('navigation', { name: 'Brain doesnotexist' }).count(), 0);
    assert.match(await page.evaluate<string>('document.activeElement?.textContent ?? ""'), /does not exist/);
    const before = polls.length;
    await passPolls(page);
    assert.equal(polls.length, before, 'the Brain that is not there is not polled');

    // Forgotten while its Memories are on screen.
    await app().api.createBrain({ id: 'doomed', name: 'Doomed' });
    await app().api.rememberRecord('doomed', {
      content: { kind: 'fact', subject: 'Bo', predicate: 'city', value: 'Faro' },
    });
    await derivationSettled(app(), 'doomed');
    await navigateInPlace(page, '/brains/doomed/memories');
    await page.getByRole('link', { name: /Faro/ }).waitFor();
    const whileThere = polls.length;
    await passPolls(page);
    assert.ok(polls.length > whileThere, 'a Brain on screen is polled');
    await app().api.forgetBrain('doomed');
    await advanceUntil(page, () => gone.isVisible());
    assert.equal(await page.getByRole('link', { name: /Faro/ }).count(), 0, 'its rows go with it');
    assert.equal(await page.getByRole('navigation', { name: 'Brain doomed' }).count(), 0);
    await checkScreen(page, 'brain-gone');
    const after = polls.length;
    await passPolls(page);
    assert.equal(polls.length, after, 'the forgotten Brain is no longer polled');
    await page.getByRole('link', { name: 'Go to your Brains' }).click();
    await page.getByRole('heading', { level: 1, name: 'Brains' }).waitFor();
  } finally {
    page.off('request', seen);
  }
  // The 404s that said so are the browser's own "Failed to load resource" lines, not page errors.
  assert.deepEqual(problems, []);
});

test('a failed Create key keeps focus on the button; the new key and the form after Done take it', async () => {
  const { page, problems } = await ui();
  await navigateInPlace(page, '/keys');
  await page.getByRole('heading', { level: 1, name: 'Keys' }).waitFor();
  // The API refuses, as a server gone away would.
  await page.route('**/v1/keys', (route) =>
    route.request().method() === 'POST' ? route.abort() : route.fallback(),
  );
  await page.getByLabel(/^Label/).fill('backup script');
  await page.getByRole('button', { name: 'Create key' }).click();
  const unreachable = page.getByRole('alert').filter({ hasText: 'Mnemo cannot be reached' });
  await unreachable.waitFor();
  assert.equal(await focusedElement(page), 'BUTTON Create key');
  // Only a failed read brings the banner with Try again: the words under a failed action point at none.
  assert.equal(await page.getByRole('button', { name: 'Try again' }).count(), 0);
  assert.doesNotMatch(await unreachable.innerText(), /Try again/);
  await page.unroute('**/v1/keys');
  await page.getByRole('button', { name: 'Create key' }).click();
  await page.getByTestId('new-key-secret').waitFor();
  assert.match(await focusedElement(page), /^DIV Copy this key now\./);
  await page.getByRole('button', { name: 'Done' }).click();
  assert.equal(await page.evaluate<string>('document.activeElement?.getAttribute("name") ?? ""'), 'label');
  // The form is for the next key, not a copy of the last one.
  assert.equal(await page.getByLabel(/^Label/).inputValue(), '');
  // A key that may do nothing is refused with a reason, not a silent button.
  for (const scope of await page.getByRole('group', { name: 'What it may do' }).getByRole('checkbox').all())
    await scope.uncheck();
  await page.getByRole('button', { name: 'Create key' }).click();
  await page.getByRole('alert').filter({ hasText: 'Choose at least one thing the key may do.' }).waitFor();
  assert.equal(await focusedElement(page), 'BUTTON Create key');
  // The network failure above is a console line of the browser's own, not the page's.
  assert.deepEqual(
    problems.filter((p) => !/ERR_FAILED/.test(p)),
    [],
  );
});

test('a key bound to a Brain its env does not hold says so under the new key', async () => {
  await app().api.createBrain({ id: 'keyed', name: 'Keyed' });
  const { page, problems } = await ui();
  // By way of another page: a form left as the test before left it (no scope ticked) starts afresh.
  await navigateInPlace(page, '/');
  await page.getByRole('heading', { level: 1, name: 'Brains' }).waitFor();
  await navigateInPlace(page, '/keys');
  await page.getByRole('heading', { level: 1, name: 'Keys' }).waitFor();
  // The Brains offered are the live ones; a test key sees only test Brains, where there is no "keyed".
  await page.getByLabel('Environment').selectOption('test');
  await page.getByLabel('Only this Brain').selectOption('keyed');
  await page.getByRole('button', { name: 'Create key' }).click();
  await page.getByTestId('new-key-secret').waitFor();
  assert.match(
    await page.getByTestId('new-key-warning').innerText(),
    /^Check: there is no Brain "keyed" in project local \(test\) yet; the key is bound to it all the same/,
  );
  await page.getByRole('button', { name: 'Done' }).click();
  // A key for a Brain that is there has nothing to check.
  await page.getByLabel('Only this Brain').selectOption('keyed');
  await page.getByRole('button', { name: 'Create key' }).click();
  await page.getByTestId('new-key-secret').waitFor();
  assert.equal(await page.getByTestId('new-key-warning').count(), 0);
  await page.getByRole('button', { name: 'Done' }).click();
  assert.deepEqual(problems, []);
});

test('an error page of a proxy in front of the server is said in words, for any status, not as http_502', async () => {
  await app().api.createBrain({ id: 'proxied', name: 'Proxied' });
  const { page, problems } = await ui();
  // What nginx answers when Mnemo behind it is down, or when a request is larger than it takes.
  const proxyPage = (status: number) => ({
    status,
    contentType: 'text/html',
    body: `<html><head><title>${status}</title></head><body><center><h1>${status}</h1></center><hr><center>nginx</center></body></html>`,
  });
  const memories = (u: URL) => u.pathname === '/v1/brains/proxied/memories';
  await page.route(memories, (route) => route.fulfill(proxyPage(502)));
  await navigateInPlace(page, '/brains/proxied/memories');
  const down = page
    .getByRole('alert')
    .filter({ hasText: 'The server could not be reached through its proxy' });
  await advanceUntil(page, () => down.isVisible());
  assert.match(await down.innerText(), /The proxy answered HTTP 502\b.* in Mnemo's place/);
  assert.doesNotMatch(await down.innerText(), /http_502|Something went wrong/);
  await checkScreen(page, 'proxy-answered-502');
  await page.unroute(memories);

  const records = (u: URL) => u.pathname === '/v1/brains/proxied/records';
  await page.route(records, (route) =>
    route.request().method() === 'POST' ? route.fulfill(proxyPage(413)) : route.fallback(),
  );
  await navigateInPlace(page, '/brains/proxied/records');
  await page.getByLabel('What should this Brain remember?').fill('A long note the proxy will not take');
  await page.getByRole('button', { name: 'Remember this' }).click();
  const refused = page
    .getByRole('alert')
    .filter({ hasText: 'A proxy in front of the server refused the request' });
  await refused.waitFor();
  assert.match(
    await refused.innerText(),
    /The proxy answered HTTP 413\b.* so the request did not reach Mnemo/,
  );
  assert.doesNotMatch(await refused.innerText(), /http_413/);
  await page.unroute(records);
  // Signing in with the one-time link: a proxy's 401 is not "this sign-in link no longer works".
  const fresh = await context().newPage();
  await fresh.route('**/ui/session', (route) => route.fulfill(proxyPage(401)));
  await fresh.goto(app().uiUrl);
  await fresh
    .getByRole('alert')
    .filter({ hasText: 'A proxy in front of the server refused the request' })
    .waitFor();
  assert.equal(await fresh.getByText('This sign-in link no longer works').count(), 0);
  await fresh.close();
  // The note is still there to send again.
  assert.equal(
    await page.getByLabel('What should this Brain remember?').inputValue(),
    'A long note the proxy will not take',
  );
  assert.deepEqual(problems, []);
});

test('a 5xx while a list is read again in the background keeps the list, with a banner, as a lost connection does', async () => {
  await app().api.createBrain({ id: 'polled', name: 'Polled' });
  const { page, problems } = await ui();
  await navigateInPlace(page, '/');
  // The Brains list is read again every 5 s while shown.
  const row = page.getByRole('link', { name: 'Polled', exact: true });
  await row.waitFor();
  const list = (u: URL) => u.pathname === '/v1/brains';
  const failing = (answer: { status: number; contentType: string; body: string }) =>
    page.route(list, (route) =>
      route.request().method() === 'GET' ? route.fulfill(answer) : route.fallback(),
    );
  // Taken away however the test ends: the page is the next test's too.
  try {
    const stale = page.locator('.banner[role="alert"]');
    const shownError = page.locator('main .status.error');

    // Mnemo behind a proxy is restarting: the proxy's own page answers in its place.
    await failing({
      status: 502,
      contentType: 'text/html',
      body: '<html><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>',
    });
    const viaProxy = stale.filter({ hasText: 'through its proxy' });
    await advanceUntil(page, () => viaProxy.isVisible());
    assert.match(
      await viaProxy.innerText(),
      /HTTP 502\b.*what you see was loaded before and may be out of date/s,
    );
    assert.equal(await row.count(), 1, 'the list loaded before stays on screen');
    assert.equal(await shownError.count(), 0, 'no error in place of the list');
    await checkScreen(page, 'stale-after-proxy-502');
    await page.unroute(list);
    // The next read that succeeds takes the banner away.
    await advanceUntil(page, async () => (await viaProxy.count()) === 0);

    // Mnemo itself answers 503: its words say what is wrong, and the list stays too.
    await failing({
      status: 503,
      contentType: 'application/json',
      body: JSON.stringify({
        type: 'internal',
        code: 'store_unavailable',
        message: 'The disk holding this Mnemo store is full: free some space there, then retry',
        request_id: 'req_01TESTSTALE',
        docs_url: 'http://127.0.0.1/docs/errors/store_unavailable',
      }),
    });
    const own = stale.filter({ hasText: 'The disk holding this Mnemo store is full' });
    await advanceUntil(page, () => own.isVisible());
    assert.match(await own.innerText(), /what you see was loaded before and may be out of date/);
    assert.equal(await row.count(), 1);
    assert.equal(await shownError.count(), 0);
    await page.unroute(list);
    await advanceUntil(page, async () => (await own.count()) === 0);
  } finally {
    await page.unroute(list);
  }
  assert.deepEqual(problems, []);
});

test('an answer cut to nothing by a small size limit says so, not that nothing answers', async () => {
  await app().api.createBrain({ id: 'tiny', name: 'Tiny', self: { type: 'person', name: 'Ana' } });
  await app().api.rememberRecord('tiny', {
    content: { kind: 'message', speaker: 'Ana', text: 'I live in Lisbon, in a flat in Alfama by the river.' },
  });
  await derivationSettled(app(), 'tiny');
  const { page, problems } = await ui();
  await navigateInPlace(page, '/brains/tiny/ask');
  await page.getByLabel('Question').fill('Where does Ana live?');
  await page.getByLabel('Size limit (tokens)').fill('5');
  await page.getByRole('button', { name: 'Ask' }).click();
  const answer = page.getByRole('region', { name: 'What this Brain knows' });
  await answer.getByText('cut to fit').waitFor();
  assert.match(await answer.innerText(), /What was found does not fit in 5 tokens/);
  assert.equal(await answer.getByText('Nothing answers this question.').count(), 0);
  assert.deepEqual(problems, []);
});

test('an answer on Ask goes once an agent forgets or corrects what it gave; other writes leave it', async () => {
  await app().api.createBrain({ id: 'asked', name: 'Asked', self: { type: 'person', name: 'Ana' } });
  const said = 'My ex Rui lives in Braga and his phone is 912 345 678.';
  const rui = await app().api.rememberRecord('asked', {
    content: { kind: 'message', speaker: 'Ana', text: said },
  });
  await app().api.rememberRecord('asked', {
    content: { kind: 'message', speaker: 'Ana', text: 'Rui has a cat called Miso.' },
  });
  await derivationSettled(app(), 'asked');
  const { page, problems } = await ui();
  const ask = async (question: string) => {
    await navigateInPlace(page, '/brains/asked/ask');
    await page.getByLabel('Question').fill(question);
    await page.getByRole('button', { name: 'Ask' }).click();
  };
  const answer = page.getByRole('region', { name: 'What this Brain knows' });
  const main = page.locator('main');
  await ask('Where does Rui live?');
  await answer.getByText('912 345 678').first().waitFor();

  // A write that touches nothing the answer gave: it still says what it said when asked.
  await app().api.rememberRecord('asked', {
    content: { kind: 'message', speaker: 'Ana', text: 'I like figs.' },
  });
  await derivationSettled(app(), 'asked');
  await passPolls(page);
  assert.ok(await answer.getByText('912 345 678').first().isVisible());

  // An agent forgets the Record it quotes: its words leave the screen, which says why, and are not
  // back after a look at a cited Memory's page.
  await app().api.forgetRecord('asked', rui.record.id);
  const outdated = page.getByText('The answer is no longer shown');
  await advanceUntil(page, () => outdated.isVisible());
  assert.equal(await main.getByText('912 345 678').count(), 0);
  await navigateInPlace(page, '/brains/asked/memories');
  await page.getByRole('link', { name: 'Rui has a cat called Miso.' }).waitFor();
  await navigateInPlace(page, '/brains/asked/ask');
  await page.getByRole('heading', { level: 1, name: 'Ask' }).waitFor();
  assert.equal(await main.getByText('912 345 678').count(), 0);
  assert.equal(await answer.count(), 0);

  // So does an agent's correction of a Memory it gave: the old value is not shown as told.
  await ask('What pet does Rui have?');
  await answer.getByText('called Miso').first().waitFor();
  const miso = (await app().api.listMemories('asked', { q: 'Miso' })).data[0]!;
  await app().api.rememberRecord('asked', {
    content: { kind: 'correction', corrects: miso.id, statement: 'Rui has a dog called Miso.' },
  });
  await advanceUntil(page, () => outdated.isVisible());
  assert.equal(await main.getByText('a cat called Miso').count(), 0);

  // And a forget of a quoted Record no Memory of the answer rests on (a question says nothing).
  const asked = await app().api.rememberRecord('asked', {
    content: { kind: 'message', speaker: 'Ana', text: 'Did Rui park the blue van by the ferry?' },
  });
  await derivationSettled(app(), 'asked');
  await ask('Where did Rui park the blue van?');
  await answer.getByText('the blue van by the ferry').first().waitFor();
  await app().api.forgetRecord('asked', asked.record.id);
  await advanceUntil(page, () => outdated.isVisible());
  assert.equal(await main.getByText('the blue van by the ferry').count(), 0);
  assert.deepEqual(problems, []);
});

test('an answer that already holds a change made just before the question stays when the page catches up', async () => {
  await app().api.createBrain({ id: 'caught', name: 'Caught', self: { type: 'person', name: 'Ana' } });
  await app().api.rememberRecord('caught', {
    content: { kind: 'message', speaker: 'Ana', text: 'Rui has a cat called Miso.' },
  });
  await derivationSettled(app(), 'caught');
  const { page, problems } = await ui();
  await navigateInPlace(page, '/brains/caught/ask');
  await page.getByRole('heading', { level: 1, name: 'Ask' }).waitFor();
  await passPolls(page);
  // Corrected while the page's clock stands still: the page has not seen it when the question is asked.
  const miso = (await app().api.listMemories('caught', { q: 'Miso' })).data[0]!;
  await app().api.rememberRecord('caught', {
    content: { kind: 'correction', corrects: miso.id, statement: 'Rui has a dog called Miso.' },
  });
  await derivationSettled(app(), 'caught');
  await page.getByLabel('Question').fill('What pet does Rui have?');
  await page.getByRole('button', { name: 'Ask' }).click();
  const answer = page.getByRole('region', { name: 'What this Brain knows' });
  await answer.getByText('a dog called Miso').first().waitFor();
  await passPolls(page);
  assert.ok(await answer.getByText('a dog called Miso').first().isVisible());
  assert.equal(await page.getByText('The answer is no longer shown').count(), 0);
  assert.deepEqual(problems, []);
});

test('a Record read by a Trace can still be forgotten on Records', async () => {
  await app().api.createBrain({ id: 'traced', name: 'Traced', self: { type: 'person', name: 'Ana' } });
  const said = 'My locker code at the sailing club is 4471.';
  const { record } = await app().api.rememberRecord('traced', {
    content: { kind: 'message', speaker: 'Ana', text: said },
  });
  await derivationSettled(app(), 'traced');
  const { context } = await app().api.createContext('traced', { query: 'What is my locker code?' });
  const { page, problems } = await ui();
  // The Trace reads the Record's words into the cache the Records list shares its prefix with.
  await navigateInPlace(page, `/brains/traced/traces/${context.id}`);
  await page.getByText(said).filter({ visible: true }).first().waitFor();
  await navigateInPlace(page, '/brains/traced/records');
  await page
    .getByRole('listitem')
    .filter({ hasText: record.id })
    .getByRole('button', { name: /^Forget “/ })
    .click();
  await page.getByRole('dialog').getByRole('button', { name: 'Forget Record' }).click();
  await page
    .getByRole('status')
    .getByText(/^Forgot the Record/)
    .waitFor();
  assert.equal(await page.getByRole('dialog').count(), 0);
  await assert.rejects(app().api.getRecord('traced', record.id), { code: 'record_not_found' });
  // The forget dropped the trace that named it: back there, the page says so in words.
  await page.goBack();
  await page.getByRole('heading', { level: 1, name: 'This trace is no longer kept' }).waitFor();
  assert.equal(await page.getByText(said).count(), 0);
  assert.deepEqual(problems, []);
});

test("a Memory's cited Record opens on a page of its own, which says when it is forgotten, here or by an agent", async () => {
  await app().api.createBrain({ id: 'cited', name: 'Cited', self: { type: 'person', name: 'Ana' } });
  const said = 'I moved to Porto in 2021 for the sailing club.';
  const { record } = await app().api.rememberRecord('cited', {
    content: { kind: 'message', speaker: 'Ana', text: said, thread: 'Moving to Porto (c-41)' },
    source: { name: 'chatgpt' },
    occurred_at: '2023-05-01T12:00:00Z',
  });
  const other = await app().api.rememberRecord('cited', {
    content: { kind: 'document', title: 'Packing list', text: 'Life jacket, sunscreen and spare rope.' },
  });
  await derivationSettled(app(), 'cited');
  const memory = (await app().api.getRecord('cited', record.id)).memory_ids[0]!;
  const { page, problems } = await ui();
  await navigateInPlace(page, `/brains/cited/memories/${memory}`);
  await page.getByRole('link', { name: record.id }).click();
  await page.getByRole('heading', { level: 1, name: `Ana: ${said}` }).waitFor();
  assert.equal(new URL(page.url()).pathname, `/brains/cited/records/${record.id}`);
  assert.equal(await page.title(), 'Record · cited — Mnemo');
  const facts = await page.locator('dl.facts').innerText();
  assert.match(facts, /Source\s+chatgpt/);
  assert.match(facts, /Happened\s+May 1, 2023/);
  assert.match(facts, /Conversation\s+Moving to Porto \(c-41\)/);
  await checkScreen(page, 'record-page');
  // Back to what was worked out from it.
  await page.locator('dl.facts').getByRole('link', { name: '1 Memory' }).click();
  await page.getByRole('heading', { level: 1, name: said }).waitFor();
  await page.goBack();

  // Forgotten from its page: the page says so, and nothing of the Record is left but the receipt.
  // The page's own read of the Record answers late, as on a busy machine: the dialog has closed and
  // given focus back to its button before the page learns the Record is gone and removes the button.
  const recordUrl = `**/v1/brains/cited/records/${record.id}`;
  await page.route(recordUrl, async (route) => {
    if (route.request().method() === 'GET') await new Promise((r) => setTimeout(r, 700));
    await route.fallback();
  });
  await page.getByRole('button', { name: 'Forget this Record' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Forget Record' }).click();
  await page.getByRole('heading', { level: 1, name: 'Record forgotten' }).waitFor();
  await page.unroute(recordUrl);
  assert.equal(await focusedElement(page), 'H1 Record forgotten');
  await page
    .getByRole('status')
    .getByText(/^Forgot the Record/)
    .waitFor();
  assert.equal(await page.locator('main dl.facts').count(), 0);

  // Forgotten by an agent while its page is open: the page follows the Brain and says it is gone.
  await navigateInPlace(page, `/brains/cited/records/${other.record.id}`);
  await page.getByRole('heading', { level: 1, name: 'Packing list' }).waitFor();
  await app().api.forgetRecord('cited', other.record.id);
  await advanceUntil(page, () =>
    page.getByRole('heading', { level: 1, name: 'This Record is not in this Brain' }).isVisible(),
  );
  assert.equal(await page.getByText('spare rope').count(), 0);
  assert.deepEqual(problems, []);
});

test('a value refused as not JSON is no longer said to be wrong once it is edited', async () => {
  await app().api.createBrain({ id: 'accept', name: 'Accept', self: { type: 'person', name: 'Ana' } });
  await app().api.rememberRecord('accept', {
    content: { kind: 'fact', subject: 'Ana', predicate: 'city', value: 'Lisbon' },
  });
  await derivationSettled(app(), 'accept');
  const [memory] = (await app().api.listMemories('accept')).data;
  const { page, problems } = await ui();
  await navigateInPlace(page, `/brains/accept/memories/${memory!.id}`);
  const value = page.getByLabel('Value (JSON)');
  await value.fill('Lisbon, Portugal');
  await page.getByRole('button', { name: 'Accept as Object' }).click();
  const refusal = page.getByRole('alert').filter({ hasText: 'The value must be JSON' });
  await refusal.waitFor();
  assert.equal(await value.getAttribute('aria-invalid'), 'true');
  await value.fill('"Lisbon, Portugal"');
  assert.equal(await refusal.count(), 0);
  assert.equal(await value.getAttribute('aria-invalid'), null);
  assert.deepEqual(problems, []);
});

test("a Profile line's statement starts at its box's padding, with no blank line above it", async () => {
  await app().api.createBrain({ id: 'lines', name: 'Lines', self: { type: 'person', name: 'Ana' } });
  await app().api.rememberRecord('lines', {
    content: { kind: 'message', speaker: 'Ana', text: 'I keep bees in the garden.' },
  });
  await derivationSettled(app(), 'lines');
  const { page, problems } = await ui();
  await navigateInPlace(page, '/brains/lines/profile');
  const line = page.locator('main li.list-item').first();
  await line.getByRole('link').first().waitFor();
  const gap = await line.evaluate((li) => {
    const link = li.querySelector('a');
    return link ? link.getBoundingClientRect().top - li.getBoundingClientRect().top : -1;
  });
  // The box's padding (11 px) and the line's own leading (3 px); a paragraph's margin adds 16.
  assert.ok(gap >= 0 && gap < 20, `${gap}px from the box's top to the statement`);
  assert.deepEqual(problems, []);
});

test('a very long statement is cut in the Memories table, on Profile and in its heading, and shown whole on its page', async () => {
  await app().api.createBrain({ id: 'long', name: 'Long', self: { type: 'person', name: 'Ana' } });
  // One sentence of Ana's own, so it is also a line of her Profile.
  const towns = Array.from({ length: 60 }, (_, i) => `the old town of City${i}`).join(', ');
  await app().api.rememberRecord('long', {
    content: { kind: 'message', speaker: 'Ana', text: `I have been to ${towns} and loved them all.` },
  });
  await derivationSettled(app(), 'long');
  const [memory] = (await app().api.listMemories('long')).data;
  assert.ok(memory && memory.statement.length > 1000, 'the whole document is one statement');
  const { page, problems } = await ui();
  await navigateInPlace(page, '/brains/long/memories');
  const link = page.locator('main table tbody a').first();
  await link.waitFor();
  const shown = await link.innerText();
  assert.ok(shown.length <= 301 && shown.endsWith('…'), `${shown.length} characters in the table`);
  await link.click();
  // Its page heads it with its start, and has the whole of it one press away.
  const heading = page.getByRole('heading', { level: 1 }).filter({ hasText: 'City0' });
  await heading.waitFor();
  assert.ok((await heading.innerText()).length <= 141, 'the heading is its start');
  await page.getByText(/^The whole statement/).click();
  assert.equal((await page.locator('.statement-whole p').innerText()).length, memory.statement.length);
  await navigateInPlace(page, '/brains/long/profile');
  const line = page.locator('main li.list-item a').first();
  await line.waitFor();
  assert.ok((await line.innerText()).length <= 301);
  assert.deepEqual(problems, []);
});

test('a correction being written when an agent replaces the version is kept on screen, not dropped', async () => {
  await app().api.createBrain({ id: 'replaced', name: 'Replaced', self: { type: 'person', name: 'Ana' } });
  const city = (value: string, at: string) =>
    app().api.rememberRecord('replaced', {
      content: { kind: 'fact', subject: 'Ana', predicate: 'city', value },
      occurred_at: at,
    });
  await city('Lisbon', '2024-01-01T00:00:00Z');
  await derivationSettled(app(), 'replaced');
  const [lisbon] = (await app().api.listMemories('replaced')).data;
  const { page, problems } = await ui();
  await navigateInPlace(page, `/brains/replaced/memories/${lisbon!.id}`);
  const words = 'Ana lives in Lisbon, in Graça, since January — written with care';
  await page.getByLabel('What is actually true').fill(words);
  // An agent writes a newer value while the person is still writing.
  await city('Porto', '2024-06-01T00:00:00Z');
  const kept = page.getByRole('alert').filter({ hasText: 'Your correction was not saved' });
  await kept.waitFor({ timeout: 20_000 });
  assert.match(await kept.innerText(), /Graça, since January — written with care/);
  await kept.getByRole('link', { name: /Porto/ }).waitFor();
  assert.match(await focusedElement(page), /^DIV Your correction was not saved/);
  assert.deepEqual(problems, []);
});

test('a correction being written when its Record is forgotten keeps the words, to copy or write as a new note', async () => {
  await app().api.createBrain({
    id: 'forgot-under',
    name: 'Forgot under',
    self: { type: 'person', name: 'Ana' },
  });
  const { record } = await app().api.rememberRecord('forgot-under', {
    content: { kind: 'fact', subject: 'Ana', predicate: 'city', value: 'Lisbon' },
    occurred_at: '2024-01-01T00:00:00Z',
  });
  await derivationSettled(app(), 'forgot-under');
  const [lisbon] = (await app().api.listMemories('forgot-under')).data;
  const { page, problems } = await ui();
  await navigateInPlace(page, `/brains/forgot-under/memories/${lisbon!.id}`);
  const words = 'Ana lives in Lisbon, in Alfama, since March — typed with care';
  await page.getByLabel('What is actually true').fill(words);
  // An agent (or another window) forgets the Record the Memory came from while the person writes.
  await app().api.forgetRecord('forgot-under', record.id);
  const kept = page.getByRole('alert').filter({ hasText: 'Your correction was not saved' });
  await kept.waitFor({ timeout: 20_000 });
  assert.match(
    await kept.innerText(),
    /removed while you were writing: the Records it came from were forgotten/,
  );
  assert.match(await kept.innerText(), /Alfama, since March — typed with care/);
  assert.match(await focusedElement(page), /^DIV Your correction was not saved/);
  // It was here a moment ago: not "the address is mistyped".
  assert.equal(await page.getByText('the address is mistyped').count(), 0);
  await kept.getByRole('button', { name: 'Copy what you wrote' }).waitFor();
  await checkScreen(page, 'correction-of-forgotten-memory');
  await kept.getByRole('button', { name: 'Write it as a new note' }).click();
  await page.getByRole('heading', { level: 1, name: 'Records' }).waitFor();
  assert.equal(await page.getByLabel('What should this Brain remember?').inputValue(), words);
  await page.getByText('Your note from before is still here, not saved yet.').waitFor();
  await page.getByRole('button', { name: 'Remember this' }).click();
  await page.getByText('Note saved').waitFor();
  const saved = (await app().api.listRecords('forgot-under')).data[0]!;
  assert.equal((saved.content as { text: string }).text, words);
  assert.deepEqual(problems, []);
});

test('errors name fields as the screen labels them, and inputs stop at the length the API takes', async () => {
  await app().api.createBrain({ id: 'fields', name: 'Fields' });
  const { page, problems } = await ui();
  // Hand-edited addresses get the server's refusal, in the form's words.
  await navigateInPlace(page, `/brains/fields/memories?q=${'a'.repeat(501)}`);
  const tooLong = page.getByRole('alert').filter({ hasText: 'must be at most 500 characters' });
  await tooLong.waitFor();
  assert.match(await tooLong.innerText(), /Search: must be at most 500 characters/);
  assert.doesNotMatch(await tooLong.innerText(), /\bq:/);
  assert.equal(await page.getByRole('searchbox', { name: /Search/ }).getAttribute('maxlength'), '500');
  await navigateInPlace(page, '/brains/fields/records?since=2025-01-01T00:00:00Z&until=2024-01-01T00:00:00Z');
  const order = page.getByRole('alert').filter({ hasText: 'must not be later than' });
  await order.waitFor();
  assert.doesNotMatch(await order.innerText(), /\bsince:|than until/);
  // The 400s are the browser's "Failed to load resource" lines, not the page's errors.
  assert.deepEqual(problems, []);
});

test('a Memory id that is not there is not said to have been forgotten: the page says what it may be', async () => {
  await app().api.createBrain({ id: 'nope', name: 'Nope' });
  const { page, problems } = await ui();
  await navigateInPlace(page, '/brains/nope/memories/mem_nope');
  await page.getByRole('heading', { level: 1, name: 'This Memory is not in this Brain' }).waitFor();
  const lead = await page.locator('main .lead').innerText();
  assert.match(lead, /mem_nope/);
  assert.match(lead, /mistyped/);
  assert.match(lead, /Records the Memory came from were forgotten/);
  assert.equal(await page.getByText('This Memory is gone').count(), 0);
  assert.deepEqual(problems, []);
});

test('an empty Memories list under filters says so and clears them; an empty Brain says none yet', async () => {
  await app().api.createBrain({ id: 'filters', name: 'Filters' });
  const { page, problems } = await ui();
  await navigateInPlace(page, '/brains/filters/memories?status=scheduled&subject=nobody');
  await page.getByText('No Memories match these filters').waitFor();
  await page.getByText('No Memories starting later, about “nobody”.').waitFor();
  assert.equal(await page.getByText('No Memories yet').count(), 0);
  await page.getByRole('link', { name: 'Clear the filters' }).click();
  await page.getByText('No Memories yet').waitFor();
  assert.equal(new URL(page.url()).search, '');
  assert.equal(await page.getByLabel('About').inputValue(), '');
  assert.equal(await focusedElement(page), 'H1 Memories');
  assert.deepEqual(problems, []);
});

test('About and Whose find the Brain\'s own person by "You", and Whose "not sure whose", as the list names them', async () => {
  await app().api.createBrain({ id: 'yours', name: 'Yours', self: { type: 'person', name: 'Ana' } });
  await app().api.rememberRecord('yours', {
    content: { kind: 'fact', subject: 'self', predicate: 'home_city', value: 'Porto' },
  });
  await app().api.rememberRecord('yours', { content: { kind: 'document', text: 'Tide tables for June.' } });
  await derivationSettled(app(), 'yours');
  const { page, problems } = await ui();
  await navigateInPlace(page, '/brains/yours/memories');
  const table = page.getByRole('table');
  await table.getByRole('cell', { name: 'You · home city' }).waitFor();
  for (const field of ['About', 'Whose']) {
    await page.getByLabel(field).fill('You');
    await page.getByRole('button', { name: 'Search' }).click();
    await table.getByRole('link', { name: "Ana's home city is Porto" }).waitFor();
    assert.equal(await table.getByText('Tide tables').count(), 0);
    await navigateInPlace(page, '/brains/yours/memories');
    await table.getByText('Tide tables for June.').waitFor();
  }
  // And what it calls "not sure whose" by those words.
  await table.getByRole('row').filter({ hasText: 'Tide tables' }).getByText('not sure whose').waitFor();
  await page.getByLabel('Whose').fill('not sure whose');
  await page.getByRole('button', { name: 'Search' }).click();
  await table.getByRole('link', { name: "Ana's home city is Porto" }).waitFor({ state: 'detached' });
  await table.getByText('Tide tables for June.').waitFor();
  assert.equal(await page.getByLabel('Whose').inputValue(), 'not sure whose');
  assert.deepEqual(problems, []);
});

test('Remember this with only spaces and Import with nothing chosen say why nothing happens', async () => {
  await app().api.createBrain({ id: 'why', name: 'Why' });
  const { page, problems } = await ui();
  await navigateInPlace(page, '/brains/why/records');
  await page.getByLabel('What should this Brain remember?').fill('   ');
  await page.getByRole('button', { name: 'Remember this' }).click();
  await page.getByRole('alert').filter({ hasText: 'a note of only spaces is not kept' }).waitFor();
  assert.equal(await focusedElement(page), 'BUTTON Remember this');
  assert.equal((await app().api.getCensus('why')).counts.records, 0);
  await page.getByLabel('What should this Brain remember?').fill('Bo keeps bees.');
  assert.equal(await page.getByText('a note of only spaces is not kept').count(), 0);

  await navigateInPlace(page, '/brains/why/import');
  await page.getByRole('button', { name: 'Import' }).click();
  await page.getByRole('alert').filter({ hasText: 'Choose files or a folder to import first' }).waitFor();
  await page.getByLabel('Files', { exact: true }).setInputFiles({
    name: 'bees.md',
    mimeType: 'text/markdown',
    buffer: Buffer.from('# Bees\n\nThe hive is by the fence.\n'),
  });
  assert.equal(await page.getByText('Choose files or a folder to import first').count(), 0);
  assert.deepEqual(problems, []);
});

test('Records are listed as the label says, most recently written first, each with when it was written and happened', async () => {
  await app().api.createBrain({ id: 'order', name: 'Order' });
  await app().api.rememberRecord('order', {
    content: 'The boat was repainted.',
    occurred_at: '2024-06-01T12:00:00Z',
  });
  await app().api.rememberRecord('order', {
    content: 'The boat was bought.',
    occurred_at: '2020-01-01T12:00:00Z',
  });
  const { page, problems } = await ui();
  await navigateInPlace(page, '/brains/order/records');
  await page.getByText(/the most recently written first/).waitFor();
  const rows = page.getByRole('list', { name: 'Records' }).getByRole('listitem');
  await rows.nth(1).waitFor();
  // Written second, happened first: on top, and both times are said.
  const top = await rows.nth(0).innerText();
  assert.match(top, /The boat was bought\./);
  assert.match(top, /written /);
  assert.match(top, /happened .*2020/);
  assert.match(await rows.nth(1).innerText(), /The boat was repainted\./);
  await page.getByLabel('Happened from').waitFor();
  // A range that ends before it starts is said at the form, and no read goes out for it.
  const reads: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/records?')) reads.push(r.url());
  });
  await page.getByLabel('Happened from').fill('2024-05-01T10:00');
  await page.getByLabel('Happened until').fill('2024-04-01T10:00');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.getByRole('alert').filter({ hasText: '“Happened until” is before “Happened from”' }).waitFor();
  for (const end of ['Happened from', 'Happened until'])
    assert.equal(await page.getByLabel(end).getAttribute('aria-invalid'), 'true', end);
  assert.deepEqual(reads, []);
  // Changing either end takes the message back until the range is applied again.
  await page.getByLabel('Happened from').fill('2024-03-01T10:00');
  await page
    .getByRole('alert')
    .filter({ hasText: '“Happened until” is before' })
    .waitFor({ state: 'detached' });
  assert.deepEqual(problems, []);
});

test('a note being typed survives being signed out (a server restart revokes the key) and is there after signing in', async () => {
  await app().api.createBrain({ id: 'draft', name: 'Draft' });
  const { page, problems } = await ui();
  await navigateInPlace(page, '/brains/draft/records');
  const note = page.getByLabel('What should this Brain remember?');
  await note.fill('Remember to water the lemon tree on Sunday');
  // What a restart does to this tab: its key stops working, and the next read signs it out.
  const key = await page.evaluate<string>('JSON.parse(sessionStorage.getItem("mnemo.session")).apiKey');
  assert.ok(await app().server.registry!.revoke(key));
  await page.getByRole('heading', { level: 1, name: 'Open Mnemo' }).waitFor({ timeout: 15_000 });
  const admin = await app().server.registry!.create({
    env: 'live',
    project: 'local',
    admin: true,
    label: 'e2e admin',
  });
  await page.getByLabel('API key').fill(admin.key);
  await page.getByRole('button', { name: 'Open' }).click();
  await page.getByRole('heading', { level: 1, name: 'Records' }).waitFor();
  assert.equal(await note.inputValue(), 'Remember to water the lemon tree on Sunday');
  await page.getByText('Your note from before is still here, not saved yet.').waitFor();
  await page.getByRole('button', { name: 'Remember this' }).click();
  await page.getByRole('status').filter({ hasText: 'Note saved' }).waitFor();
  assert.equal(await note.inputValue(), '');
  assert.equal(await page.evaluate<string | null>('sessionStorage.getItem("mnemo.draft-note.draft")'), null);
  // The sign-out's 401 is the browser's own "Failed to load resource" line.
  assert.deepEqual(problems, []);
});

test("a note typed in a person's Brain is that person's own words, and its Memory is theirs", async () => {
  await app().api.createBrain({ id: 'mine', name: 'Mine', self: { type: 'person', name: 'Ana Costa' } });
  const { page, problems } = await ui();
  await navigateInPlace(page, '/brains/mine/records');
  const kind = page.getByRole('region', { name: 'Add a note' }).getByLabel('Kind');
  await kind.locator('option', { hasText: 'Your own words' }).waitFor({ state: 'attached' });
  assert.equal(await kind.inputValue(), 'yours');
  await page.getByLabel('What should this Brain remember?').fill('I live in Porto.');
  await page.getByRole('button', { name: 'Remember this' }).click();
  await page.getByRole('status').filter({ hasText: 'Note saved' }).waitFor();
  const [record] = (await app().api.listRecords('mine')).data;
  assert.deepEqual(record!.content, { kind: 'message', text: 'I live in Porto.', speaker: 'self' });
  await derivationSettled(app(), 'mine');
  const memories = (await app().api.listMemories('mine')).data;
  assert.ok(memories.length > 0);
  for (const m of memories) assert.deepEqual(m.owner, { state: 'self', entity: 'Ana Costa' }, m.statement);
  assert.deepEqual(problems, []);
});

test("a Memory's history chart runs to now: the version in force since the last change is not a sliver", async () => {
  await app().api.createBrain({ id: 'moves', name: 'Moves', self: { type: 'person', name: 'Ana' } });
  for (const [text, at] of [
    ['I live in Porto.', '2024-01-01T10:00:00Z'],
    ['I live in Lisbon.', '2024-09-01T10:00:00Z'],
  ] as const)
    await app().api.rememberRecord('moves', {
      content: { kind: 'message', text, speaker: 'self' },
      occurred_at: at,
    });
  await derivationSettled(app(), 'moves');
  const lisbon = (await app().api.listMemories('moves')).data.find((m) => /Lisbon/.test(m.statement));
  assert.ok(lisbon, 'a Memory of the move');
  const { page, problems } = await ui();
  await navigateInPlace(page, `/brains/moves/memories/${lisbon.id}`);
  const bars = page.locator('.timeline rect');
  await bars.nth(1).waitFor();
  const widths = await bars.evaluateAll((rs) => rs.map((r) => Number(r.getAttribute('width'))));
  // Jan to Sep 2024, then Sep 2024 to now: the second is the longer bar on a chart that ends now.
  assert.ok(widths[1]! > widths[0]!, `bar widths ${widths.join(', ')}`);
  assert.deepEqual(problems, []);
});

// Last in the file: it closes the page the other tests share.
test("the Census's examples read as the statements and words they are, each still linked or named by id", async () => {
  await app().api.createBrain({ id: 'noisy', name: 'Noisy', self: { type: 'person', name: 'Ana' } });
  for (const [value, source] of [
    ['Porto', 'phone'],
    ['Lisbon', 'laptop'],
  ] as const)
    await app().api.rememberRecord('noisy', {
      content: { kind: 'fact', subject: 'self', predicate: 'home_city', value },
      source: { name: source },
      occurred_at: '2024-01-01T00:00:00Z',
    });
  const said = 'Remember to water the fig tree on Sundays.';
  for (let i = 0; i < 2; i += 1)
    await app().api.rememberRecord('noisy', { content: { kind: 'message', text: said, speaker: 'Ana' } });
  await derivationSettled(app(), 'noisy');
  const noise = (await app().api.getCensus('noisy')).noise;
  const conflict = noise.find((n) => n.kind === 'conflicts')!.examples[0]!;
  const duplicate = noise.find((n) => n.kind === 'duplicates')!.examples[0]!;
  const { page, problems } = await ui();
  await navigateInPlace(page, '/brains/noisy/profile');
  const examples = page.locator('section[aria-labelledby="census"] ul.list');
  // The Brain's own person's fact reads as it does everywhere else, not as stored ("self home city").
  const memory = examples.getByRole('link', { name: /^“Ana's home city is (Porto|Lisbon)”$/ }).first();
  await memory.waitFor();
  assert.equal(await examples.getByText(/self home/).count(), 0);
  assert.equal(await examples.locator(`a[title="${conflict}"]`).count(), 1);
  assert.equal(
    await examples.locator(`a[title="${conflict}"]`).getAttribute('href'),
    `/brains/noisy/memories/${conflict}`,
  );
  const words = examples.locator(`span[title="${duplicate}"]`);
  assert.equal(await words.textContent(), `“Ana: ${said}”`);
  assert.equal(await examples.getByText(/\b(mem|rec)_[0-9A-Z]{26}\b/).count(), 0);
  await checkScreen(page, 'census-examples');
  assert.deepEqual(problems, []);
});

test('a value mended in the next message says which message withdrew it, and opens it', async () => {
  await app().api.createBrain({ id: 'mended', name: 'Mended', self: { type: 'person', name: 'Ana' } });
  for (const [text, at] of [
    ['my birthday is march 4', '2026-03-01T10:00:00Z'],
    ["wait no, it's march 14", '2026-03-01T10:00:40Z'],
  ] as const)
    await app().api.rememberRecord('mended', {
      content: { kind: 'message', text, speaker: 'Ana', thread: 'chat' },
      occurred_at: at,
    });
  await derivationSettled(app(), 'mended');
  const all = (await app().api.listMemories('mended', { status: 'all' })).data;
  const slip = all.find((m) => m.status === 'retracted')!;
  const mend = (await app().api.listRecords('mended', {})).data.find(
    (r) => r.content.kind === 'message' && r.content.text.startsWith('wait no'),
  )!;
  const { page, problems } = await ui();
  await navigateInPlace(page, `/brains/mended/memories/${slip.id}`);
  const notice = page.getByRole('status').filter({ hasText: 'This Memory is withdrawn' });
  await notice.getByText(/Withdrawn by Ana's message of/).waitFor();
  await notice
    .getByRole('link', { name: /Current instead|birthday is march 14/ })
    .first()
    .waitFor();
  await checkScreen(page, 'withdrawn-by-a-mend');
  // Clicked as an event: under this file's fake clock a pointer click on the notice did not always land.
  await notice.getByRole('link', { name: "wait no, it's march 14" }).dispatchEvent('click');
  await page.getByRole('heading', { level: 1, name: "Ana: wait no, it's march 14" }).waitFor();
  assert.equal(new URL(page.url()).pathname, `/brains/mended/records/${mend.id}`);
  assert.deepEqual(problems, []);
});

test('a link opened in a new tab is signed in by a tab already open; with none open, sign-in is asked', async () => {
  await app().api.createBrain({ id: 'tabs', name: 'Tabs' });
  const { page, problems } = await ui();
  await navigateInPlace(page, '/');
  const link = page.getByRole('link', { name: 'Tabs', exact: true });
  const [tab] = await Promise.all([context().waitForEvent('page'), link.click({ button: 'middle' })]);
  await tab.getByRole('heading', { level: 1, name: 'Memories' }).waitFor();
  assert.equal(new URL(tab.url()).pathname, '/brains/tabs/memories');
  // An address pasted into a new tab.
  const pasted = await context().newPage();
  await pasted.goto(new URL('/brains/tabs/records', app().uiUrl).href);
  await pasted.getByRole('heading', { level: 1, name: 'Records' }).waitFor();
  // The key stays in each tab's sessionStorage: never in localStorage or a cookie.
  for (const p of [page, tab, pasted]) {
    assert.doesNotMatch(await p.evaluate<string>('JSON.stringify(localStorage)'), /sk_/);
    assert.equal(await p.evaluate<string>('document.cookie'), '');
  }
  // No tab signed in any more: the sign-in screen, as before.
  await Promise.all([tab.close(), pasted.close(), page.close()]);
  signOut();
  const alone = await context().newPage();
  await alone.goto(new URL('/brains/tabs/records', app().uiUrl).href);
  await alone.getByRole('heading', { level: 1, name: 'Open Mnemo' }).waitFor();
  await alone.close();
  assert.deepEqual(problems, []);
});

test('an error code’s page is drawn with its style under its own strict CSP, and refuses frames', async () => {
  const page = await context().newPage();
  app().pages.add(page);
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  const res = await page.goto(`${app().server.origin}/docs/errors/brain_exists`);
  assert.match(res?.headers()['content-security-policy'] ?? '', /default-src 'none'.*frame-ancestors 'none'/);
  await page.getByRole('heading', { level: 1 }).waitFor();
  // The inline style is allowed by its hash: the body is the page's narrow column, not the window.
  assert.equal(await page.evaluate('getComputedStyle(document.body).maxWidth'), '736px');
  assert.deepEqual(problems, []);
  await page.close();
});
