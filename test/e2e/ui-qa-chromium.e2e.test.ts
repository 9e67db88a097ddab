// Checked in the real UI, from a QA pass in Chromium: every button keeps its words readable when
// hovered, pressed or focused; a fact Record's line reads in a fact's words as evidence; a folder and a
// file chosen on Import add up; a Record's actions are named by words; charts and long headings stay
// readable at 400 px; the Whose filter takes what the table shows. One server and one browser for the
// file; each test on its own Brain.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { appPerFile, browserPerFile, checkScreen, derivationSettled, navigateInPlace } from './harness.ts';

const context = browserPerFile();
const { app, ui } = appPerFile(context, 'local');

type Rgba = [number, number, number, number];

const parse = (css: string): Rgba => {
  const n = css.match(/[\d.]+/g)?.map(Number) ?? [];
  assert.ok(n.length >= 3, `a colour: ${css}`);
  return [n[0]!, n[1]!, n[2]!, n[3] ?? 1];
};
const luminance = ([r, g, b]: Rgba) => {
  const c = [r, g, b].map((v) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * c[0]! + 0.7152 * c[1]! + 0.0722 * c[2]!;
};
/** WCAG's contrast ratio of two opaque colours. */
const contrast = (a: Rgba, b: Rgba) => {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x! + 0.05) / (y! + 0.05);
};

/** The button's text colour and the colour behind it (its own, or the first opaque ancestor's). */
async function colours(button: Locator): Promise<{ text: Rgba; back: Rgba; name: string }> {
  // The page's globals through the element: the Node types this file is checked with have no DOM.
  const read = (await button.evaluate((el) => {
    const view = el.ownerDocument.defaultView!;
    let back = 'rgba(0, 0, 0, 0)';
    for (let e: typeof el | null = el; e; e = e.parentElement) {
      const bg = view.getComputedStyle(e).backgroundColor;
      if (!/rgba\(.*, 0\)$/.test(bg) && bg !== 'transparent') {
        back = bg;
        break;
      }
    }
    return { text: view.getComputedStyle(el).color, back, name: el.textContent ?? '' };
  })) as { text: string; back: string; name: string };
  return { text: parse(read.text), back: parse(read.back), name: read.name.trim() };
}

async function readable(button: Locator, state: string): Promise<void> {
  const { text, back, name } = await colours(button);
  const ratio = contrast(text, back);
  assert.ok(ratio >= 4.5, `"${name}" ${state}: contrast ${ratio.toFixed(2)} (${text} on ${back})`);
}

test('every button keeps its words readable when hovered, pressed and focused', async () => {
  await app().api.createBrain({ id: 'hover', name: 'Hover' });
  const { page, problems } = await ui();
  await navigateInPlace(page, '/');
  // The Brains page holds a plain button (Sign out), a primary one (Create Brain) and a subtle danger one.
  const forget = page.getByRole('button', { name: 'Forget hover' });
  await forget.waitFor();
  for (const button of [
    page.getByRole('button', { name: 'Sign out' }),
    page.getByRole('button', { name: 'Create Brain' }),
    forget,
  ]) {
    await readable(button, 'at rest');
    await button.hover();
    await readable(button, 'hovered');
  }
  await forget.click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(/^Type its short id/).fill('hover');
  const confirm = dialog.getByRole('button', { name: 'Forget this Brain' });
  await readable(confirm, 'at rest');
  await confirm.hover();
  await readable(confirm, 'hovered');
  const { text, back } = await colours(confirm);
  assert.notDeepEqual(back, parse('rgb(240, 242, 244)'), "not the plain buttons' hover grey");
  assert.deepEqual(text, parse('rgb(255, 255, 255)'));
  // Pressed, and let go elsewhere: no click, nothing forgotten.
  await page.mouse.down();
  await readable(confirm, 'pressed');
  await dialog.getByRole('heading').hover();
  await page.mouse.up();
  await checkScreen(page, 'danger-button-hovered');
  // Focused from the keyboard (the mouse away), with its focus ring.
  await page.mouse.move(0, 0);
  await dialog.getByRole('button', { name: 'Cancel' }).focus();
  await page.keyboard.press('Tab');
  assert.equal(
    await confirm.evaluate((el) => el === el.ownerDocument.activeElement && el.matches(':focus-visible')),
    true,
  );
  await readable(confirm, 'focused');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  assert.equal((await app().api.getBrain('hover')).id, 'hover');
  assert.deepEqual(problems, []);
});

test("a fact Record cited by a Memory in other words reads in a fact's words on its page and Profile", async () => {
  const api = app().api;
  await api.createBrain({ id: 'tokyo', name: 'Tokyo', self: { type: 'person', name: 'Lucía' } });
  await api.rememberRecord('tokyo', {
    content: { kind: 'message', speaker: 'self', text: 'I live in Tokyo' },
  });
  await derivationSettled(app(), 'tokyo');
  await api.rememberRecord('tokyo', {
    content: { kind: 'fact', subject: 'self', predicate: 'home_city', value: 'Tokyo' },
  });
  await derivationSettled(app(), 'tokyo');
  const lives = (await api.listMemories('tokyo')).data.find((m) => m.statement === 'Lucía lives in Tokyo');
  assert.ok(lives, 'the sentence holds the slot');
  const { page, problems } = await ui();
  await navigateInPlace(page, `/brains/tokyo/memories/${lives.id}`);
  const evidence = page.locator('section[aria-labelledby="evidence"]');
  await evidence.getByText("Lucía's home city is Tokyo").waitFor();
  assert.doesNotMatch(await evidence.innerText(), /self home city/);
  await navigateInPlace(page, '/brains/tokyo/profile');
  const profile = page.locator('section[aria-labelledby="profile"]');
  await profile.getByText("Lucía's home city is Tokyo").waitFor();
  assert.doesNotMatch(await profile.innerText(), /self home city/);
  assert.deepEqual(problems, []);
});

test('the Profile shows health first, under its heading, then the slots and the rest, each a list named by it', async () => {
  const api = app().api;
  await api.createBrain({ id: 'groups', name: 'Groups', self: { type: 'person', name: 'Rita' } });
  for (const [text, day] of [
    ["I'm allergic to penicillin.", 1],
    ['I live in Porto.', 2],
    ['I love jazz.', 3],
  ] as const)
    await api.rememberRecord('groups', {
      content: { kind: 'message', speaker: 'self', text },
      occurred_at: `2024-01-0${day}T10:00:00Z`,
    });
  await derivationSettled(app(), 'groups');
  const { page, problems } = await ui();
  await navigateInPlace(page, '/brains/groups/profile');
  const profile = page.locator('section[aria-labelledby="profile"]');
  const health = profile.getByRole('list', { name: 'Health' });
  await health.getByText("I'm allergic to penicillin.").waitFor();
  assert.deepEqual(await profile.getByRole('heading', { level: 3 }).allInnerTexts(), [
    'Health',
    'Home, work, people and other details',
    'Everything else',
  ]);
  await profile
    .getByRole('list', { name: 'Home, work, people and other details' })
    .getByText('Rita lives in Porto')
    .waitFor();
  await profile.getByRole('list', { name: 'Everything else' }).getByText('I love jazz.').waitFor();
  assert.deepEqual(problems, []);
});

test('a folder and then a file chosen on Import add up, and the list says what is sent', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-e2e-choose-'));
  const vault = join(dir, 'Vault');
  mkdirSync(vault);
  for (const name of ['a', 'b', 'c'])
    writeFileSync(join(vault, `${name}.md`), `# ${name}\n\nNote ${name}.\n`);
  const lone = join(dir, 'lone.md');
  writeFileSync(lone, '# Lone\n\nA note on its own.\n');
  await app().api.createBrain({ id: 'choose', name: 'Choose' });
  const { page, problems } = await ui();
  await navigateInPlace(page, '/brains/choose/import');
  await page.getByLabel('A folder (a vault, a Slack export)').setInputFiles(vault);
  await page.getByText(/^3 files chosen/).waitFor();
  await page.getByLabel('Files', { exact: true }).setInputFiles([lone]);
  await page.getByText(/^4 files chosen/).waitFor();
  const list = page.getByRole('list', { name: 'Chosen files' });
  // Each item is its path and its Remove button.
  assert.deepEqual((await list.getByRole('listitem').locator('.mono').allInnerTexts()).sort(), [
    'Vault/a.md',
    'Vault/b.md',
    'Vault/c.md',
    'lone.md',
  ]);
  await page.getByRole('button', { name: 'Import 4 files' }).click();
  await page
    .locator('.import-summary')
    .getByText(/4 new items imported/)
    .waitFor();
  // Sent: the list and both boxes start again, so the next choice is not added to this one.
  await page.getByText('Nothing chosen yet.').waitFor();
  for (const label of ['Files', 'A folder (a vault, a Slack export)'])
    assert.equal(
      (await page
        .getByLabel(label, { exact: true })
        .evaluate((i) => (i as { files: { length: number } }).files.length)) as number,
      0,
    );
  rmSync(dir, { recursive: true, force: true });
  assert.deepEqual(problems, []);
});

test("a Record's Forget button is named by its words, its page's Memory links by theirs, not by ids", async () => {
  const api = app().api;
  await api.createBrain({ id: 'names', name: 'Names', self: { type: 'person', name: 'Ana' } });
  const { record } = await api.rememberRecord('names', {
    content: { kind: 'message', speaker: 'self', text: 'I live in Porto and I work at Acme.' },
  });
  await derivationSettled(app(), 'names');
  const { memory_ids: ids } = await api.getRecord('names', record.id);
  assert.ok(ids.length >= 2, `two Memories from one Record: ${ids.length}`);
  const statements = await Promise.all(ids.map(async (id) => (await api.getMemory('names', id)).statement));
  const { page, problems } = await ui();
  await navigateInPlace(page, '/brains/names/records');
  const row = page.getByRole('list', { name: 'Records' }).getByRole('listitem');
  await row
    .getByRole('button', { name: 'Forget “You: I live in Porto and I work at Acme.”', exact: true })
    .waitFor();
  assert.equal(await row.getByRole('button', { name: new RegExp(record.id) }).count(), 0);
  // The list reads no Memory for its links (a request per Memory of every row): their numbers name them.
  for (const i of ids.keys())
    await row.getByRole('link', { name: `${i + 1} of ${ids.length}`, exact: true }).waitFor();
  await checkScreen(page, 'records-named-actions');
  // The Record's own page reads its Memories: each link is named by what it says.
  await navigateInPlace(page, `/brains/names/records/${record.id}`);
  for (const [i, statement] of statements.entries())
    await page.getByRole('link', { name: `${i + 1} of ${ids.length}: ${statement}`, exact: true }).waitFor();
  assert.deepEqual(problems, []);
});

test('at 400 px a chart keeps legible text and a long statement is no page-long heading', async () => {
  const api = app().api;
  await api.createBrain({ id: 'narrow', name: 'Narrow', self: { type: 'person', name: 'Ana' } });
  const motto = Array.from({ length: 40 }, (_, i) => `part ${i} of a very long motto`).join(', ');
  await api.rememberRecord('narrow', {
    content: { kind: 'fact', subject: 'self', predicate: 'motto', value: motto },
  });
  // A calendar event is not sure whose: the census has a noise chart to draw.
  await api.rememberRecord('narrow', {
    content: { kind: 'event', title: 'Team lunch', starts_at: '2026-03-01T12:00:00Z' },
  });
  await derivationSettled(app(), 'narrow');
  const long = (await api.listMemories('narrow')).data.find((m) => m.predicate === 'motto');
  assert.ok(long);
  const { page, problems } = await ui();
  await page.setViewportSize({ width: 400, height: 800 });
  try {
    await navigateInPlace(page, '/brains/narrow/profile');
    const chart = page.locator('figure.chart svg').first();
    await chart.waitFor();
    const drawn = (await chart.evaluate((svg) => {
      const view = svg.ownerDocument.defaultView!;
      const box = (svg as unknown as { viewBox: { baseVal: { width: number } } }).viewBox.baseVal;
      const scale = svg.getBoundingClientRect().width / box.width;
      const sizes = [...svg.querySelectorAll('text')].map(
        (t) => parseFloat(view.getComputedStyle(t).fontSize) * scale,
      );
      return {
        smallest: Math.min(...sizes),
        right: svg.getBoundingClientRect().right,
        window: view.innerWidth,
      };
    })) as { smallest: number; right: number; window: number };
    assert.ok(drawn.smallest >= 11, `chart text drawn at ${drawn.smallest.toFixed(1)} px`);
    assert.ok(drawn.right <= drawn.window, `the chart ends at ${drawn.right} px of ${drawn.window}`);
    await checkScreen(page, 'chart-narrow');

    await navigateInPlace(page, `/brains/narrow/memories/${long.id}`);
    const heading = page.getByRole('heading', { level: 1 });
    await heading.waitFor();
    const lines = await heading.evaluate(
      (h) =>
        h.getBoundingClientRect().height /
        parseFloat(h.ownerDocument.defaultView!.getComputedStyle(h).lineHeight),
    );
    assert.ok(lines <= 5, `the heading is ${lines.toFixed(1)} lines`);
    // The whole statement is one press away, as text.
    await page.getByText(/^The whole statement/).click();
    await page.locator('.statement-whole p').getByText('part 39 of a very long motto').waitFor();
    await checkScreen(page, 'memory-long-statement-narrow');
  } finally {
    await page.setViewportSize({ width: 1280, height: 900 });
  }
  assert.deepEqual(problems, []);
});

test('Whose takes what the table shows, the name without its accent, and the same words in the address', async () => {
  const api = app().api;
  await api.createBrain({ id: 'owners', name: 'Owners', self: { type: 'person', name: 'Lucía' } });
  await api.rememberRecord('owners', {
    content: { kind: 'fact', subject: 'self', predicate: 'home_city', value: 'Tokyo' },
  });
  await api.rememberRecord('owners', { content: { kind: 'document', text: 'Tide tables for June.' } });
  await derivationSettled(app(), 'owners');
  const { page, problems } = await ui();
  await navigateInPlace(page, '/brains/owners/memories');
  const table = page.getByRole('table');
  const mine = table.getByRole('link', { name: "Lucía's home city is Tokyo" });
  await mine.waitFor();
  const shown = (
    await table
      .getByRole('row')
      .filter({ hasText: "Lucía's home city is Tokyo" })
      .getByRole('cell')
      .nth(1)
      .innerText()
  ).trim();
  assert.equal(shown, 'Lucía (you)');
  for (const typed of [shown, 'lucia', 'you']) {
    await navigateInPlace(page, '/brains/owners/memories');
    await table.getByText('Tide tables for June.').waitFor();
    await page.getByLabel('Whose').fill(typed);
    await page.getByRole('button', { name: 'Search' }).click();
    await table.getByText('Tide tables for June.').waitFor({ state: 'detached' });
    await mine.waitFor();
  }
  for (const owner of ['you', 'Lucía (you)']) {
    await navigateInPlace(page, `/brains/owners/memories?owner=${encodeURIComponent(owner)}`);
    await mine.waitFor();
    assert.equal(await table.getByText('Tide tables for June.').count(), 0, owner);
  }
  assert.deepEqual(problems, []);
});

test('Memories open newest first, a new one comes on top, and Oldest first is kept in the address', async () => {
  const api = app().api;
  await api.createBrain({ id: 'newest', name: 'Newest', self: { type: 'person', name: 'Ana' } });
  // One at a time, so the Memories' ids follow the order written.
  for (const text of ['Note one: the boat.', 'Note two: the garden.', 'Note three: the kettle.']) {
    await api.rememberRecord('newest', { content: { kind: 'document', text } });
    await derivationSettled(app(), 'newest');
  }
  const { page, problems } = await ui();
  const statements = page.getByRole('table', { name: 'Memories' }).locator('tbody tr td:first-child');
  /** Waits until the table's statements name these notes, in this order. */
  const listed = async (notes: string[]) => {
    const deadline = Date.now() + 10_000;
    let seen: string[] = [];
    while (Date.now() < deadline) {
      seen = (await statements.allInnerTexts()).map((s) => s.match(/Note (\w+)/)?.[1] ?? s);
      if (JSON.stringify(seen) === JSON.stringify(notes)) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.deepEqual(seen, notes);
  };
  await navigateInPlace(page, '/brains/newest/memories');
  await listed(['three', 'two', 'one']);
  const order = page.getByRole('combobox', { name: 'Order' });
  assert.equal(await order.inputValue(), 'desc', 'newest first unless asked');
  // Learned while the list is open: on top, where the order puts it, not at the bottom.
  await api.rememberRecord('newest', { content: { kind: 'document', text: 'Note four: the lamp.' } });
  await listed(['four', 'three', 'two', 'one']);
  await checkScreen(page, 'memories-newest-first');
  await order.selectOption({ label: 'Oldest first' });
  await page.getByRole('button', { name: 'Search' }).click();
  await listed(['one', 'two', 'three', 'four']);
  assert.match(page.url(), /\/brains\/newest\/memories\?order=asc$/);
  // The address keeps the choice: opened from it, the list and the form say oldest first.
  await navigateInPlace(page, '/brains/newest');
  await listed(['four', 'three', 'two', 'one']);
  await navigateInPlace(page, '/brains/newest/memories?order=asc');
  await listed(['one', 'two', 'three', 'four']);
  assert.equal(await order.inputValue(), 'asc');
  assert.deepEqual(problems, []);
});

test("dark mode follows the system's scheme: a dark page, form controls with it, and text kept readable", async () => {
  const api = app().api;
  await api.createBrain({ id: 'dark', name: 'Dark', self: { type: 'person', name: 'Ana' } });
  for (const [value, source] of [
    ['Porto', 'phone'],
    ['Lisbon', 'laptop'],
  ] as const) {
    await api.rememberRecord('dark', {
      content: { kind: 'fact', subject: 'self', predicate: 'home_city', value },
      source: { name: source },
      occurred_at: '2024-01-01T00:00:00Z',
    });
  }
  await derivationSettled(app(), 'dark');
  const { page, problems } = await ui();
  /** The page's ground, the body's text colour, and whether a select is drawn dark too. */
  const painted = async () => {
    const read = (await page.evaluate(`(() => {
      const root = getComputedStyle(document.documentElement);
      const select = document.querySelector('select');
      return {
        ground: root.backgroundColor,
        text: root.color,
        scheme: select ? getComputedStyle(select).colorScheme : '',
        field: select ? getComputedStyle(select).backgroundColor : '',
      };
    })()`)) as { ground: string; text: string; scheme: string; field: string };
    return { ...read, ground: parse(read.ground), text: parse(read.text), field: parse(read.field) };
  };
  try {
    await navigateInPlace(page, '/');
    await page.getByRole('heading', { level: 2, name: 'Create a Brain' }).waitFor();
    const day = await painted();
    await page.emulateMedia({ colorScheme: 'dark' });
    const night = await painted();
    assert.notDeepEqual(night.ground, day.ground, 'the page is not the same as in light mode');
    assert.ok(luminance(night.ground) < 0.05, `a dark ground: ${night.ground.join(', ')}`);
    assert.ok(luminance(night.field) < 0.05, `a dark select: ${night.field.join(', ')}`);
    assert.match(night.scheme, /dark/, 'form controls follow the scheme');
    const ratio = contrast(night.text, night.ground);
    assert.ok(ratio >= 4.5, `text on the ground: ${ratio.toFixed(2)}`);
    for (const button of [
      page.getByRole('button', { name: 'Sign out' }),
      page.getByRole('button', { name: 'Create Brain' }),
      page.getByRole('button', { name: 'Forget dark' }),
    ]) {
      await readable(button, 'at rest, dark');
      await button.hover();
      await readable(button, 'hovered, dark');
    }
    // Every text of these screens against its ground (axe's color-contrast, WCAG AA), a warning's amber
    // and the Conflicts count among them.
    await checkScreen(page, 'dark-brains');
    await navigateInPlace(page, '/brains/dark/memories');
    await page.getByRole('link', { name: "Ana's home city is Porto" }).waitFor();
    await checkScreen(page, 'dark-memories');
    await navigateInPlace(page, '/brains/dark/conflicts');
    await page.getByRole('button', { name: /^Keep this one.*Lisbon$/ }).waitFor();
    await checkScreen(page, 'dark-conflicts');
    assert.deepEqual(problems, []);
  } finally {
    await page.emulateMedia({ colorScheme: null });
  }
});
