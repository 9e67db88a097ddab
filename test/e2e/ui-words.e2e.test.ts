// Checked in the real UI with the local engine's rules: what a person reads names things in words. A
// predicate is never shown as the engine's key, a version a correction replaced from its start says
// so (not "never true"), the history chart gives every version a box its label can be read in or
// beside, and a Trace says its outcome and stages as the rest of the UI does. One server and one
// browser for the file; each test on its own Brain.
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

test('what a fact is about reads in words on its page and in the Memories table', async () => {
  await chat('about', []);
  await app().api.rememberRecord('about', {
    content: { kind: 'fact', subject: 'self', predicate: 'phone_number', value: '+351 912 345 678' },
  });
  await derivationSettled(app(), 'about');
  const phone = (await app().api.listMemories('about')).data.find((m) => m.predicate === 'phone_number');
  assert.ok(phone);
  const { page, problems } = await ui();
  await navigateInPlace(page, '/brains/about/memories');
  await page.getByRole('table').getByRole('cell', { name: 'You · phone number', exact: true }).waitFor();
  await navigateInPlace(page, `/brains/about/memories/${phone.id}`);
  const about = page.locator('dl.facts dt', { hasText: 'About' }).locator('xpath=following-sibling::dd[1]');
  await about.waitFor();
  assert.equal((await about.innerText()).trim(), 'You · phone number');
  // The engine's key only where the fact is corrected, beside the sentence: the fact as it is kept.
  assert.equal(await page.getByText('phone_number').count(), 1);
  assert.equal(
    await page.locator('#stored-fact').innerText(),
    'Kept as a fact: subject self, predicate phone_number, value +351 912 345 678.',
  );
  // The correction starts from the words the page shows, not the engine's ("self phone_number: …").
  const heading = (await page.getByRole('heading', { level: 1 }).innerText()).trim();
  assert.equal(await page.getByLabel('What is actually true').inputValue(), heading);
  assert.ok(!heading.startsWith('self'), heading);
  // Saved, it is the slot's value as the engine writes a fact's line, so a later fact compares with it.
  await page.getByLabel('What is actually true').fill(heading.replace('912 345 678', '999 000 111'));
  await page.getByRole('button', { name: 'Save correction' }).click();
  const deadline = Date.now() + 20_000;
  let statements: string[] = [];
  while (Date.now() < deadline) {
    statements = (await app().api.listMemories('about')).data.map((m) => m.statement);
    if (statements.some((x) => x.includes('999 000 111'))) break;
    await page.waitForTimeout(100);
  }
  assert.ok(statements.includes('self phone number: +351 999 000 111'), JSON.stringify(statements));
  assert.deepEqual(problems, []);
});

test('a version a correction replaced from its start says so, and the history shows every version', async () => {
  await chat('fixed', [
    ['I live in Lisbon with my partner Tom.', '2026-01-05T10:00:00Z'],
    ["I don't live in Lisbon anymore", '2026-03-01T10:00:00Z'],
    ['i moved to porto', '2026-05-01T10:00:00Z'],
  ]);
  const porto = await memoryOf('fixed', 'Ana lives in Porto');
  await app().api.rememberRecord('fixed', {
    content: { kind: 'correction', corrects: porto.id, statement: 'Ana lives in Braga' },
  });
  await derivationSettled(app(), 'fixed');
  const braga = await memoryOf('fixed', 'Ana lives in Braga');
  const { page, problems } = await ui();
  await navigateInPlace(page, `/brains/fixed/memories/${porto.id}`);
  const truth = page.locator('dl.facts dt', { hasText: 'True' }).locator('xpath=following-sibling::dd[1]');
  await truth.getByRole('link', { name: `version ${braga.version}` }).waitFor();
  assert.equal(
    (await truth.innerText()).trim(),
    `replaced from its start by a correction (version ${braga.version})`,
  );
  assert.equal(await truth.getByRole('link').getAttribute('href'), `/brains/fixed/memories/${braga.id}`);
  const line = page.getByRole('list', { name: 'Versions, oldest first' }).locator('li[aria-current="true"]');
  assert.match(await line.innerText(), /Replaced from its start by a correction \(version \d\)/);
  assert.equal(await page.getByText(/never true/i).count(), 0);

  // Every version's box can be seen, and every label is inside its box or wholly beside it.
  type Boxed = { getBBox(): { x: number; width: number } };
  const boxes = await page.locator('.timeline svg g').evaluateAll((gs) =>
    gs.map((g) => {
      const r = (g.querySelector('rect') as unknown as Boxed).getBBox();
      const t = (g.querySelector('text') as unknown as Boxed).getBBox();
      return { label: g.querySelector('text')!.textContent, r: [r.x, r.width], t: [t.x, t.width] };
    }),
  );
  assert.deepEqual(
    boxes.map((b) => b.label),
    ['v1', 'v2 ended', 'v3', 'v4'],
  );
  for (const { label, r, t } of boxes) {
    const [rx, rw] = r as [number, number];
    const [tx, tw] = t as [number, number];
    assert.ok(rw >= 8, `${label}: a box of ${rw} px`);
    const inside = tx >= rx && tx + tw <= rx + rw;
    const beside = tx >= rx + rw || tx + tw <= rx;
    assert.ok(inside || beside, `${label}: text ${tx}+${tw} half over its box ${rx}+${rw}`);
  }
  await checkScreen(page, 'history-after-correction');
  assert.deepEqual(problems, []);
});

test('a Trace says its outcome as the list does, names its stages and lanes in words, keys as tooltips', async () => {
  await chat('traced', [
    ['I live in Lisbon with my partner Tom.', '2026-01-05T10:00:00Z'],
    ['My favourite colour is green.', '2026-01-12T10:00:00Z'],
  ]);
  const { context: ctx } = await app().api.createContext('traced', { query: 'where do I live' });
  assert.equal(ctx.status, 'ready');
  const trace = await app().api.getTrace('traced', ctx.id);
  assert.ok(
    trace.lanes.some((l) => l.candidates.length === 0),
    'some lane found nothing',
  );
  assert.ok('index_catch_up' in trace.timings_ms);
  const { page, problems } = await ui();
  await navigateInPlace(page, `/brains/traced/traces/${ctx.id}`);
  const outcome = page
    .locator('dl.facts dt', { hasText: 'Outcome' })
    .locator('xpath=following-sibling::dd[1]');
  await outcome.waitFor();
  assert.equal((await outcome.innerText()).trim(), 'Answered');

  const timings = page.locator('section[aria-labelledby="timings"]');
  const labels = await timings.locator('text.chart-label').allTextContents();
  assert.ok(labels.includes('Bringing the search index up to date'), labels.join(' | '));
  assert.ok(
    labels.every((l) => !l.includes('_')),
    labels.join(' | '),
  );
  const tips = await timings.locator('title').allTextContents();
  assert.ok(tips.some((t) => t.startsWith('Bringing the search index up to date (index_catch_up): ')));

  // Every lane is a figure with a caption, whether it found anything or not; none is bold.
  const lanes = page.locator('section[aria-labelledby="lanes"] .lane');
  assert.equal(await lanes.count(), trace.lanes.length);
  assert.equal(await lanes.locator('figure.chart > figcaption').count(), trace.lanes.length);
  assert.equal(await lanes.locator('strong').count(), 0);
  const empty = trace.lanes.find((l) => l.candidates.length === 0)!;
  const caption = lanes.locator(`figcaption[title="${empty.name}"]`);
  assert.match(await caption.innerText(), /: nothing found in \d+\.\d ms$/);
  assert.doesNotMatch(await caption.innerText(), new RegExp(`^${empty.name}\\b`));
  await checkScreen(page, 'trace-in-words');
  assert.deepEqual(problems, []);
});

test("Profile lines speak of the person in one voice, and the person's own words are quotations", async () => {
  const own = 'I live in Lisbon with my partner Tom.';
  await chat('voice', [
    [own, '2026-01-05T10:00:00Z'],
    ['My favourite colour is green.', '2026-01-12T10:00:00Z'],
  ]);
  await app().api.rememberRecord('voice', {
    content: { kind: 'fact', subject: 'self', predicate: 'phone_number', value: '+351 912 345 678' },
  });
  await app().api.rememberRecord('voice', {
    content: { kind: 'fact', subject: 'self', predicate: 'email', value: 'ana@old.pt' },
  });
  await app().api.rememberRecord('voice', {
    content: {
      kind: 'event',
      title: 'Dinner with Tomás',
      starts_at: '2026-01-20T19:00:00Z',
      participants: ['Ana', 'Tomás'],
    },
  });
  await derivationSettled(app(), 'voice');
  const email = await memoryOf('voice', 'self email: ana@old.pt');
  await app().api.rememberRecord('voice', {
    content: { kind: 'correction', corrects: email.id, statement: 'self email: ana@new.pt' },
  });
  await derivationSettled(app(), 'voice');
  const colour = await memoryOf('voice', "Ana's favourite colour is green");
  const phone = await memoryOf('voice', 'self phone number: +351 912 345 678');
  const { page, problems } = await ui();
  await navigateInPlace(page, '/brains/voice/profile');
  const lines = page.locator('section[aria-labelledby="profile"] .record-line');
  await lines.nth(4).waitFor();
  // The engine's statements, as written; the facts' lines in their voice, by the owner's name; an
  // event's line with its time as a date, as nobody's words; the sentence that holds its slot in the
  // person's words, as a quotation of them.
  const texts = (await lines.allInnerTexts()).map((t) => t.trim()).sort();
  assert.deepEqual(
    texts.filter((t) => !t.startsWith('Dinner')),
    [
      "Ana's email is ana@new.pt",
      "Ana's favourite colour is green",
      "Ana's phone number is +351 912 345 678",
      `“${own}”`,
    ],
  );
  assert.match(
    texts.find((t) => t.startsWith('Dinner'))!,
    /^Dinner with Tomás; when: \S/,
  );
  // Nor were the event's words, or the correction's (it keeps the corrected fact's wording), said.
  const dinnerItem = page.locator('.list-item').filter({ hasText: 'Dinner with Tomás' });
  await dinnerItem.getByRole('link', { name: 'from an event' }).waitFor();
  const emailItem = page.locator('.list-item').filter({ hasText: "Ana's email" });
  await emailItem.getByRole('link', { name: 'from a correction' }).waitFor();
  assert.equal(await lines.filter({ hasText: 'Your ' }).count(), 0);
  // Nobody said "Ana's phone number": its source is named as a fact, not as words said.
  const phoneItem = page.locator('.list-item').filter({ hasText: "Ana's phone number" });
  await phoneItem.getByRole('link', { name: 'from a fact' }).waitFor();
  assert.equal(await phoneItem.getByText('said in these words').count(), 0);
  await page.getByText('Lines in quotation marks are their source’s own words').waitFor();
  // The same line reads the same on its Memory's page.
  await navigateInPlace(page, `/brains/voice/memories/${phone.id}`);
  await page.getByRole('heading', { level: 1, name: "Ana's phone number is +351 912 345 678" }).waitFor();
  await navigateInPlace(page, '/brains/voice/profile');
  await page.getByRole('link', { name: colour.statement, exact: true }).waitFor();
  await checkScreen(page, 'profile-one-voice');
  assert.deepEqual(problems, []);
});
