// The UI keeps up with a Brain by its changes, not by reading again what it has loaded: writes made in
// the app itself (a note, a correction, a forget) and values that begin with the clock, which move no
// watermark. Counted in requests, against the server's own lists.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import {
  browserPerFile,
  derivationSettled,
  navigateInPlace,
  openUi,
  rememberTraits,
  pageUntil,
  startApp,
} from './harness.ts';

const context = browserPerFile();

/** Every read of a Memories list or Profile page the page makes, but the watermark poll and deltas. */
function pageReads(page: Page, brainId: string): string[] {
  const reads: string[] = [];
  page.on('request', (r) => {
    const u = new URL(r.url());
    const p = u.searchParams;
    if (u.pathname === `/v1/brains/${brainId}/profile` && p.get('limit') !== '1')
      reads.push(`profile ${p.get('cursor') ?? 'first'}`);
    if (u.pathname === `/v1/brains/${brainId}/memories` && !p.has('since_watermark') && !p.has('slot'))
      reads.push(`memories ${u.search}`);
  });
  return reads;
}

test('a note, a correction and a forget made in the app update a Memories list three pages deep without reading its pages again', async () => {
  const app = await startApp('local');
  try {
    await app.api.createBrain({ id: 'ana', name: 'Ana', self: { type: 'person', name: 'Ana' } });
    await rememberTraits(app, 'ana', 160, 40);
    await derivationSettled(app, 'ana');

    const { page, problems } = await openUi(context(), app);
    await navigateInPlace(page, '/brains/ana/memories?order=desc');
    const rows = page.locator('main table tbody tr');
    await rows.first().waitFor();
    for (const shown of [100, 150]) {
      await page.getByRole('button', { name: 'Show more' }).click();
      await rows.nth(shown - 1).waitFor();
    }
    const reads = pageReads(page, 'ana');
    /** The first rows shown, against the server's newest-first list. */
    const sameAsServer = async () => {
      const shown = await rows
        .locator('td:first-child a')
        .evaluateAll((as) => as.slice(0, 20).map((a) => (a.getAttribute('href') ?? '').split('/').at(-1)));
      const server = (await app.api.listMemories('ana', { order: 'desc', limit: 20 })).data.map((m) => m.id);
      assert.deepEqual(shown, server, 'the rows shown are the server’s, in its order');
    };

    // A note in the person's own words: its Memory comes on top of the list left three pages deep.
    await navigateInPlace(page, '/brains/ana/records');
    await page.getByLabel('What should this Brain remember?').fill('I live in Porto.');
    await page.getByRole('button', { name: 'Remember this' }).click();
    await page.getByText('Note saved').waitFor();
    const note = page.getByRole('list', { name: 'Records' }).getByRole('listitem').first();
    await note.getByText('Ready', { exact: true }).waitFor({ timeout: 20_000 });
    // Past the app's default staleTime (2 s) since the list last changed: a list not kept fresh by the
    // Brain's changes would read every loaded page again on coming back to it.
    await page.waitForTimeout(2500);
    await navigateInPlace(page, '/brains/ana/memories?order=desc');
    await rows.first().getByText(/Porto/).waitFor({ timeout: 15_000 });
    assert.deepEqual(reads, [], 'before, every loaded page was read again');
    assert.equal(await rows.count(), 151);
    await sameAsServer();

    // A correction on the Memory's page: the page says it is saved and shows the replacement.
    await rows.first().getByRole('link').click();
    await page.getByLabel('What is actually true').fill('Ana lives in Faro');
    await page.getByRole('button', { name: 'Save correction' }).click();
    await page.getByRole('status').getByRole('link', { name: /Faro/ }).click();
    const faro = page.getByRole('heading', { level: 1, name: /Faro/ });
    await faro.waitFor();
    const faroPage = page.url();
    await navigateInPlace(page, '/brains/ana/memories?order=desc');
    await rows.first().getByText(/Faro/).waitFor({ timeout: 15_000 });
    assert.equal(await rows.filter({ hasText: 'Porto' }).count(), 0, 'the replaced value is not current');
    await sameAsServer();
    // A Memory's page opened again: nothing about it changed, so it is not read again.
    const detailReads: string[] = [];
    page.on('request', (r) => {
      if (/\/memories\/mem_/.test(new URL(r.url()).pathname)) detailReads.push(r.url());
    });
    await navigateInPlace(page, new URL(faroPage).pathname);
    await faro.waitFor();
    await page.waitForTimeout(2500);
    assert.deepEqual(detailReads, [], 'before, each opening read the Memory again');

    // The note forgotten on Records.
    await navigateInPlace(page, '/brains/ana/records');
    const porto = page
      .getByRole('list', { name: 'Records' })
      .getByRole('listitem')
      .filter({ hasText: 'I live in Porto.' });
    await porto.getByRole('button', { name: /^Forget “/ }).click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /^Forget/ })
      .last()
      .click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Forgot the Record/ })
      .waitFor();
    await navigateInPlace(page, '/brains/ana/memories?order=desc');
    await rows.nth(149).waitFor();
    await sameAsServer();
    assert.deepEqual(reads, [], 'no Memories page read again after a correction or a forget');
    assert.deepEqual(problems, []);
  } finally {
    await app.close();
  }
});

test('a value dated a few seconds later shows on the open Profile when it begins, with no Profile page read again', async () => {
  const app = await startApp('local');
  try {
    await app.api.createBrain({ id: 'ana', name: 'Ana', self: { type: 'person', name: 'Ana' } });
    await app.api.rememberRecord('ana', {
      content: { kind: 'fact', subject: 'user', predicate: 'home_city', value: 'Lisbon' },
      occurred_at: '2024-01-01T00:00:00Z',
    });
    await derivationSettled(app, 'ana');
    const { page, problems } = await openUi(context(), app);
    await navigateInPlace(page, '/brains/ana/profile');
    const lines = page.locator('section[aria-labelledby="profile"] li.list-item');
    await lines.filter({ hasText: 'Lisbon' }).waitFor();
    const reads = pageReads(page, 'ana');

    // Written by an agent while the Profile is open, to begin 8 s from now: no write moves the
    // watermark when it does.
    const starts = Date.now() + 8000;
    await app.api.rememberRecord('ana', {
      content: { kind: 'fact', subject: 'user', predicate: 'home_city', value: 'Porto' },
      occurred_at: new Date(starts).toISOString(),
    });
    await derivationSettled(app, 'ana');
    await page.waitForTimeout(2500);
    assert.equal(await lines.filter({ hasText: 'Porto' }).count(), 0, 'not current before it begins');
    await lines.filter({ hasText: 'Porto' }).waitFor({ timeout: 20_000 });
    assert.ok(Date.now() >= starts, 'shown once it began');
    await lines.filter({ hasText: 'Lisbon' }).waitFor({ state: 'detached' });
    assert.deepEqual(
      await lines.locator('p.record-line a').evaluateAll((as) => as.map((a) => a.getAttribute('href'))),
      (await app.api.getProfile('ana')).lines.map((l) => `/brains/ana/memories/${l.memory_id}`),
      'the lines shown are the server’s',
    );
    assert.deepEqual(
      reads.filter((r) => r.startsWith('profile')),
      [],
      'no Profile page read again',
    );
    assert.deepEqual(problems, []);
  } finally {
    await app.close();
  }
});

test('a Memories list read to its end draws only the rows near the window, every one reachable by scrolling', async () => {
  const app = await startApp('local');
  try {
    await app.api.createBrain({ id: 'many', name: 'Many', self: { type: 'person', name: 'Ana' } });
    await rememberTraits(app, 'many', 400, 50);
    await derivationSettled(app, 'many');
    const all: string[] = [];
    let cursor: string | undefined;
    do {
      // In the list's order: newest first.
      const p = await app.api.listMemories('many', {
        order: 'desc',
        limit: 200,
        ...(cursor ? { cursor } : {}),
      });
      all.push(...p.data.map((m) => m.id));
      cursor = p.next_cursor ?? undefined;
    } while (cursor);
    assert.equal(all.length, 400);

    const { page, problems } = await openUi(context(), app);
    await navigateInPlace(page, '/brains/many/memories');
    const table = page.getByRole('table', { name: 'Memories' });
    const drawn = table.locator('tbody tr:not([data-spacer])');
    await drawn.first().waitFor();
    // A double click asks for the next page once: the second waits for the page on its way.
    const reads = pageReads(page, 'many');
    const first = await table.getAttribute('aria-rowcount');
    await page.getByRole('button', { name: 'Show more' }).dblclick();
    // What is held is how many reads, not how fast: a loaded CI machine took over 5 s for the page.
    await pageUntil(page, `Number(${rowCount('Memories')}) > ${first}`, 15_000);
    assert.equal(reads.length, 1, reads.join(', '));
    await readToEnd(page, 'Show more', rowCount('Memories'));
    assert.equal(await table.getAttribute('aria-rowcount'), '401');
    const count = await drawn.count();
    // Drawn whole, all 400 would be (about nine DOM nodes each).
    assert.ok(count < 150, `${count} rows drawn`);

    const link = (id: string) => table.locator(`a[href$="/${id}"]`);
    await page.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');
    await link(all[399]!).waitFor();
    assert.equal(await link(all[399]!).locator('xpath=ancestor::tr').getAttribute('aria-rowindex'), '401');
    await page.evaluate('window.scrollTo(0, document.documentElement.scrollHeight / 2)');
    await link(all[200]!).waitFor();
    await page.evaluate('window.scrollTo(0, 0)');
    await link(all[0]!).waitFor();
    assert.ok((await drawn.count()) < 150);
    assert.deepEqual(problems, []);
  } finally {
    await app.close();
  }
});

/** Page expressions: an attribute of the first, or the last, element drawn that `selector` finds. */
const firstDrawn = (selector: string, attr: string) =>
  `document.querySelector(${JSON.stringify(selector)})?.getAttribute('${attr}')`;
const lastDrawn = (selector: string, attr: string) =>
  `[...document.querySelectorAll(${JSON.stringify(selector)})].at(-1)?.getAttribute('${attr}')`;

/** A page expression: the items `selector` finds are one run from the list's first. */
const drawnFromTop = (selector: string) =>
  `(() => { const l = [...document.querySelectorAll(${JSON.stringify(selector)})];
    return l.length > 0 && l.every((li, i) => li.getAttribute('aria-posinset') === String(i + 1)); })()`;

/**
 * Clicks `more` until the whole list is in: the button goes when the last page comes. `size` is a page
 * expression for how many items the list has read; each click waits for it to grow, since the button
 * keeps its label for a moment after a click and a second click would land on one about to go.
 */
async function readToEnd(page: Page, more: string, size: string): Promise<void> {
  const end = page.getByText('That is the whole list.');
  for (;;) {
    await page.getByRole('button', { name: more }).or(end).waitFor();
    if (await end.isVisible()) return;
    const before = await page.evaluate<number>(`Number(${size})`);
    await page.getByRole('button', { name: more }).click();
    await pageUntil(page, `Number(${size}) > ${before}`, 10_000);
  }
}

/** A page expression: the rows a table says it has (`aria-rowcount`, its header row included). */
const rowCount = (label: string) =>
  `document.querySelector('table[aria-label="${label}"]')?.getAttribute('aria-rowcount')`;

/** Where focus is in a windowed list: its item's aria-posinset, or null when focus is not in an item. */
const focusedItem = (page: Page): Promise<number | null> =>
  page.evaluate<number | null>(`(() => {
    const item = document.activeElement?.closest('li[aria-posinset]');
    return item ? Number(item.getAttribute('aria-posinset')) : null;
  })()`);

test('Records and Traces read to their end draw only the items near the window, each reachable by scrolling and by Tab', async () => {
  const app = await startApp('local');
  try {
    // Past the 300 rows from which a list is windowed: seven pages of Records, seven of Traces.
    const n = 350;
    await app.api.createBrain({ id: 'many', name: 'Many' });
    for (let i = 0; i < n; i += 50)
      await Promise.all(
        Array.from({ length: 50 }, (_, j) =>
          app.api.rememberRecord('many', { content: { kind: 'document', text: `Note ${i + j}.` } }),
        ),
      );
    await derivationSettled(app, 'many');
    await app.api.createBrain({ id: 'asked', name: 'Asked' });
    await app.api.rememberRecord('asked', { content: 'The boiler was serviced in March.' });
    for (let i = 0; i < n; i += 50)
      await Promise.all(
        Array.from({ length: 50 }, (_, j) =>
          app.api.createContext('asked', { query: `boiler question ${i + j}` }),
        ),
      );

    const { page, problems } = await openUi(context(), app);
    await navigateInPlace(page, '/brains/many/records');
    const list = page.getByRole('list', { name: 'Records' });
    const drawn = list.locator('li:not([data-spacer])');
    await drawn.first().waitFor();
    await readToEnd(
      page,
      'Show older Records',
      `document.querySelector('ul[aria-label="Records"] > li[aria-setsize]')?.getAttribute('aria-setsize')`,
    );
    const count = await drawn.count();
    // Drawn whole, all 350 would be (about thirteen DOM nodes each).
    assert.ok(count < 150, `${count} Records drawn`);
    assert.equal(await drawn.first().getAttribute('aria-setsize'), String(n));

    // Scrolled to the end and back, the last and first items are drawn, at their places in the list.
    const items = 'ul[aria-label="Records"] > li:not([data-spacer])';
    await page.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');
    await pageUntil(page, `${lastDrawn(items, 'aria-posinset')} === '${n}'`);
    await page.evaluate('window.scrollTo(0, 0)');
    await pageUntil(page, `${firstDrawn(items, 'aria-posinset')} === '1'`);
    assert.ok((await drawn.count()) < 150);

    // The rows not drawn are stood in for by their height, margins between cards included: the page is
    // as long as the whole list (without the margins it would be 8% short).
    const [height, pitch] = await page.evaluate<[number, number]>(`(() => {
      const drawn = [...document.querySelectorAll(${JSON.stringify(items)})].map((li) => li.getBoundingClientRect());
      const ul = document.querySelector('ul[aria-label="Records"]').getBoundingClientRect();
      return [ul.height, (drawn.at(-1).top - drawn[0].top) / (drawn.length - 1)];
    })()`);
    assert.ok(
      Math.abs(height - n * pitch) < 0.02 * n * pitch,
      `${height} px for ${n} cards ${pitch} px apart`,
    );

    // Paged far down from a focused item, focus stays on it: its row stays drawn, so focus does not
    // fall to the page.
    await drawn.first().getByRole('link').last().focus();
    for (let k = 0; k < 10; k++) {
      await page.keyboard.press('PageDown');
      await page.waitForTimeout(50);
    }
    await pageUntil(page, `${firstDrawn(items, 'aria-posinset')} === '1' && scrollY > 5000`);
    assert.ok((await drawn.count()) < 150);
    assert.equal(await focusedItem(page), 1);
    await page.evaluate('window.scrollTo(0, 0)');
    await pageUntil(page, `${drawnFromTop(items)}`);

    // Tab from the last item drawn goes on through the items below it, never out of the list.
    const last = Number(await drawn.last().getAttribute('aria-posinset'));
    await drawn.last().getByRole('link').last().focus();
    let at = last;
    while (at < last + 30) {
      await page.keyboard.press('Tab');
      const now = await focusedItem(page);
      assert.ok(now !== null && now >= at && now <= at + 1, `Tab from item ${at} went to ${now}`);
      at = now;
    }

    await navigateInPlace(page, '/brains/asked/traces');
    const table = page.getByRole('table', { name: 'Recent questions' });
    const rows = table.locator('tbody tr:not([data-spacer])');
    await rows.first().waitFor();
    await readToEnd(page, 'Show older questions', rowCount('Recent questions'));
    assert.equal(await table.getAttribute('aria-rowcount'), String(n + 1));
    const traces = await rows.count();
    assert.ok(traces < 150, `${traces} Traces drawn`);
    const tableRows = 'table[aria-label="Recent questions"] tbody tr:not([data-spacer])';
    await page.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');
    await pageUntil(page, `${lastDrawn(tableRows, 'aria-rowindex')} === '${n + 1}'`);
    await page.evaluate('window.scrollTo(0, 0)');
    await pageUntil(page, `${firstDrawn(tableRows, 'aria-rowindex')} === '2'`);
    assert.deepEqual(problems, []);
  } finally {
    await app.close();
  }
});
