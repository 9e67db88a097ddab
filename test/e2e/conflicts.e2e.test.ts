// A real conflict with the local engine: two sources state different values for one slot at the same
// time, the Conflicts screen shows both with their evidence, and keeping one resolves it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Memory } from '../../engine/contract/index.ts';
import { checkScreen, browserPerFile, openUi, pageUntil, startApp, type RunningApp } from './harness.ts';

const context = browserPerFile();

async function activeHomeCities(app: RunningApp): Promise<Memory[]> {
  const page = await app.api.listMemories('me', { status: 'active', limit: 200 });
  return page.data.filter((m) => m.predicate === 'home_city');
}

test('two sources disagree at the same time: the Conflicts screen shows both with evidence; keeping one resolves it', async () => {
  const app = await startApp('local');
  try {
    await app.api.createBrain({ id: 'me', name: 'Me', self: { type: 'person', name: 'Ana' } });
    const at = '2024-01-01T00:00:00Z';
    for (const [value, source] of [
      ['Porto', 'phone'],
      ['Lisbon', 'laptop'],
    ] as const) {
      await app.api.rememberRecord('me', {
        content: { kind: 'fact', subject: 'user', predicate: 'home_city', value },
        source: { name: source },
        occurred_at: at,
      });
    }
    const deadline = Date.now() + 10_000;
    let contested = await activeHomeCities(app);
    while (contested.length < 2 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      contested = await activeHomeCities(app);
    }
    assert.equal(contested.length, 2, 'the engine keeps both values active: a conflict');
    const porto = contested.find((m) => m.statement.includes('Porto'))!;
    const lisbon = contested.find((m) => m.statement.includes('Lisbon'))!;
    // A fact about the Brain's own person ("user home city: Porto") reads as theirs, by their name.
    const [portoSaid, lisbonSaid] = ["Ana's home city is Porto", "Ana's home city is Lisbon"];
    assert.deepEqual(
      [porto.statement, lisbon.statement],
      ['user home city: Porto', 'user home city: Lisbon'],
    );

    const { page, problems } = await openUi(context(), app);
    await page.getByRole('link', { name: 'Me' }).click();
    const nav = page.getByRole('navigation', { name: 'Brain me' });
    // The tab says how many conflicts are open, in its name too, from whichever page of the Brain.
    const tab = (name: string) => nav.getByRole('link', { name, exact: true });
    await tab('Conflicts, 1 open').waitFor();
    assert.equal(await tab('Conflicts, 1 open').innerText(), 'Conflicts 1');
    await tab('Conflicts, 1 open').click();
    await page.getByRole('heading', { level: 1, name: 'Conflicts' }).waitFor();
    const slot = page.getByRole('listitem').filter({
      has: page.getByRole('heading', { level: 2, name: 'You · home city', exact: true }),
    });
    await slot.getByRole('link', { name: portoSaid }).waitFor();
    await slot.getByRole('link', { name: lisbonSaid }).waitFor();
    // Each value with its evidence: the source it came from and when. A fact's quote is its line, the
    // value's own words right above it: not shown again (ui-sentence-lines.e2e.test.ts).
    await slot.getByText('from phone').waitFor();
    await slot.getByText('from laptop').waitFor();
    assert.equal(await slot.locator('.quote mark').count(), 0);
    assert.equal(await slot.locator('.quote').getByText('from a fact').count(), 2);
    await checkScreen(page, 'conflicts');

    // Keeping asks first and names what it withdraws; Cancel changes nothing and gives focus back.
    const keepLisbon = slot.getByRole('button', { name: /^Keep this one.*Lisbon$/ });
    await keepLisbon.click();
    const dialog = page.getByRole('dialog', { name: `Keep “${lisbonSaid}”?` });
    await dialog.getByText(portoSaid).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    // Focus comes back on the next turn of the event loop (the dialog is unmounted first): wait for it.
    await pageUntil(page, '/^Keep this one.*Lisbon/.test(document.activeElement?.textContent ?? "")', 2_000);
    assert.equal((await activeHomeCities(app)).length, 2, 'Cancel withdrew nothing');
    await keepLisbon.click();
    await dialog.getByRole('button', { name: 'Keep it, withdraw the other' }).click();
    await page.getByText('No conflicts').waitFor();
    // It says what was checked, no more: two values for one thing, not every way statements can clash.
    const none = await page.locator('.status.empty').innerText();
    assert.match(none, /No two current Memories give different values for the same thing/);
    assert.match(none, /contradict each other in other ways are not looked for/);
    assert.doesNotMatch(none, /agrees with the others/);
    // What happened is said, with links to both values, where the card was.
    const done = page.getByRole('status').filter({ hasText: 'Kept' });
    await done.getByRole('link', { name: `“${lisbonSaid}”` }).waitFor();
    await done.getByRole('link', { name: `“${portoSaid}”` }).waitFor();
    // Focus falls to the heading, not to <body>, when the opener is gone.
    await pageUntil(page, "document.activeElement?.tagName === 'H1'", 2_000);
    await tab('Conflicts').waitFor();

    const current = await activeHomeCities(app);
    assert.deepEqual(
      current.map((m) => m.id),
      [lisbon.id],
      'the chosen value is the one current value',
    );
    assert.equal((await app.api.getMemory('me', porto.id)).status, 'retracted');
    // The withdrawal says why in the person's words, not the stored line's "user home city".
    const withdrawals = (await app.api.listRecords('me', { kind: 'correction' })).data;
    assert.deepEqual(
      withdrawals.map((r) => (r.content.kind === 'correction' ? r.content.reason : null)),
      [`Resolved in Conflicts: kept “${lisbonSaid}”`],
    );
    await nav.getByRole('link', { name: 'Memories' }).click();
    await page.getByRole('link', { name: lisbonSaid }).waitFor();
    // The list the Brain opened on, with both values, is shown from the cache while it is read again:
    // the withdrawn value must leave it then.
    await page.getByRole('link', { name: portoSaid }).waitFor({ state: 'detached', timeout: 5_000 });
    // A new disagreement an agent writes is counted on the tab while the person is elsewhere.
    for (const [value, source] of [
      ['Acme', 'phone'],
      ['Globex', 'laptop'],
    ] as const) {
      await app.api.rememberRecord('me', {
        content: { kind: 'fact', subject: 'user', predicate: 'employer', value },
        source: { name: source },
        occurred_at: at,
      });
    }
    await tab('Conflicts, 1 open').waitFor({ timeout: 15_000 });
    assert.deepEqual(problems, []);
  } finally {
    await app.close();
  }
});
