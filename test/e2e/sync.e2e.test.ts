// The Sync panel against `mnemo serve --ui` with the local engine, paired with a second, hosted server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createMnemoClient } from '../../server/client/index.ts';
import {
  afterCheck,
  type Answer,
  fakeRemote,
  feedPage,
  hubAnswer,
  json,
  startNode,
  tempRoot,
} from '../integration/sync-helpers.ts';
import { browserPerFile, checkScreen, openUi, startApp, type RunningApp } from './harness.ts';

/** A client with the person's key, as the UI's: pairing takes it (server/http/handlers.ts, pairSync). */
async function asPerson(app: RunningApp) {
  return createMnemoClient({
    baseUrl: app.server.url,
    apiKey: await app.server.mintSessionKey('e2e pairing'),
  });
}

const context = browserPerFile();

test('pair a Brain in the Sync panel (a wrong key refused first), see it push, sync now to pull, unpair', async () => {
  const { root, remove } = tempRoot('mnemo-e2e-sync-');
  const h = await startNode(root, 'h', { deployment: 'hosted' });
  const failing = await fakeRemote();
  failing.answer = (_seen, res) => void res.writeHead(503).end();
  const app = await startApp('local');
  try {
    await app.api.createBrain({ id: 'me', name: 'Me', self: { type: 'person', name: 'Ana' } });
    await app.api.rememberRecord('me', { content: 'The sailing club meets on Fridays.' });
    await app.api.rememberRecord('me', { content: 'My PIN is 4242.', visibility: 'local_only' });
    // The redactor is unsure of a handle: held back, and listed by id.
    const handle = await app.api.rememberRecord('me', {
      content: 'ping me @someone',
      visibility: 'redacted_summary',
    });
    const { page, problems } = await openUi(context(), app);
    const focusedText = () =>
      page.evaluate<string>(
        '(document.activeElement?.tagName ?? "") + " " + (document.activeElement?.textContent ?? "")',
      );
    await page.getByRole('link', { name: 'Me' }).click();
    await page.getByRole('navigation', { name: 'Brain me' }).getByRole('link', { name: 'Sync' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sync' }).waitFor();
    await page.getByRole('button', { name: 'Pair' }).waitFor();
    await checkScreen(page, 'sync-pair-form');
    // An address where a server answers, failing: titled by what the remote did, not "cannot be reached".
    await page.getByLabel(/Hosted Mnemo/).fill(failing.url);
    await page.getByLabel(/Brain there/).fill('shared');
    await page.getByLabel(/Key of the hosted Mnemo/).fill(h.key);
    await page.getByRole('button', { name: 'Pair' }).click();
    const unavailable = page
      .getByRole('alert')
      .filter({ hasText: 'The hosted Mnemo did not answer as expected' });
    await unavailable.waitFor();
    assert.match(
      (await unavailable.textContent()) ?? '',
      /Hosted Mnemo: http:\/\/127\.0\.0\.1:\d+\/v1 is not a Mnemo API: GET \/v1\/brains\/shared answered HTTP 503, .*Code sync_remote_unavailable/,
    );
    await page.getByLabel(/Hosted Mnemo/).fill(h.server.url);
    // A key the hosted Mnemo does not know: refused at once, saying what it answered; the form stays.
    const wrongKey = 'sk_test_home_mistypedsecret00000';
    await page.getByLabel(/Key of the hosted Mnemo/).fill(wrongKey);
    await page.getByRole('button', { name: 'Pair' }).click();
    const refusal = page.getByRole('alert').filter({ hasText: 'The hosted Mnemo refused that key' });
    await refusal.waitFor();
    assert.match(
      (await refusal.textContent()) ?? '',
      /Key of the hosted Mnemo: http:\/\/127\.0\.0\.1:\d+\/v1 refused the key: GET \/v1\/brains\/shared answered 401 invalid_api_key: .*; nothing was paired or changed.*Code sync_remote_key_refused/,
    );
    assert.equal(await page.getByText(wrongKey).count(), 0, 'the refused key is not shown');
    await checkScreen(page, 'sync-pair-refused');
    assert.equal((await app.api.getSync('me')).paired, false);
    await page.getByLabel(/Key of the hosted Mnemo/).fill(h.key);
    await page.getByRole('button', { name: 'Pair' }).click();
    const counts = page.getByRole('table', { name: 'Sync counts' });
    await counts.getByRole('row', { name: 'Pushed 1' }).waitFor();
    // What a skip is, said: a correction of what stays here is one, and is no failure.
    assert.match(
      await counts.getByRole('rowheader', { name: /^Skipped/ }).innerText(),
      /corrections of Memories kept on this device/,
    );
    // The form went with the pairing: focus is on what it made, not dropped to <body>.
    assert.match(await focusedText(), /^P Paired with Brain shared at /);
    await page.getByTestId('sync-last-success').filter({ hasNotText: 'not yet' }).waitFor();
    const heldBack = page.getByTestId('sync-records-of-fate').filter({ hasText: 'Held back, the newest' });
    // Each with why, beside its link; and the panel says what a summary-only copy keeps and loses.
    assert.match(
      await heldBack.innerText(),
      new RegExp(`${handle.record.id}: an @ that is not part of an e-mail address \\(a handle\\?\\)`),
    );
    assert.match(
      await page.getByTestId('sync-redaction').innerText(),
      /replaces .*street addresses, amounts of money.*speaks of health.*is never sent/s,
    );
    await heldBack.getByRole('link', { name: handle.record.id }).click();
    await page.getByText('ping me @someone').first().waitFor();
    await page.goBack();
    await page.getByTestId('sync-last-success').waitFor();
    assert.equal(await page.getByText(h.key).count(), 0, 'the key is never shown');
    await checkScreen(page, 'sync-paired');

    // Another device's Record reaches this one with Sync now.
    await h.client.replicateRecords('shared', [
      {
        id: 'rec_01M8GC00000000000000000001',
        content: { kind: 'message', text: 'The regatta moved to Sunday.' },
        visibility: 'shareable',
        occurred_at: '2024-06-01T10:00:00.000Z',
      },
    ]);
    // From the keyboard: focus stays on the button through the run, not dropped to <body>.
    await page.getByRole('button', { name: 'Sync now' }).focus();
    await page.keyboard.press('Enter');
    await counts.getByRole('row', { name: 'Pulled 1' }).waitFor();
    assert.match(await focusedText(), /^BUTTON (Sync now|Syncing…)$/);
    const onHub = await h.client.listRecords('shared');
    assert.deepEqual(
      onHub.data.map((r) => r.visibility),
      ['shareable', 'shareable'],
    );
    assert.ok(!JSON.stringify(onHub).includes('4242'));

    await page.getByRole('button', { name: 'Unpair' }).click();
    await page.getByRole('button', { name: 'Pair' }).waitFor();
    await page.getByRole('status').filter({ hasText: 'Unpaired. Nothing was deleted' }).waitFor();
    assert.match(await focusedText(), /^P Unpaired\. Nothing was deleted/);
    assert.deepEqual(problems, []);
  } finally {
    await app.close();
    await h.stop();
    await failing.close();
    remove();
  }
});

test('the Sync panel tells a long sync under way from a failing one, and when the next run is', async () => {
  const hub = await fakeRemote();
  // A feed that never ends, each page 0.3 s: a run of 0.8 s keeps two pages and stops at its deadline.
  const slowFeed: Answer = (seen, res) => {
    if (!(seen.method === 'GET' && seen.path.endsWith('/records'))) return hubAnswer(seen, res);
    const t = setTimeout(() => json(res, feedPage(seen.query.get('since_watermark'), true)), 300);
    res.once('close', () => clearTimeout(t));
  };
  // Both answer the check before the pairing as a hub does; then one is slow, the other down.
  hub.byBrain.set('big', afterCheck(slowFeed));
  hub.byBrain.set(
    'down',
    afterCheck((_seen, res) => void res.writeHead(503).end()),
  );
  // The next run an hour away, whether after progress (the debounce) or a failure (the interval).
  const app = await startApp('local', {
    sync: {
      debounceMs: 3_600_000,
      intervalMs: 3_600_000,
      limits: { idleMs: 20_000, totalMs: 20_000, runMs: 800 },
    },
  });
  try {
    for (const [id, name] of [
      ['big', 'Big'],
      ['down', 'Down'],
    ] as const) {
      await app.api.createBrain({ id, name });
      await (await asPerson(app)).pairSync(id, { remote: hub.url, remote_key: 'sk_test_remote_key' });
    }
    const { page, problems } = await openUi(context(), app);
    const open = async (name: string, id: string) => {
      await page.getByRole('link', { name: 'Brains' }).first().click();
      await page.getByRole('link', { name }).click();
      await page
        .getByRole('navigation', { name: `Brain ${id}` })
        .getByRole('link', { name: 'Sync' })
        .click();
      await page.getByRole('heading', { level: 1, name: 'Sync' }).waitFor();
    };
    const nextRunIsPlanned = async (orUnderWay = false) => {
      const text = (await page.getByTestId('sync-next-run').textContent()) ?? '';
      assert.match(text, /^Next sync: /);
      assert.doesNotMatch(text, orUnderWay ? /none planned/ : /none planned|under way/);
    };

    await open('Big', 'big');
    await page.getByTestId('sync-catching-up').waitFor();
    assert.equal(await page.getByRole('alert').count(), 0, 'a sync under way is no failure');
    // A run that stopped with more to do is followed soon by the next: on a busy machine it may be under
    // way already when the panel is read.
    await nextRunIsPlanned(true);
    await checkScreen(page, 'sync-catching-up');

    await open('Down', 'down');
    await page
      .getByRole('alert')
      .filter({ hasText: /^Last attempt failed: / })
      .waitFor();
    assert.equal(await page.getByTestId('sync-catching-up').count(), 0);
    await nextRunIsPlanned();

    // Forgetting a paired Brain says the Brain it syncs with keeps what it was sent.
    await page.getByRole('link', { name: 'Brains' }).first().click();
    await page.getByRole('button', { name: 'Forget down' }).click();
    const dialog = page.getByRole('dialog', { name: 'Forget the Brain “Down”?' });
    const said = (await dialog.getByTestId('forget-paired').textContent()) ?? '';
    assert.match(said, /^It syncs with the Brain “down” at http:\/\/127\.0\.0\.1:\d+\/v1\. That Brain keeps/);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    assert.deepEqual(problems, []);
  } finally {
    await app.close();
    await hub.close();
  }
});

test('the Records page says what a correction from another side did here, linking the Memory it made', async () => {
  const app = await startApp('local');
  try {
    await app.api.createBrain({ id: 'me', name: 'Me', self: { type: 'person', name: 'Ana' } });
    const fact = await app.api.rememberRecord('me', {
      content: { kind: 'fact', subject: 'Ana', predicate: 'lives in', value: 'Porto' },
    });
    // As a side whose rules word that fact's Memory otherwise wrote it, and another that matches nothing.
    const correction = (id: string, statement: string | undefined, said: string) => ({
      id,
      content: {
        kind: 'correction' as const,
        corrects: 'mem_elsewhere',
        ...(statement ? { statement } : {}),
        target: { records: [fact.record.id], statement: said },
      },
      visibility: 'shareable' as const,
      occurred_at: '2024-06-01T10:00:00.000Z',
    });
    await app.api.replicateRecords('me', [
      correction(
        'rec_01M8GC00000000000000000011',
        'Ana lives in Lisbon',
        'Ana lives in the old town of Porto',
      ),
      correction('rec_01M8GC00000000000000000012', undefined, 'Ana keeps bees'),
    ]);
    await app.server.engine.idle();
    const [lisbon] = (await app.api.listMemories('me')).data;
    assert.equal(lisbon?.statement, 'Ana lives in Lisbon');

    const { page, problems } = await openUi(context(), app);
    await page.getByRole('link', { name: 'Me' }).click();
    await page.getByRole('navigation', { name: 'Brain me' }).getByRole('link', { name: 'Records' }).click();
    const outcomes = page.getByTestId('correction-outcome');
    await outcomes.first().waitFor();
    const said = (await outcomes.allInnerTexts()).join('\n');
    assert.match(said, /Applied here by a fallback from another side: .*holds its slot/);
    assert.match(said, /Not applied here from another side: .*nothing was withdrawn/);
    // The link goes to the Memory it made here, not to the other side's id.
    const item = page.getByRole('listitem').filter({ hasText: 'Corrected a Memory to: Ana lives in Lisbon' });
    assert.equal(
      await item.getByRole('link', { name: 'a Memory' }).getAttribute('href'),
      `/brains/me/memories/${lisbon!.id}`,
    );
    await checkScreen(page, 'records-correction-outcomes');
    assert.deepEqual(problems, []);
  } finally {
    await app.close();
  }
});

test('the Sync panel says what sync went on past: another self on the hub, a date an older hub refused', async () => {
  const hub = await fakeRemote();
  // A hosted Brain whose self is another spelling of hers, and a replication route of a version
  // before valid_from, which refuses the field as the server's validator words it.
  hub.answer = (seen, res) => {
    if (seen.method === 'GET' && /^\/v1\/brains\/[^/]+$/.test(seen.path))
      return json(res, { object: 'brain', id: 'me', self: { type: 'person', name: 'Ana M.' } });
    if (seen.method === 'POST' && seen.path.endsWith('/sync/records') && seen.body.includes('"valid_from"')) {
      const { records } = JSON.parse(seen.body) as { records: { content: object }[] };
      const at = records.findIndex((r) => 'valid_from' in r.content);
      return void res.writeHead(400, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          type: 'invalid_request',
          code: 'invalid_request_body',
          message: `records[${at}].content.valid_from: unknown field`,
        }),
      );
    }
    hubAnswer(seen, res);
  };
  const app = await startApp('local', { sync: { debounceMs: 3_600_000, intervalMs: 3_600_000 } });
  try {
    await app.api.createBrain({ id: 'me', name: 'Me', self: { type: 'person', name: 'Ana' } });
    await app.api.rememberRecord('me', {
      content: { kind: 'fact', subject: 'Ana', predicate: 'lives in', value: 'Porto' },
    });
    await app.server.engine.idle();
    const [porto] = (await app.api.listMemories('me')).data;
    await app.api.rememberRecord('me', {
      content: {
        kind: 'correction',
        corrects: porto!.id,
        statement: 'Ana lives in Lisbon',
        valid_from: '2099-01-01T00:00:00Z',
      },
    });
    await (await asPerson(app)).pairSync('me', { remote: hub.url, remote_key: 'sk_test_remote_key' });
    const s = await app.api.runSync('me');
    assert.equal(s.last_error, null);
    const { page, problems } = await openUi(context(), app);
    await page.getByRole('link', { name: 'Me' }).click();
    await page.getByRole('navigation', { name: 'Brain me' }).getByRole('link', { name: 'Sync' }).click();
    const warning = page.getByTestId('sync-warning');
    await warning.waitFor();
    const said = await warning.innerText();
    assert.match(said, /self is "Ana M\." \(person\), this Brain's "Ana" \(person\); sync changes neither/);
    assert.match(said, /1 Record went to the hosted Mnemo without a correction's valid_from/);
    assert.equal(await page.getByRole('alert').count(), 0, 'what sync went on past is no failure');
    assert.deepEqual(problems, []);
  } finally {
    await app.close();
    await hub.close();
  }
});

test('the Sync panel says a pull paused at its day’s budget, and Allow more reads another day', async () => {
  const hub = await fakeRemote();
  // A feed that never ends: each page as many messages as asked for, and has_more.
  hub.answer = afterCheck((seen, res) => {
    if (!(seen.method === 'GET' && seen.path.endsWith('/records'))) return hubAnswer(seen, res);
    const n = Number(/^wm_(\d+)$/.exec(seen.query.get('since_watermark') ?? '')?.[1] ?? 0);
    const limit = Number(seen.query.get('limit') ?? 200);
    const data = Array.from({ length: limit }, (_, i) => ({
      id: `rec_01FLOOD${String(n + i).padStart(18, '0')}`,
      object: 'record',
      content: { kind: 'message', text: `Flood ${n + i}.` },
      source: {},
      visibility: 'shareable',
      occurred_at: '2026-01-01T00:00:00.000Z',
    }));
    json(res, { data, has_more: true, next_cursor: null, watermark: `wm_${n + limit}`, removed: [] });
  });
  const app = await startApp('local', {
    sync: { debounceMs: 3_600_000, intervalMs: 3_600_000, limits: { pullRecordsPerDay: 300 } },
  });
  try {
    await app.api.createBrain({ id: 'me', name: 'Me' });
    await (await asPerson(app)).pairSync('me', { remote: hub.url, remote_key: 'sk_test_remote_key' });
    assert.equal((await app.api.runSync('me')).pulled, 300);
    const { page, problems } = await openUi(context(), app);
    await page.getByRole('link', { name: 'Me' }).click();
    await page.getByRole('navigation', { name: 'Brain me' }).getByRole('link', { name: 'Sync' }).click();
    const budget = page.getByTestId('sync-pull-budget');
    await budget.waitFor();
    assert.match(
      await budget.innerText(),
      /^Pulled in the last 24 hours: 300 of 300 Records, [\d.]+ kB of 512 MiB\. The pull is paused until /,
    );
    assert.match(
      await page.getByTestId('sync-warning').innerText(),
      /^the pull is paused: it read 300 Records/,
    );
    assert.equal(await page.getByRole('alert').count(), 0, 'a paused pull is no failure');
    await checkScreen(page, 'sync-pull-paused');
    await budget.getByRole('button', { name: 'Allow more' }).click();
    await page.getByRole('row', { name: /^Pulled 600$/ }).waitFor();
    assert.match(await budget.innerText(), /300 of 300 Records/);
    assert.deepEqual(problems, []);
  } finally {
    await app.close();
    await hub.close();
  }
});

test('the Sync panel counts what the hub forgot here, and forgets a mass forget it held only when confirmed', async () => {
  const hub = await fakeRemote();
  // Every Record pushed is taken; the next feed page names them all as forgotten there.
  let pushed: string[] = [];
  hub.answer = afterCheck((seen, res) => {
    if (seen.method === 'POST' && seen.path.endsWith('/sync/records'))
      pushed.push(...(JSON.parse(seen.body) as { records: { id: string }[] }).records.map((r) => r.id));
    if (!(seen.method === 'GET' && seen.path.endsWith('/records'))) return hubAnswer(seen, res);
    const removed = pushed.map((id) => ({ id, forgotten_at: '2026-01-02T00:00:00.000Z' }));
    pushed = [];
    json(res, { data: [], has_more: false, next_cursor: null, watermark: 'wm_1', removed });
  });
  const app = await startApp('local');
  try {
    await app.api.createBrain({ id: 'many', name: 'Many' });
    for (let i = 0; i < 30; i++) await app.api.rememberRecord('many', { content: `Note ${i}.` });
    const person = await asPerson(app);
    await person.pairSync('many', { remote: hub.url, remote_key: 'sk_test_remote_key' });
    assert.equal((await person.runSync('many')).forgets_held, 30);
    const { page, problems } = await openUi(context(), app);
    await page.getByRole('link', { name: 'Many' }).click();
    await page.getByRole('navigation', { name: 'Brain many' }).getByRole('link', { name: 'Sync' }).click();
    const held = page.getByTestId('sync-held-forgets');
    await held.filter({ hasText: 'asked this device to forget 30 Records' }).waitFor();
    const written = (await app.api.listRecords('many', { limit: 100 })).data.map((r) => r.id);
    assert.equal(written.length, 30);
    // The newest five, each a link to its Record: the person sees what she confirms.
    const named = held.getByTestId('sync-held-forgets-examples').getByRole('link');
    assert.deepEqual(await named.allTextContents(), written.sort().reverse().slice(0, 5));
    await held.getByRole('button', { name: 'Forget 30 Records here…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Forget 30 Records?' });
    await dialog.getByRole('button', { name: 'Forget 30 Records' }).click();
    await held.waitFor({ state: 'detached' });
    const counted = page.getByRole('row', { name: /Forgotten here because the hosted Mnemo said so/ });
    assert.equal(await counted.getByRole('cell').textContent(), '30');
    assert.equal((await app.api.listRecords('many', { limit: 100 })).data.length, 0);
    assert.deepEqual(problems, []);
  } finally {
    await app.close();
    await hub.close();
  }
});
