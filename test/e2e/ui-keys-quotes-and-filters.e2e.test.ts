// On one local server and one browser: revoking the window's own key, a Memory cited from a long
// document, disagreeing Profile lines, the Records source filter (a source's name, or none), and how a
// Trace reads the Records it names.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { Memory } from '../../engine/contract/index.ts';
import { checkScreen, browserPerFile, openUi, startApp, type RunningApp } from './harness.ts';

const context = browserPerFile();
let app: RunningApp;
const doc = { text: '', memory: null as Memory | null };
let traceId = '';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(read: () => Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** A fresh admin key of the UI's project, as one pasted on the sign-in screen would be. */
async function adminKey(): Promise<string> {
  assert.ok(app.server.registry);
  return (
    await app.server.registry.create({ env: 'live', project: 'local', admin: true, label: 'e2e admin' })
  ).key;
}

/** A page signed in with its own key (the one-time address serves one page only), opened at `path`. */
async function openAt(
  path: string,
  watch: (page: Page) => Promise<void> | void = () => {},
): Promise<{ page: Page; problems: string[] }> {
  const page = await context().newPage();
  await watch(page);
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  const origin = new URL(app.uiUrl).origin;
  const session = JSON.stringify({ baseUrl: `${origin}/v1`, apiKey: await adminKey() });
  await page.addInitScript({
    content: `sessionStorage.setItem('mnemo.session', ${JSON.stringify(session)});`,
  });
  await page.goto(new URL(path, origin).href);
  return { page, problems };
}

async function seedLongDocument() {
  await app.api.createBrain({ id: 'ana', name: 'Ana', self: { type: 'person', name: 'Ana' } });
  const topics = ['budget', 'hiring', 'office', 'garden', 'kitchen', 'travel', 'music', 'library'];
  doc.text = Array.from(
    { length: 600 },
    (_, i) => `Note ${i}: the ${topics[i % 8]} review number ${i} went as planned.`,
  ).join('\n');
  const { record } = await app.api.rememberRecord('ana', {
    content: { kind: 'document', title: 'Review log', text: doc.text },
  });
  const ids = await until(async () => {
    const r = await app.api.getRecord('ana', record.id);
    return r.status === 'ready' ? r.memory_ids : undefined;
  }, 'the long document');
  // A Memory quoting the middle of the document: its page must not print the other 35,000 characters.
  const memories = (await app.api.listMemories('ana', { limit: 200 })).data.filter((m) => ids.includes(m.id));
  doc.memory = memories.find((m) => doc.text.indexOf(m.citations[0]!.quote) > doc.text.length / 3) ?? null;
}

async function seedConflict() {
  for (const [value, source] of [
    ['Porto', 'phone'],
    ['Lisbon', 'laptop'],
  ] as const) {
    await app.api.rememberRecord('ana', {
      content: { kind: 'fact', subject: 'user', predicate: 'home_city', value },
      source: { name: source },
      occurred_at: '2024-01-01T00:00:00Z',
    });
  }
  await until(async () => {
    const page = await app.api.listMemories('ana', { contested: 'true' });
    return page.data.length >= 2 ? true : undefined;
  }, 'the two values to disagree');
}

async function seedTrace() {
  await app.api.createBrain({ id: 'talk', name: 'Talk' });
  const topics = ['garden', 'kitchen', 'travel', 'music', 'library', 'bicycle'];
  const written = await Promise.all(
    Array.from({ length: 60 }, (_, i) =>
      app.api.rememberRecord('talk', {
        content: {
          kind: 'message',
          speaker: 'Bo',
          text: `Message ${i}: we talked about the ${topics[i % 6]} plans and the ${topics[(i + 1) % 6]} ideas.`,
        },
        source: { name: 'chat' },
      }),
    ),
  );
  const last = written.at(-1)!;
  // Until derivation reaches the watermark the answer is 202 processing, retried as a client would.
  const ctx = await until(async () => {
    const { context } = await app.api.createContext(
      'talk',
      { query: 'garden plans and music ideas' },
      last.watermark ? { watermark: last.watermark } : {},
    );
    return context.status === 'ready' ? context : undefined;
  }, 'a ready Context');
  traceId = ctx.id;
  await until(async () => {
    const t = await app.api.getTrace('talk', traceId);
    return t.status === 'ready' ? true : undefined;
  }, 'the trace');
}

before(async () => {
  app = await startApp('local');
  await Promise.all([seedLongDocument().then(seedConflict), seedTrace()]);
});
after(async () => app?.close());

test('revoking the key this window runs on says it signs the window out, then lands on sign-in calmly', async () => {
  const { page, problems } = await openUi(context(), app);
  await page.getByRole('link', { name: 'Keys' }).click();
  const table = page.getByRole('table', { name: 'Keys' });
  await table.waitFor();
  const own = table.getByRole('row').filter({ hasText: 'this window' });
  assert.equal(await own.count(), 1, 'exactly one key is marked as this window’s');
  assert.equal(
    await own.filter({ hasText: 'browser sign-in link' }).count(),
    1,
    'the key the sign-in link minted, not the API key of the same project',
  );
  // Which keys can manage keys is said: the window's can, the API key the tests use cannot.
  assert.match(await own.innerText(), /and manage keys/);
  assert.ok(
    (await table.getByRole('row').filter({ hasNotText: 'manage keys' }).count()) >= 2,
    'the header and a key that cannot manage keys',
  );
  await own.getByRole('button', { name: /^Revoke/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Revoke the key this window uses?' });
  await dialog.waitFor();
  const said = await dialog.innerText();
  assert.match(said, /signs this window out/);
  assert.match(said, /mnemo keys create --project local --env live --admin/);
  await checkScreen(page, 'keys-revoke-own');

  const refused: string[] = [];
  page.on('response', (r) => {
    if (r.status() === 401) refused.push(r.url());
  });
  await dialog.getByRole('button', { name: 'Revoke and sign out' }).click();
  await page.getByRole('heading', { level: 1, name: 'Open Mnemo' }).waitFor();
  await page
    .getByRole('status')
    .filter({ hasText: 'You revoked the key this window was signed in with' })
    .waitFor();
  assert.equal(await page.locator('.status.error').count(), 0, 'an explanation, not an error');
  await sleep(300);
  assert.deepEqual(refused, [], 'no read went out on the revoked key');

  // The way back in works: a new key, pasted (here as a curl line's header gives it).
  await page.getByLabel('API key').fill(`Authorization: Bearer ${await adminKey()}`);
  await page.getByRole('button', { name: 'Open' }).click();
  await page.getByRole('heading', { level: 1, name: 'Brains' }).waitFor();
  assert.deepEqual(problems, []);
  await page.close();
});

test('in the desktop app, a revoked shell key is not taken back from the shell: sign-in says why, and a pasted key lasts', async () => {
  // The desktop shell's bridge as electron/preload.cjs exposes it: the key minted for this run.
  const origin = new URL(app.uiUrl).origin;
  const shellKey = (
    await app.server.registry!.create({
      env: 'live',
      project: 'local',
      admin: true,
      label: 'desktop app',
    })
  ).key;
  const page = await context().newPage();
  await page.addInitScript({
    content: `window.mnemo = {
      getSession: async () => ({ baseUrl: ${JSON.stringify(`${origin}/v1`)}, apiKey: ${JSON.stringify(shellKey)} }),
      getWarnings: async () => [],
      openExternal: async () => false,
    };`,
  });
  await page.goto(`${origin}/keys`);
  const own = page.getByRole('table', { name: 'Keys' }).getByRole('row').filter({ hasText: 'this window' });
  await own.filter({ hasText: 'desktop app' }).waitFor();
  await own.getByRole('button', { name: /^Revoke/ }).click();
  await page.getByRole('button', { name: 'Revoke and sign out' }).click();
  await page
    .getByRole('status')
    .filter({ hasText: 'You revoked the key this window was signed in with' })
    .waitFor();
  assert.equal(await page.locator('.status.error').count(), 0, 'the shell’s dead key was not used again');
  await page.getByLabel('API key').fill(await adminKey());
  await page.getByRole('button', { name: 'Open' }).click();
  await page.getByRole('heading', { level: 1, name: 'Brains' }).waitFor();
  // A reload keeps the pasted key, not the shell's revoked one.
  await page.reload();
  await page.getByRole('heading', { level: 1, name: 'Brains' }).waitFor();
  assert.equal(await page.locator('.status.error').count(), 0);
  await page.close();
});

test('signed in with a key that may not manage keys, Keys says so instead of offering a form that cannot work', async () => {
  const origin = new URL(app.uiUrl).origin;
  const plain = (await app.server.registry!.create({ env: 'live', project: 'local', label: 'agent' })).key;
  const page = await context().newPage();
  await page.goto(`${origin}/`);
  await page.getByLabel('API key').fill(plain);
  await page.getByRole('button', { name: 'Open' }).click();
  await page.getByRole('heading', { level: 1, name: 'Brains' }).waitFor();
  await page.getByRole('link', { name: 'Keys' }).click();
  await page.getByRole('status').filter({ hasText: 'needs the app’s admin key' }).waitFor();
  assert.equal(await page.getByRole('button', { name: 'Create key' }).count(), 0);
  assert.equal(await page.locator('.status.error').count(), 0, 'an explanation, not an error');
  await page.close();
});

test('a sign-in link pasted into a tab open at the sign-in form signs that tab in', async () => {
  // A restarted server prints a new link; the tab the old one opened is still at its sign-in form.
  const fresh = await startApp('local');
  try {
    const page = await context().newPage();
    await page.goto(`${new URL(fresh.uiUrl).origin}/`);
    await page.getByLabel('API key').waitFor();
    await page.evaluate(`location.hash = ${JSON.stringify(new URL(fresh.uiUrl).hash)}`);
    await page.getByRole('heading', { level: 1, name: 'Brains' }).waitFor();
    assert.equal(new URL(page.url()).hash, '', 'the token leaves the address');
    await page.close();
  } finally {
    await fresh.close();
  }
});

test('a Memory from a long document shows its quote in context, and the whole Record on request', async () => {
  assert.ok(doc.memory, 'a Memory quotes the middle of the document');
  const { page, problems } = await openAt(`/brains/ana/memories/${doc.memory.id}`);
  await page.getByRole('heading', { level: 2, name: 'Where this comes from' }).waitFor();
  const evidence = page.locator('.evidence').first();
  const quote = doc.memory.citations[0]!.quote;
  const shown = await evidence.locator('.record-text').innerText();
  assert.ok(
    shown.length < quote.length + 800,
    `${shown.length} characters shown for a ${quote.length}-character quote`,
  );
  assert.equal((await evidence.locator('mark').innerText()).trim(), quote.trim());
  assert.match(shown, /^… /);
  assert.match(shown, / …$/);
  const more = evidence.getByRole('button', { name: /^Show the whole Record \([\d,]+ characters\)$/ });
  await more.click();
  await evidence.getByText('Note 599:', { exact: false }).waitFor();
  assert.equal((await evidence.locator('.record-text').innerText()).length, doc.text.length);
  assert.deepEqual(problems, []);
  await page.close();
});

test('Profile marks the values that disagree and leads to Conflicts', async () => {
  const { page, problems } = await openAt('/brains/ana/profile');
  const profile = page.locator('section[aria-labelledby="profile"]');
  await profile.getByRole('link', { name: /Porto/ }).first().waitFor();
  const lines = profile.getByRole('listitem').filter({ hasText: 'Sources disagree' });
  await lines.first().waitFor();
  assert.equal(await lines.count(), 2, 'both values are marked');
  const porto = lines.filter({ has: page.getByRole('link', { name: /Porto/ }) }).first();
  await porto.getByText('also said:').waitFor();
  assert.ok(
    await porto.getByRole('link', { name: /Lisbon/ }).count(),
    'each names the value it disagrees with',
  );
  await porto.getByRole('link', { name: 'Pick one on Conflicts' }).click();
  await page.getByRole('heading', { level: 1, name: 'Conflicts' }).waitFor();
  assert.deepEqual(problems, []);
  await page.close();
});

test('Records offer the Brain’s own sources to filter by', async () => {
  const { page, problems } = await openAt('/brains/ana/records');
  const records = page.getByRole('list', { name: 'Records' });
  await records.getByRole('listitem').first().waitFor();
  const source = page.getByRole('form', { name: 'Filter Records' }).getByLabel('Source');
  await source.locator('option[value="phone"]').waitFor({ state: 'attached' });
  const choices = await source.locator('option').allTextContents();
  assert.ok(
    choices.some((c) => c.startsWith('laptop')),
    choices.join(' | '),
  );
  await source.selectOption('phone');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.waitForURL(/\/records\?source=phone$/);
  await records.getByText(/Porto/).waitFor();
  assert.equal(await records.getByRole('listitem').count(), 1);
  await page.reload();
  await records.getByText(/Porto/).waitFor();
  assert.equal(await source.inputValue(), 'phone', 'the applied source is shown after a reload');
  assert.deepEqual(problems, []);
  await page.close();
});

test('Records written with no source have a Source choice of their own', async () => {
  const { page, problems } = await openAt('/brains/ana/records');
  const records = page.getByRole('list', { name: 'Records' });
  await records.getByRole('listitem').first().waitFor();
  const source = page.getByRole('form', { name: 'Filter Records' }).getByLabel('Source');
  await source.selectOption({ label: 'None (written through the API)' });
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.waitForURL(/\/records\?has_source=false$/);
  // The long document was written with no source; the phone's and the laptop's homes were not.
  await records
    .getByText(/Review log|Note 0:/)
    .first()
    .waitFor();
  assert.equal(await records.getByRole('listitem').count(), 1);
  assert.equal(await records.getByText(/Porto|Lisbon/).count(), 0);
  await page.reload();
  await records
    .getByText(/Review log|Note 0:/)
    .first()
    .waitFor();
  assert.equal(
    await source.locator('option:checked').textContent(),
    'None (written through the API)',
    'the choice is shown after a reload',
  );
  assert.deepEqual(problems, []);
  await page.close();
});

test('a Trace reads only the Records on screen, those in view together in one request', async () => {
  const trace = await app.api.getTrace('talk', traceId);
  const named = new Set([
    ...trace.fusion.results.slice(0, 40).map((r) => r.record_id),
    ...trace.lanes.flatMap((l) => l.candidates.slice(0, 15).map((c) => c.record_id)),
  ]);
  assert.ok(named.size >= 30, `the trace names ${named.size} Records`);
  // Each request's ids: listRecords by `ids`, or a getRecord of one.
  const requests: string[][] = [];
  const idsOf = (url: string): string[] | null => {
    const u = new URL(url);
    const one = /\/v1\/brains\/talk\/records\/(rec_[^/]+)$/.exec(u.pathname);
    if (one) return [one[1]!];
    return u.pathname === '/v1/brains/talk/records' ? (u.searchParams.get('ids')?.split(',') ?? null) : null;
  };
  const { page: p, problems } = await openAt(`/brains/talk/traces/${traceId}`, async (page) => {
    await page.setViewportSize({ width: 1280, height: 700 });
    page.on('request', (r) => {
      const ids = idsOf(r.url());
      if (ids) requests.push(ids);
    });
  });
  const read = () => requests.flat();
  await p.getByRole('heading', { level: 1, name: /garden plans/ }).waitFor();
  // The first chart names its Records by their words...
  await p
    .locator('figure.chart')
    .first()
    .getByText(/Message \d+/)
    .first()
    .waitFor();
  await sleep(500);
  assert.ok(
    read().length * 2 <= named.size,
    `${read().length} Records read with the top of the page shown, of ${named.size} named`,
  );
  // ...read together: a request for the part of the page in view, not one a Record.
  assert.ok(requests.length <= 2, `${requests.length} requests for ${read().length} Records`);
  // ...and the ranking further down is read when scrolled to.
  await p.getByRole('heading', { level: 2, name: 'Combined ranking' }).scrollIntoViewIfNeeded();
  const ranking = p.locator('section[aria-labelledby="fusion"] figure.chart');
  await ranking.scrollIntoViewIfNeeded();
  await ranking
    .locator('text.chart-label')
    .first()
    .filter({ hasText: /Message \d+/ })
    .waitFor();
  assert.ok(requests.length <= 4, `${requests.length} requests for ${read().length} Records`);
  assert.equal(new Set(read()).size, read().length, 'no Record is read twice');
  assert.deepEqual(problems, []);
  await p.close();
});
