// A Brain used for a year: lists many pages deep, Records still being derived, Memories cited by
// hundreds of Records. What the UI reads and draws must grow with what is on screen, not with the
// Brain: counted here in requests and rows, not timed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRuleDeriver } from '../../engine/core/derive/rule-deriver.ts';
import type { Deriver } from '../../engine/core/derive/deriver.ts';
import {
  browserPerFile,
  navigateInPlace,
  openUi,
  rememberTraits,
  startApp,
  type RunningApp,
} from './harness.ts';

const context = browserPerFile();

async function processingCount(app: RunningApp, brainId: string): Promise<number> {
  return (await app.api.getCensus(brainId)).counts.records_processing;
}

test('a Records list three pages deep reads again only the page holding a Record still processing', async () => {
  const rules = createRuleDeriver();
  let holding = true;
  // A Record whose derivation fails while the test holds it stays processing, tried again every 100 ms.
  const deriver: Deriver = {
    ...rules,
    derive(record, ctx) {
      if (holding && record.text.includes('HOLD')) throw new Error('held by the test');
      return rules.derive(record, ctx);
    },
  };
  const app = await startApp('local', { deriver, deriveRetryDelaysMs: Array<number>(600).fill(100) });
  try {
    await app.api.createBrain({ id: 'big', name: 'Big' });
    // The oldest Record is held; 110 newer ones put it on the third page (50 a page).
    await app.api.rememberRecord('big', {
      content: { kind: 'message', speaker: 'Ana', text: 'HOLD: I moved to Porto.' },
    });
    for (let i = 0; i < 110; i++)
      await app.api.rememberRecord('big', {
        content: { kind: 'message', speaker: 'Tom', text: `Message ${i}: the garden needs water.` },
      });
    const deadline = Date.now() + 60_000;
    while ((await processingCount(app, 'big')) > 1) {
      assert.ok(Date.now() < deadline, 'the newer Records are derived');
      await new Promise((r) => setTimeout(r, 100));
    }

    const { page, problems } = await openUi(context(), app);
    // Each read of the list, named by its cursor ('first' for the first page).
    const reads: string[] = [];
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (u.pathname === '/v1/brains/big/records') reads.push(u.searchParams.get('cursor') ?? 'first');
    });
    await navigateInPlace(page, '/brains/big/records');
    const rows = page.getByRole('list', { name: 'Records' }).getByRole('listitem');
    await rows.first().waitFor();
    for (const shown of [100, 111]) {
      await page.getByRole('button', { name: 'Show older Records' }).click();
      await rows.nth(shown - 1).waitFor();
    }
    const [second, third] = [...new Set(reads.filter((c) => c !== 'first'))];
    assert.ok(second && third, `two pages read by cursor: ${reads.join(', ')}`);
    const held = rows.filter({ hasText: 'HOLD' });
    await held.getByText('Processing', { exact: true }).waitFor();

    reads.length = 0;
    await page.waitForTimeout(3500);
    // Before, every loaded page was read again each second while any row was processing.
    assert.equal(reads.filter((c) => c === second).length, 0, `pages read: ${reads.join(', ')}`);
    assert.ok(reads.filter((c) => c === third).length >= 2, `the held Record's page: ${reads.join(', ')}`);

    holding = false;
    await held.getByText('Ready', { exact: true }).waitFor({ timeout: 15_000 });
    assert.equal(await rows.count(), 111, 'no row lost or doubled');
    // Nothing processing: no page below the first is read again.
    reads.length = 0;
    await page.waitForTimeout(2500);
    assert.deepEqual(
      reads.filter((c) => c !== 'first'),
      [],
    );
    assert.deepEqual(problems, []);
  } finally {
    await app.close();
  }
});

test('a Memory 60 Records repeat draws its first 20 sources, on its page and in Conflicts, and all on request', async () => {
  const app = await startApp('local');
  try {
    await app.api.createBrain({ id: 'me', name: 'Me', self: { type: 'person', name: 'Ana' } });
    const at = '2024-01-01T00:00:00Z';
    // One value from 60 devices at one instant, another from one more: a conflict whose first value
    // cites 60 Records.
    for (let i = 0; i < 60; i++)
      await app.api.rememberRecord('me', {
        content: { kind: 'fact', subject: 'user', predicate: 'home_city', value: 'Porto' },
        source: { name: `device ${i}` },
        occurred_at: at,
      });
    await app.api.rememberRecord('me', {
      content: { kind: 'fact', subject: 'user', predicate: 'home_city', value: 'Lisbon' },
      source: { name: 'laptop' },
      occurred_at: at,
    });
    const deadline = Date.now() + 60_000;
    while ((await processingCount(app, 'me')) > 0) {
      assert.ok(Date.now() < deadline, 'the Records are derived');
      await new Promise((r) => setTimeout(r, 100));
    }
    const porto = (await app.api.listMemories('me', { contested: 'true' })).data.find((m) =>
      m.statement.includes('Porto'),
    );
    assert.equal(porto?.citations.length, 60);

    const { page, problems } = await openUi(context(), app);
    await navigateInPlace(page, `/brains/me/memories/${porto.id}`);
    const section = page.getByRole('region', { name: 'Where this comes from' });
    const sources = section.locator('li.evidence');
    await sources.first().waitFor();
    // Before, all 60 were drawn (seven DOM nodes each; 2,200 for a Memory cited 300 times).
    assert.equal(await sources.count(), 20);
    await section.getByRole('button', { name: 'Show all 60 sources' }).click();
    assert.equal(await sources.count(), 60);
    await section.getByRole('button', { name: 'Show the first 20 only' }).click();
    assert.equal(await sources.count(), 20);

    await navigateInPlace(page, '/brains/me/conflicts');
    const card = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: 'You · home city' }) });
    await card.getByText('from laptop').waitFor();
    assert.equal(await card.getByText(/^from device \d+$/).count(), 20);
    await card.getByRole('button', { name: 'Show all 60 sources' }).click();
    assert.equal(await card.getByText(/^from device \d+$/).count(), 60);
    assert.deepEqual(problems, []);
  } finally {
    await app.close();
  }
});

test('a Profile three pages deep follows writes and forgets without reading its pages again, in the server’s order', async () => {
  const app = await startApp('local');
  try {
    await app.api.createBrain({ id: 'ana', name: 'Ana', self: { type: 'person', name: 'Ana' } });
    const hour = (i: number) => new Date(Date.UTC(2024, 0, 1) + i * 3_600_000).toISOString();
    // 350 values of the self's, one an hour: the Profile lists them newest first, 100 a page.
    const written = await rememberTraits(app, 'ana', 350, 25);
    const deadline = Date.now() + 90_000;
    while ((await processingCount(app, 'ana')) > 0) {
      assert.ok(Date.now() < deadline, 'the Records are derived');
      await new Promise((r) => setTimeout(r, 100));
    }

    const { page, problems } = await openUi(context(), app);
    await navigateInPlace(page, '/brains/ana/profile');
    const lines = page.locator('section[aria-labelledby="profile"] li.list-item');
    await lines.first().waitFor();
    for (const shown of [200, 300]) {
      await page.getByRole('button', { name: 'Show more' }).click();
      await lines.nth(shown - 1).waitFor();
    }
    const reads: string[] = [];
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (u.pathname === '/v1/brains/ana/profile' && u.searchParams.get('limit') !== '1')
        reads.push(u.searchParams.get('cursor') ?? 'first');
      if (u.pathname === '/v1/brains/ana/census') reads.push('census');
    });
    const shownIds = () =>
      lines
        .locator('p.record-line a')
        .evaluateAll((as) => as.map((a) => (a.getAttribute('href') ?? '').split('/').at(-1)));
    /** The server's Profile, as many lines as are shown. */
    const serverIds = async (n: number) => {
      const ids: string[] = [];
      let cursor: string | undefined;
      while (ids.length < n) {
        const p = await app.api.getProfile('ana', { limit: 200, ...(cursor ? { cursor } : {}) });
        ids.push(...p.lines.map((l) => l.memory_id));
        if (!p.next_cursor) break;
        cursor = p.next_cursor;
      }
      return ids.slice(0, n);
    };

    // A value newer than every line: on top, with no page read again.
    await app.api.rememberRecord('ana', {
      content: { kind: 'fact', subject: 'user', predicate: 'favourite_colour', value: 'teal' },
      occurred_at: '2025-06-01T00:00:00Z',
    });
    await lines.first().getByText('teal').waitFor({ timeout: 15_000 });
    assert.equal(await lines.count(), 301);
    assert.deepEqual(
      reads.filter((r) => r !== 'census'),
      [],
      'before, every loaded page was read again',
    );

    // A Record forgotten: its line goes, still with no page read again.
    const forgotten = written[300]!;
    await app.api.forgetRecord('ana', forgotten);
    await lines.filter({ hasText: 'value 300' }).waitFor({ state: 'detached', timeout: 15_000 });
    assert.equal(await lines.count(), 300);
    assert.deepEqual(
      reads.filter((r) => r !== 'census'),
      [],
    );

    // A value dated as a loaded line, on the second page: lines of one date are in write order, which a
    // line does not carry, so the Profile is read from the top as far as that line.
    await app.api.rememberRecord('ana', {
      content: { kind: 'fact', subject: 'user', predicate: 'middle_name', value: 'Rosa' },
      occurred_at: hour(180),
    });
    await lines.filter({ hasText: 'Rosa' }).waitFor({ timeout: 15_000 });
    assert.equal(await lines.count(), 301);
    assert.deepEqual(
      await shownIds(),
      await serverIds(301),
      'the lines shown are the server’s, in its order',
    );
    assert.ok(
      reads.filter((r) => r !== 'census').length <= 2,
      `read as far as the new line: ${reads.join(', ')}`,
    );

    // Show more goes on from where the Profile was: the rest once each.
    await page.getByRole('button', { name: 'Show more' }).click();
    await lines.nth(350).waitFor();
    await page.getByText('That is the whole list.').waitFor();
    assert.deepEqual(await shownIds(), await serverIds(1000));

    // Conflicts shares the census the Profile read, as of the same watermark.
    reads.length = 0;
    await navigateInPlace(page, '/brains/ana/conflicts');
    await page.getByText('No conflicts', { exact: true }).waitFor();
    await navigateInPlace(page, '/brains/ana/profile');
    await lines.nth(350).waitFor();
    assert.deepEqual(reads, [], 'no census or Profile page read again');
    assert.deepEqual(problems, []);
  } finally {
    await app.close();
  }
});
