// What real data does to the screens: a statement with a long unbroken token, a whole document in the
// Records list, a correction with its reason, a narrow window, and the server going away mid-session.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkScreen, browserPerFile, openUi, startApp } from './harness.ts';

const context = browserPerFile();

test('long tokens wrap, long documents fold, corrections read as words and link, a lost server is said', async () => {
  const app = await startApp('local');
  try {
    await app.api.createBrain({ id: 'me', name: 'Me', self: { type: 'person', name: 'Ana' } });
    const token = 'x'.repeat(300);
    const said = await app.api.rememberRecord('me', {
      content: { kind: 'message', speaker: 'Ana', text: `My recovery code is ${token}.` },
    });
    const note = Array.from({ length: 120 }, (_, i) => `Paragraph ${i} of the garden plan.`).join(' ');
    await app.api.rememberRecord('me', { content: { kind: 'document', title: 'Garden', text: note } });
    const deadline = Date.now() + 10_000;
    let memoryId: string | undefined;
    while (!memoryId && Date.now() < deadline) {
      memoryId = (await app.api.getRecord('me', said.record.id)).memory_ids[0];
      if (!memoryId) await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(memoryId);
    await app.api.rememberRecord('me', {
      content: { kind: 'correction', corrects: memoryId, reason: 'I rotated it' },
    });

    const { page, problems } = await openUi(context(), app);
    await page.goto(new URL('/brains/me/memories', app.uiUrl).href);
    await page.getByRole('heading', { level: 1, name: 'Memories' }).waitFor();
    await page.locator('table[aria-label="Memories"] a').first().waitFor();
    const widths = await page.evaluate<number[]>('[document.documentElement.scrollWidth, window.innerWidth]');
    assert.ok(widths[0]! <= widths[1]!, `the page is ${widths[0]} px wide in a ${widths[1]} px window`);

    // The withdrawn version never held: it says what happened rather than "Jan 10 – Jan 10".
    await page.goto(new URL(`/brains/me/memories/${memoryId}`, app.uiUrl).href);
    await page.getByText('Withdrawn from its start').first().waitFor();
    const memoryWidth = await page.evaluate<number>('document.documentElement.scrollWidth');
    assert.ok(memoryWidth <= widths[1]!, `the Memory page is ${memoryWidth} px wide`);

    await page.goto(new URL('/brains/me/records', app.uiUrl).href);
    const records = page.getByRole('list', { name: 'Records' });
    await records.getByText('— why: I rotated it').waitFor();
    const showAll = records.getByRole('button', { name: /^Show all \(/ });
    assert.equal(await showAll.count(), 1, 'only the long document folds');
    assert.equal(await records.getByText('Paragraph 119 of the garden plan.').count(), 0);
    await showAll.click();
    await records.getByText(/Paragraph 119 of the garden plan\./).waitFor();
    await checkScreen(page, 'records-real-data');
    // Filters are in the address: reload keeps them, and the form shows them.
    const filters = page.getByRole('form', { name: 'Filter Records' });
    await filters.getByLabel('Kind').selectOption('document');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/\/records\?kind=document$/);
    assert.equal(
      await page.evaluate<string>('document.activeElement?.textContent ?? ""'),
      'Apply filters',
      'focus stays on the button that applied them',
    );
    await page.reload();
    await records.getByText(/^Garden — Paragraph 0/).waitFor();
    assert.equal(await records.getByRole('listitem').count(), 1);
    assert.equal(await filters.getByLabel('Kind').inputValue(), 'document');
    await page.goBack();
    await records.getByText('— why: I rotated it').waitFor();
    // A Record's Memory is one click away.
    await records
      .getByRole('listitem')
      .filter({ hasText: 'recovery code' })
      .getByRole('link', { name: '1 Memory' })
      .click();
    await page.getByRole('heading', { level: 1, name: /recovery code/ }).waitFor();

    // At 800 px the Brain's pages are one row of tabs: the page's heading is near the top.
    await page.setViewportSize({ width: 800, height: 900 });
    const top = await page.locator('main h1').evaluate((h) => h.getBoundingClientRect().top);
    assert.ok(top < 250, `the heading starts ${top} px down`);
    await page.setViewportSize({ width: 1280, height: 900 });

    await page.goto(new URL('/brains/me/memories', app.uiUrl).href);
    await page.locator('table[aria-label="Memories"] a').first().waitFor();
    assert.equal(await page.title(), 'Memories · me — Mnemo');
    // A Memory learned while the list is open shows up (the list looks again when the Brain changes).
    await app.api.rememberRecord('me', {
      content: { kind: 'message', speaker: 'Ana', text: 'I adopted a cat.' },
    });
    await page.getByRole('link', { name: 'I adopted a cat.' }).waitFor({ timeout: 15_000 });
    // A search is in the address: Back from a result comes back to it, box filled, list filtered.
    await page.getByRole('searchbox', { name: 'Search' }).fill('cat');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForURL(/\/memories\?q=cat$/);
    assert.equal(await page.evaluate<string>('document.activeElement?.textContent ?? ""'), 'Search');
    await page.getByRole('link', { name: 'I adopted a cat.' }).click();
    await page.getByRole('heading', { level: 1, name: 'I adopted a cat.' }).waitFor();
    await page.goBack();
    await page.getByRole('link', { name: 'I adopted a cat.' }).waitFor();
    assert.equal(await page.getByRole('searchbox', { name: 'Search' }).inputValue(), 'cat');
    assert.equal(await page.locator('table[aria-label="Memories"] tbody tr').count(), 1);
    await app.server.close();
    // The list polls; once a read fails for want of a server, the page says so and keeps the rows.
    await page
      .locator('.banner[role="alert"]')
      .filter({ hasText: 'Mnemo cannot be reached' })
      .waitFor({ timeout: 15_000 });
    assert.ok((await page.locator('table[aria-label="Memories"] a').count()) > 0);
    assert.deepEqual(
      problems.filter((p) => !/Failed to fetch|ERR_CONNECTION_REFUSED/.test(p)),
      [],
    );
  } finally {
    await app.close();
  }
});
