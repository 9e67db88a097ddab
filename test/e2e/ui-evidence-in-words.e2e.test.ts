// Checked in the real UI: Ask shows a person the evidence of an answer in words (each Memory, whose it
// is, when it holds, the Records it comes from), says why there is no answer, and keeps the text an
// agent receives behind a disclosure; a Trace holds a row's place with a placeholder until its Record's
// words arrive, never its id. One server and one browser for the file; each test on its own Brain.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import {
  appPerFile,
  browserPerFile,
  checkScreen,
  derivationSettled,
  navigateInPlace,
  pageUntil,
  type RunningApp,
} from './harness.ts';

const context = browserPerFile();
const { app, ui } = appPerFile(context, 'local', { viewport: { width: 1280, height: 900 } });

/** A Brain whose person is Ana, holding two of her messages, derived. */
async function anaBrain(id: string, a: RunningApp): Promise<void> {
  await a.api.createBrain({ id, name: id, self: { type: 'person', name: 'Ana' } });
  for (const [text, at] of [
    ['I moved to Lisbon last spring, into a flat in Alfama.', '2024-04-02T10:00:00Z'],
    ['My sister Marta lives in Porto with her two cats.', '2024-05-02T10:00:00Z'],
  ] as const)
    await a.api.rememberRecord(id, { content: { kind: 'message', speaker: 'self', text }, occurred_at: at });
  await derivationSettled(a, id);
}

async function ask(page: Page, brainId: string, question: string) {
  await navigateInPlace(page, `/brains/${brainId}/ask`);
  await page.getByLabel('Question').fill(question);
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  const answer = page.getByRole('region', { name: 'What this Brain knows' });
  await answer.locator('q').filter({ hasText: question }).waitFor();
  return answer;
}

test("Ask shows each Memory of an answer in words, whose it is, when it holds and its Records; the agent's text is behind a disclosure", async () => {
  await anaBrain('evidence', app());
  const { page, problems } = await ui();
  const answer = await ask(page, 'evidence', 'Where does my sister live?');
  const evidence = answer.getByRole('list', { name: 'What it rests on' });
  const sister = evidence
    .getByRole('listitem')
    .filter({ has: page.getByRole('link', { name: "Ana's sister is Marta", exact: true }) });
  await sister.waitFor();
  const said = await sister.innerText();
  assert.match(said, /Whose: Ana \(you\)/);
  assert.match(said, /true since May 2, 2024/);
  // Drawn from other words than its own: the words it comes from are shown, and open their Record.
  assert.match(await sister.locator('mark').innerText(), /My sister Marta/);
  const source = sister.getByRole('link', { name: /^open the Record\W+My sister Marta”$/ });
  const recordId = (await source.getAttribute('title')) ?? '';
  assert.match(recordId, /^rec_/, 'the id is the link’s tooltip');
  // Said in its Record's own words: not quoted again under itself.
  const porto = evidence.getByRole('listitem').filter({
    has: page.getByRole('link', { name: 'My sister Marta lives in Porto with her two cats.', exact: true }),
  });
  assert.match(await porto.innerText(), /Whose: Marta/);
  assert.match(await porto.innerText(), /said in these words/);
  assert.equal(await porto.locator('mark').count(), 0);

  // What a person reads is words: no prompt headers, no ids.
  const shown = await answer.innerText();
  assert.doesNotMatch(shown, /#mnemo-|rec_|mem_/);
  const raw = answer.locator('details').filter({ hasText: 'What an agent would receive' });
  assert.equal(await raw.getAttribute('open'), null, 'closed until asked for');
  await raw.getByText('What an agent would receive').click();
  assert.match(await raw.locator('pre').innerText(), /^Quoted evidence from memory[\s\S]*#mnemo-/);
  await checkScreen(page, 'ask-evidence');

  // Narrow and dark: nothing wider than the window, and axe's contrast checks pass on the dark palette.
  await page.setViewportSize({ width: 800, height: 900 });
  await page.emulateMedia({ colorScheme: 'dark' });
  try {
    const width = await page.evaluate<number>('document.documentElement.scrollWidth');
    assert.ok(width <= 800, `the page is ${width} px wide at 800 px`);
    await checkScreen(page, 'ask-evidence-dark-800');
  } finally {
    await page.emulateMedia({ colorScheme: null });
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  await source.click();
  await page.waitForURL(new RegExp(`/records/${recordId}$`));
  await page.getByText('My sister Marta lives in Porto with her two cats.').first().waitFor();
  assert.deepEqual(problems, []);
});

test("Ask words a fact as a sentence a person would write; its Record keeps the fact's fields", async () => {
  await anaBrain('facts', app());
  for (const [subject, predicate, value] of [
    ['Marko', 'birthday', 'March 13'],
    ['Lea Horvat', 'date_of_birth', '1990-05-04'],
  ] as const)
    await app().api.rememberRecord('facts', {
      content: { kind: 'fact', subject, predicate, value },
      occurred_at: '2024-06-01T10:00:00Z',
    });
  await derivationSettled(app(), 'facts');
  const { page, problems } = await ui();

  const answer = await ask(page, 'facts', "When is Marko's birthday?");
  const evidence = answer.getByRole('list', { name: 'What it rests on' });
  const birthday = page.getByRole('link', { name: "Marko's birthday is March 13", exact: true });
  await evidence.locator(birthday).waitFor();
  const item = evidence.getByRole('listitem').filter({ has: birthday });
  assert.match(await item.innerText(), /from a fact/);
  // The agent is given the Record's line word for word: only what a person reads is worded.
  const shown = await answer.locator(':scope > :not(details)').allInnerTexts();
  assert.doesNotMatch(shown.join('\n'), /Marko birthday: /);
  await answer.getByText('What an agent would receive').click();
  assert.match(await answer.locator('pre').innerText(), /\nMarko birthday: March 13$/m);

  const born = await ask(page, 'facts', 'When was Lea Horvat born? date of birth');
  await born.getByRole('link', { name: "Lea Horvat's date of birth is May 4, 1990", exact: true }).waitFor();
  // Its Record: the sentence, and the fact as it is kept.
  await born
    .getByRole('link', { name: /^open the Record\W+Lea Horvat's date of birth is May 4, 1990”$/ })
    .click();
  await page.getByRole('heading', { level: 1, name: "Lea Horvat's date of birth is May 4, 1990" }).waitFor();
  const field = (name: string) => page.locator(`dl.facts dt:text-is("${name}") + dd`).innerText();
  assert.deepEqual(
    [await field('Subject'), await field('Predicate'), await field('Value')],
    ['Lea Horvat', 'date_of_birth', '1990-05-04'],
  );
  assert.deepEqual(problems, []);
});

test('Ask says in words why no answer is given and what an agent is told instead', async () => {
  await anaBrain('miss', app());
  await app().api.rememberRecord('miss', {
    content: { kind: 'fact', subject: 'Ana', predicate: 'dentist', value: 'Dr Sousa' },
    source: { name: 'phone' },
    occurred_at: '2024-01-01T00:00:00Z',
  });
  await app().api.rememberRecord('miss', {
    content: { kind: 'fact', subject: 'Ana', predicate: 'dentist', value: 'Dr Lima' },
    source: { name: 'laptop' },
    occurred_at: '2024-01-01T00:00:00Z',
  });
  await derivationSettled(app(), 'miss');
  const { page, problems } = await ui();

  const nothing = await ask(page, 'miss', 'What does Zed think of opera?');

  await nothing.getByText('No answer given.').waitFor();
  assert.match(
    await nothing.innerText(),
    /Nothing in this Brain answers it\. An agent is told so, rather than given a guess\./,
  );
  assert.equal(await nothing.getByText('What an agent would receive').count(), 0, 'no text to show');

  const torn = await ask(page, 'miss', "Who is Ana's dentist?");

  await torn.getByText('No answer given.').waitFor();
  assert.match(
    await torn.innerText(),
    /The sources disagree, so no single answer is given\. An agent is given what each says/,
  );
  await torn.getByRole('link', { name: 'Pick the value that holds in Conflicts' }).waitFor();
  // What each side says is there to read, and the question is not listed again as "not answered".
  await torn.getByRole('heading', { name: 'Disagreements' }).waitFor();
  assert.equal(await torn.getByRole('heading', { name: 'Could not be answered' }).count(), 0);
  await checkScreen(page, 'ask-conflicting');
  assert.deepEqual(problems, []);
});

test("a Trace holds each row's place with a placeholder until its Record's words arrive, never its id", async () => {
  await anaBrain('traced', app());
  await app().api.rememberRecord('traced', {
    content: {
      kind: 'message',
      speaker: 'self',
      text: 'Marta and I lived in Porto as children, by the river.',
    },
    occurred_at: '2024-03-02T10:00:00Z',
  });
  await derivationSettled(app(), 'traced');
  const { context: ctx } = await app().api.createContext('traced', {
    query: 'Where do I live, and where does my sister live?',
    budget: { tokens: 110 },
  });
  const trace = await app().api.getTrace('traced', ctx.id);
  assert.ok(trace.budget.cut.length > 0, 'the size limit cut a Record');
  assert.ok(trace.fusion.results.length > 1, 'the ranking names Records');

  const { page, problems } = await ui();
  // Tall enough that every part of the trace is in view and asks for its Records at once.
  await page.setViewportSize({ width: 1280, height: 3000 });
  // The Records' words are held back until the placeholders have been looked at.
  let release = () => {};
  const held = new Promise<void>((r) => (release = r));
  const reads = /\/v1\/brains\/traced\/records(\/|\?)/;
  await page.route(reads, async (route) => {
    await held;
    await route.continue();
  });
  try {
    await navigateInPlace(page, `/brains/traced/traces/${ctx.id}`);
    await page.getByRole('heading', { level: 1, name: /where does my sister live/ }).waitFor();
    const parts = ['lanes', 'fusion', 'cut'].map((id) => page.locator(`section[aria-labelledby="${id}"]`));
    const ranking = parts[1]!;
    await ranking.locator('svg .chart-label').first().waitFor();
    // What a screen reader reads of the charts (their rows in full) and of the cut list: no ids.
    for (const part of parts) assert.doesNotMatch(await part.innerText(), /rec_/);
    const rows = ranking.locator('.chart-rows li');
    assert.equal(await rows.count(), Math.min(trace.fusion.results.length, 40));
    assert.match((await rows.first().textContent()) ?? '', /^loading…: /);
    // The id is there for whoever needs it: each row's tooltip.
    assert.equal(await rows.first().getAttribute('title'), trace.fusion.results[0]!.record_id);
    assert.match((await ranking.locator('svg .chart-label').first().textContent()) ?? '', /^loading…$/);
    const cut = parts[2]!.getByRole('listitem').first();
    assert.match(await cut.innerText(), /^loading…\s+\(\d+ tokens\)$/);
    assert.equal(await cut.locator('[title]').getAttribute('title'), trace.budget.cut[0]!.record_id);
    await checkScreen(page, 'trace-words-loading');
    const heights = await Promise.all(parts.map(async (p) => (await p.boundingBox())!.height));

    release();
    await ranking
      .locator('svg .chart-label')
      .filter({ hasText: /Porto|Lisbon/ })
      .first()
      .waitFor();
    await pageUntil(page, `!document.querySelector('main').textContent.includes('loading…')`);
    // Words in place of every placeholder, and nothing moved.
    assert.deepEqual(await Promise.all(parts.map(async (p) => (await p.boundingBox())!.height)), heights);
    assert.match((await rows.first().textContent()) ?? '', /^You: /);
    await cut.getByRole('link').waitFor();
    assert.doesNotMatch(await cut.innerText(), /loading…|rec_/);
    await checkScreen(page, 'trace-words');
  } finally {
    release();
    // Waits for the held reads' handlers, so none runs on after the test.
    await page.unrouteAll({ behavior: 'wait' });
    await page.setViewportSize({ width: 1280, height: 900 });
  }
  assert.deepEqual(problems, []);
});

test("a Trace's cited fact reads as the fact's sentence, as elsewhere, while its quote stays the Record's line", async () => {
  await anaBrain('trace-facts', app());
  await app().api.rememberRecord('trace-facts', {
    content: { kind: 'fact', subject: 'Lea', predicate: 'vegetarian', value: 'yes' },
    occurred_at: '2024-06-02T10:00:00Z',
  });
  await app().api.rememberRecord('trace-facts', {
    content: { kind: 'fact', subject: 'Lea', predicate: 'smokes', value: false },
    occurred_at: '2024-06-03T10:00:00Z',
  });
  await derivationSettled(app(), 'trace-facts');
  const { context: ctx } = await app().api.createContext('trace-facts', {
    query: 'Is Lea vegetarian, and does Lea smoke?',
  });
  const trace = await app().api.getTrace('trace-facts', ctx.id);
  // The wire is unchanged: each quote is its Record's line, word for word.
  const quotes = trace.citations.map((c) => c.quote);
  for (const line of ['Lea vegetarian: yes', 'Lea smokes: false']) assert.ok(quotes.includes(line), line);

  const { page, problems } = await ui();
  await navigateInPlace(page, `/brains/trace-facts/traces/${ctx.id}`);
  const cited = page.locator('section[aria-labelledby="trace-citations"]');
  await cited.getByRole('heading', { name: 'Cited' }).waitFor();
  await cited.locator('mark', { hasText: /^Lea is vegetarian$/ }).waitFor();
  await cited.locator('mark', { hasText: /^Lea does not smoke$/ }).waitFor();
  // Neither the stored line nor a colon left to say yes or no.
  const shown = await cited.locator('mark').allInnerTexts();
  assert.deepEqual(
    shown.filter((s) => /Lea vegetarian|Lea smokes|: (?:yes|no|true|false)$/.test(s)),
    [],
  );
  await checkScreen(page, 'trace-cited-facts');
  assert.deepEqual(problems, []);
});
