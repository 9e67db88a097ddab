// Checked in the real UI, from a first-time user's pass over the app: all-day calendar events read as
// their day west of UTC. The browser runs in Los Angeles' zone for the whole file.
// One server, one browser and one signed-in page for the file; each test on its own Brain.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { birthdayAndDentist, icsOf } from '../../server/import/test-support.ts';
import {
  appPerFile,
  browserPerFile,
  checkScreen,
  derivationSettled,
  navigateInPlace,
  pageUntil,
} from './harness.ts';

const context = browserPerFile({ timezoneId: 'America/Los_Angeles' });
const { app, ui } = appPerFile(context, 'local', { viewport: { width: 1280, height: 900 } });

const base64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

test('an all-day calendar event shows its own day, with no time, west of UTC', async () => {
  await app().api.createBrain({ id: 'cal', name: 'Calendar', self: { type: 'person', name: 'Ana' } });
  const ics = icsOf(...birthdayAndDentist);
  const imported = await app().api.importFiles('cal', {
    files: [{ name: 'cal.ics', content_base64: base64(ics) }],
  });
  assert.equal(imported.imported, 2);
  await derivationSettled(app(), 'cal');
  const birthday = (await app().api.listMemories('cal')).data.find((m) => m.statement.startsWith("Mum's"))!;
  assert.ok(birthday, "the birthday's Memory");

  const { page, problems } = await ui();
  assert.equal(
    await page.evaluate<string>('Intl.DateTimeFormat().resolvedOptions().timeZone'),
    'America/Los_Angeles',
  );
  await navigateInPlace(page, '/brains/cal/records');
  const rows = page.getByRole('list', { name: 'Records' }).getByRole('listitem');
  const birthdayRow = rows.filter({ hasText: "Mum's birthday" });
  await birthdayRow.waitFor();
  assert.match(await birthdayRow.innerText(), /happened Apr 15, 2024 \(all day\)/);
  assert.doesNotMatch(await birthdayRow.innerText(), /Apr 14|5:00 PM/, 'not the day before, at 17:00');
  // A timed event keeps its time, in the viewer's zone: 17:00 UTC is 10:00 in Los Angeles.
  assert.match(await rows.filter({ hasText: 'Dentist' }).innerText(), /happened Apr 15, 2024, 10:00\sAM/);

  await navigateInPlace(page, '/brains/cal/memories');
  const memoryRow = page.getByRole('row').filter({ hasText: "Mum's birthday" });
  assert.match(await memoryRow.innerText(), /since Apr 15, 2024/);

  await navigateInPlace(page, `/brains/cal/memories/${birthday.id}`);
  await page.getByRole('heading', { level: 1 }).filter({ hasText: "Mum's birthday" }).waitFor();
  const facts = page.locator('.facts');
  assert.match(await facts.innerText(), /since Apr 15, 2024/);
  const evidence = page.getByRole('region', { name: 'Where this comes from' });
  assert.match(await evidence.innerText(), /Apr 15, 2024 \(all day\)/);
  assert.doesNotMatch(await evidence.innerText(), /Apr 14/);
  const history = page.getByRole('list', { name: 'Versions, oldest first' });
  assert.match(await history.innerText(), /true since Apr 15, 2024/i);
  await checkScreen(page, 'all-day-event-memory');
  assert.deepEqual(problems, []);
});

test('a fact about the Brain\'s own person reads as theirs, not as "self …"', async () => {
  await app().api.createBrain({ id: 'me', name: 'Me', self: { type: 'person', name: 'Ana' } });
  await app().api.rememberRecord('me', {
    content: { kind: 'fact', subject: 'self', predicate: 'favourite_colour', value: 'green' },
  });
  await derivationSettled(app(), 'me');
  const colour = (await app().api.listMemories('me')).data.find((m) => m.predicate === 'favourite_colour')!;
  assert.equal(colour.statement, 'self favourite colour: green', 'stored as the engine writes it');
  const said = "Ana's favourite colour is green";

  const { page, problems } = await ui();
  await navigateInPlace(page, '/brains/me/memories');
  const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: said, exact: true }) });
  await row.waitFor();
  assert.match(await row.innerText(), /You · favourite colour/);
  await navigateInPlace(page, `/brains/me/memories/${colour.id}`);
  await page.getByRole('heading', { level: 1, name: said, exact: true }).waitFor();
  await navigateInPlace(page, '/brains/me/profile');
  await page.getByRole('link', { name: said, exact: true }).waitFor();
  await navigateInPlace(page, '/brains/me/records');
  await page.getByRole('list', { name: 'Records' }).getByText(said, { exact: true }).waitFor();
  // Nor in the quotes beside it: a fact's Record has no words but that line.
  for (const path of ['memories', `memories/${colour.id}`, 'profile', 'records']) {
    await navigateInPlace(page, `/brains/me/${path}`);
    await page
      .getByText(/favourite colour is green/)
      .first()
      .waitFor();
    assert.doesNotMatch(await page.locator('main').innerText(), /self favourite/, `${path}: no "self …"`);
  }
  assert.deepEqual(problems, []);
});

test('forgetting a Record or a Brain says what was forgotten, with the Memories that went with it', async () => {
  await app().api.createBrain({ id: 'tidy', name: 'Tidy', self: { type: 'person', name: 'Ana' } });
  await app().api.createBrain({ id: 'old', name: 'Old things' });
  const { record: note } = await app().api.rememberRecord('tidy', {
    content: { kind: 'message', speaker: 'self', text: 'I live in Porto.' },
  });
  await app().api.rememberRecord('tidy', {
    content: { kind: 'document', text: 'The bins go out on Tuesday.' },
  });
  await app().api.rememberRecord('old', { content: { kind: 'document', text: 'An old note.' } });
  await derivationSettled(app(), 'tidy');
  await derivationSettled(app(), 'old');
  const memories = (await app().api.getRecord('tidy', note.id)).memory_ids.length;
  assert.ok(memories > 0);

  const { page, problems } = await ui();
  await navigateInPlace(page, '/brains/tidy/records');
  await page
    .getByRole('listitem')
    .filter({ hasText: note.id })
    .getByRole('button', { name: /^Forget “/ })
    .click();
  await page
    .getByRole('dialog', { name: 'Forget this Record?' })
    .getByRole('button', { name: 'Forget Record' })
    .click();
  const said = page.getByRole('status').filter({ hasText: 'Forgot the Record' });
  await said.waitFor();
  assert.equal(
    await said.innerText(),
    `Forgot the Record “You: I live in Porto.”, and ${memories === 1 ? '1 Memory' : `${memories} Memories`} that rested only on it.`,
  );
  await page
    .getByRole('listitem')
    .filter({ hasText: note.id })
    .getByRole('button', { name: /^Forget “/ })
    .waitFor({ state: 'detached' });

  const census = await app().api.getCensus('old');
  await navigateInPlace(page, '/');
  await page.getByRole('button', { name: 'Forget old' }).click();
  // Named as the list and the answer name it; its short id typed before it may go.
  const dialog = page.getByRole('dialog', { name: 'Forget the Brain “Old things”?' });
  const confirm = dialog.getByRole('button', { name: 'Forget this Brain' });
  assert.equal(await confirm.isDisabled(), true, 'waits for the id');
  await dialog.getByLabel(/^Type its short id/).fill('old thing');
  assert.equal(await confirm.isDisabled(), true, 'another id is not it');
  await dialog.getByLabel(/^Type its short id/).fill('old');
  await confirm.click();
  const gone = page.getByRole('status').filter({ hasText: 'Forgot the Brain' });
  await gone.waitFor();
  assert.match(
    await gone.innerText(),
    new RegExp(
      `^Forgot the Brain “Old things” and everything in it: 1 Record, ${census.counts.memories_active} Memor(y|ies) and 0 accepted Objects\\.$`,
    ),
  );
  await checkScreen(page, 'brain-forgotten');
  assert.deepEqual(problems, []);
});

test('"Add a note" is on the first screen of Records, however many there are, also 390 px wide', async () => {
  await app().api.createBrain({ id: 'many', name: 'Many', self: { type: 'person', name: 'Ana' } });
  for (let i = 0; i < 60; i += 1)
    await app().api.rememberRecord('many', { content: { kind: 'document', text: `Note number ${i}.` } });
  const { page, problems } = await ui();
  try {
    for (const viewport of [
      { width: 1280, height: 900 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(viewport);
      await navigateInPlace(page, '/brains/many/records');
      await page.getByRole('list', { name: 'Records' }).getByRole('listitem').nth(49).waitFor();
      await page.evaluate('window.scrollTo(0, 0)');
      const field = page
        .getByRole('region', { name: 'Add a note' })
        .getByLabel('What should this Brain remember?');
      const box = (await field.boundingBox())!;
      assert.ok(
        box.y + box.height <= viewport.height,
        `${viewport.width} px: the note's field is at ${box.y} px`,
      );
      const save = (await page.getByRole('button', { name: 'Remember this' }).boundingBox())!;
      assert.ok(save.y + save.height <= viewport.height, `${viewport.width} px: Remember this is on screen`);
      const scrollWidth = await page.evaluate<number>('document.documentElement.scrollWidth');
      assert.ok(scrollWidth <= viewport.width, `${viewport.width} px: the page is ${scrollWidth} px wide`);
    }
    await checkScreen(page, 'records-add-note-390');
    // Saved, the note is said to be at the top of the list, which is below the form.
    await page.getByLabel('What should this Brain remember?').fill('The boiler was serviced in May.');
    await page.getByRole('button', { name: 'Remember this' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Note saved: it is at the top of the list below' })
      .waitFor();
    await page
      .getByRole('list', { name: 'Records' })
      .getByRole('listitem')
      .first()
      .getByText(/boiler/)
      .waitFor();
    // A message is someone's: the form asks who said it, and the Record names them.
    const addNote = page.getByRole('region', { name: 'Add a note' });
    await addNote.getByRole('combobox', { name: 'Kind' }).selectOption('message');
    await page.getByLabel('What should this Brain remember?').fill('The gym moved to Thursdays.');
    const who = addNote.getByLabel('Who said it?');
    assert.equal(await who.getAttribute('required'), '');
    await who.fill('Pedro');
    await page.getByRole('button', { name: 'Remember this' }).click();
    await page
      .getByRole('list', { name: 'Records' })
      .getByRole('listitem')
      .first()
      .getByText('Pedro: The gym moved to Thursdays.')
      .waitFor();
    // A note of what happened before today is dated then (the browser is in Los Angeles' zone).
    await addNote.getByRole('combobox', { name: 'Kind' }).selectOption('document');
    await page.getByLabel('What should this Brain remember?').fill('The roof was redone.');
    await addNote.getByLabel(/When did it happen/).fill('2018-05-01T10:00');
    await page.getByRole('button', { name: 'Remember this' }).click();
    await page
      .getByRole('list', { name: 'Records' })
      .getByRole('listitem')
      .first()
      .getByText(/roof/)
      .waitFor();
    const roof = (await app().api.listRecords('many', {})).data.find(
      (r) => r.content.kind === 'document' && r.content.text.includes('roof'),
    )!;
    assert.equal(roof.occurred_at, '2018-05-01T10:00:00-07:00');
    // Cleared once the write has settled: its Record is put on top of the list before the reads catch up.
    const when = addNote.getByLabel(/When did it happen/);
    for (const deadline = Date.now() + 5_000; (await when.inputValue()) !== '';) {
      assert.ok(Date.now() < deadline, `not cleared for the next note: ${await when.inputValue()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    await page.setViewportSize({ width: 1280, height: 900 });
  }
  assert.deepEqual(problems, []);
});

test('Ask lists the Memories an agent would be given as the engine ranked them, not by date', async () => {
  await app().api.createBrain({ id: 'ask', name: 'Ask' });
  // Written first, so learned first; it matches the question less.
  for (const text of [
    'The old oboe case is in the attic.',
    'The garden fence needs paint.',
    'Oboe lessons with Marta are on Thursdays; Marta teaches oboe lessons at the music school.',
  ])
    await app().api.rememberRecord('ask', { content: { kind: 'document', text } });
  await derivationSettled(app(), 'ask');
  const query = 'oboe lessons with Marta';
  const { context } = await app().api.createContext('ask', {
    query,
    mode: 'fast',
    include: ['memories', 'citations', 'unknowns', 'conflicts'],
  });
  assert.equal(context.status, 'ready');
  if (context.status !== 'ready') return;
  const memories = context.memories ?? [];
  const rank = [...new Set(context.citations.map((c) => c.record_id))];
  // Each Memory given cites only Records of the Context, so none ranks first by an index of -1.
  for (const m of memories)
    assert.ok(
      m.citations.every((c) => rank.includes(c.record_id)),
      m.statement,
    );
  const best = (m: (typeof memories)[number]) =>
    Math.min(...m.citations.map((c) => rank.indexOf(c.record_id)));
  const ranked = [...memories].sort((a, b) => best(a) - best(b));
  const learned = [...memories].sort((a, b) => (a.id < b.id ? -1 : 1));
  assert.ok(memories.length >= 2, 'two Memories to order');
  assert.deepEqual(
    memories.map((m) => m.statement),
    ranked.map((m) => m.statement),
    'the API lists them most relevant first',
  );
  assert.notDeepEqual(
    ranked.map((m) => m.statement),
    learned.map((m) => m.statement),
    'the ranking is not the order they were learned in (else this test could not fail)',
  );

  const { page, problems } = await ui();
  await navigateInPlace(page, '/brains/ask/ask');
  await page.getByLabel('Question').fill(query);
  await page.getByRole('button', { name: 'Ask' }).click();
  // The list under its heading (whatever list element it is), then the same list by its name.
  const given = page.locator(
    'xpath=//h3[.="What it rests on"]/following-sibling::*[self::ul or self::ol][1]',
  );
  await given.waitFor();
  assert.deepEqual(
    await given.locator(':scope > li > a').allTextContents(),
    ranked.map((m) => m.statement),
  );
  await page.getByRole('list', { name: 'What it rests on' }).waitFor();
  await checkScreen(page, 'ask-ranked-memories');
  assert.deepEqual(problems, []);
});

test("a long Record's Forget dialog fits the screen, and a Record's id opens its page", async () => {
  await app().api.createBrain({ id: 'long', name: 'Long', self: { type: 'person', name: 'Ana' } });
  const text = Array.from({ length: 900 }, (_, i) => `Line ${i} of a very long diary entry.`).join(' ');
  const { record } = await app().api.rememberRecord('long', { content: { kind: 'document', text } });
  await derivationSettled(app(), 'long');
  const { page, problems } = await ui();
  await navigateInPlace(page, '/brains/long/records');
  await page
    .getByRole('listitem')
    .filter({ hasText: record.id })
    .getByRole('button', { name: /^Forget “/ })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Forget this Record?' });
  await dialog.waitFor();
  const box = (await dialog.boundingBox())!;
  assert.ok(box.height < 900, `the dialog is ${box.height} px tall`);
  assert.ok(await dialog.getByRole('heading', { name: 'Forget this Record?' }).isVisible());
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('link', { name: record.id }).click();
  await page.waitForURL(new RegExp(`/brains/long/records/${record.id}$`));
  assert.deepEqual(problems, []);
});

test('Sign out leaves the tab signed out with nothing of its session, until a key is pasted', async () => {
  await app().api.createBrain({ id: 'out', name: 'Signed out' });
  const { page, problems } = await ui();
  await navigateInPlace(page, '/brains/out/records');
  // A note typed and not added is kept in the tab while signed in: signing out takes it too.
  await page
    .getByRole('textbox', { name: 'What should this Brain remember?' })
    .fill('A draft about the dentist.');
  const keys = async () =>
    JSON.parse(await page.evaluate<string>('JSON.stringify(Object.keys(window.sessionStorage))')) as string[];
  await pageUntil(page, 'Object.keys(window.sessionStorage).some((k) => k.includes("draft"))');
  assert.ok((await keys()).includes('mnemo.session'));
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByTestId('signed-out').waitFor();
  assert.deepEqual(await keys(), ['mnemo.signed-out']);
  await page.reload();
  await page.getByTestId('signed-out').waitFor();
  assert.equal(await page.getByRole('link', { name: 'Signed out' }).count(), 0);
  const { key } = await app().server.registry!.create({ env: 'live', project: 'local', label: 'again' });
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Open' }).click();
  await page.getByRole('link', { name: 'Signed out' }).waitFor();
  assert.deepEqual(problems, []);
});

test('Export downloads the whole Brain as mnemo export writes it, and says what it held', async () => {
  await app().api.createBrain({ id: 'kept', name: 'Kept', self: { type: 'person', name: 'Ana' } });
  const { record } = await app().api.rememberRecord('kept', {
    content: { kind: 'message', speaker: 'self', text: 'I moved to Braga in 2022.' },
    visibility: 'local_only',
  });
  await app().api.acceptObject('kept', { type: 'prefs', key: 'units', value: 'metric', if_version: null });
  await derivationSettled(app(), 'kept');
  const memories = (await app().api.listMemories('kept', { status: 'all' })).data;
  assert.ok(memories.length > 0);

  const { page, problems } = await ui();
  await navigateInPlace(page, '/');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export kept' }).click(),
  ]);
  assert.equal(download.suggestedFilename(), 'kept.jsonl');
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  const lines = Buffer.concat(chunks)
    .toString('utf8')
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as { object: string; id?: string });
  assert.deepEqual(
    lines.map((l) => l.object),
    ['mnemo_export', 'record', ...memories.map(() => 'memory'), 'object', 'export_end'],
  );
  // The person's own export holds what stays on this device too.
  assert.equal(lines[1]!.id, record.id);
  assert.deepEqual(lines.at(-1), {
    object: 'export_end',
    records: 1,
    memories: memories.length,
    objects: 1,
    left_out: { records: 0, memories: 0 },
  });
  const said = page.getByRole('status').filter({ hasText: 'Exported' });
  await said.waitFor();
  assert.equal(
    await said.innerText(),
    `Exported 1 Record, ${memories.length === 1 ? '1 Memory' : `${memories.length} Memories`} and 1 Object of “Kept” as kept.jsonl. ` +
      'The file is not encrypted: keep it where you keep private papers.',
  );
  await page.getByRole('button', { name: 'Export kept' }).waitFor();
  assert.deepEqual(problems, []);
});
