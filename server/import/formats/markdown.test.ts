import assert from 'node:assert/strict';
import { realpathSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { test } from 'node:test';
import { importIdempotencyKey, importItemKey } from '../idempotency-key.ts';
import { parsers } from '../run-import.ts';
import { collect, writeTree } from '../test-support.ts';
import { parseMarkdown } from './markdown.ts';

test('an Obsidian vault: front matter, tags, wikilinks, one document per note', async () => {
  const vault = writeTree({
    '.obsidian/workspace.json': '{}',
    '.obsidian/snippets/notes.md': '# tool state, not a note',
    'Daily/2024-03-04.md':
      '---\r\ntitle: Monday\r\ntags: [journal, health]\r\ndate: 2024-03-04T08:15:00+01:00\r\n---\r\n' +
      'Ran 5 km with [[Ana Souza|Ana]] before work. #running\r\n\r\nSee [[Training plan#Week 3]].\r\n',
    'People/Ana Souza.md':
      '# Ana Souza\n\nMy sister. Lives in Lisbon. Phone in [[Contacts]].\n\n```\n#not-a-tag in code\n```\n',
    'Empty.md': '---\ntitle: nothing here\n---\n\n',
    'Danger.md': '---js\n{ title: require("fs").writeFileSync("/tmp/pwned", "x") }\n---\nbody\n',
    // Windows-1252 bytes, as an old editor saved them: "Café crème"
    'Legacy.md': Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x20, 0x63, 0x72, 0xe8, 0x6d, 0x65, 0x0a]),
  });
  utimesSync(
    join(vault.root, 'People/Ana Souza.md'),
    new Date('2023-11-02T10:00:00Z'),
    new Date('2023-11-02T10:00:00Z'),
  );
  try {
    const { records, skips } = await collect(parseMarkdown(vault.root, {}));
    assert.deepEqual(records.map((r) => r.ref).sort(), [
      'Daily/2024-03-04.md',
      'Danger.md',
      'Legacy.md',
      'People/Ana Souza.md',
    ]);
    const daily = records.find((r) => r.ref === 'Daily/2024-03-04.md')!.body;
    assert.equal(daily.source.name, 'obsidian');
    // A vault's note goes by the vault's folder name and its path in the vault.
    const vaultName = basename(realpathSync(vault.root));
    assert.equal(daily.source.external_id, `${vaultName}/Daily/2024-03-04.md`);
    assert.equal(daily.occurred_at, '2024-03-04T08:15:00+01:00', 'front matter date, with its offset kept');
    assert.ok(typeof daily.content === 'object' && daily.content.kind === 'document');
    assert.equal(daily.content.title, 'Monday');
    assert.match(daily.content.text, /^Ran 5 km with \[\[Ana Souza\|Ana\]\] before work\. #running/);
    assert.match(
      daily.content.text,
      /\nTags: #journal #health #running\nLinks: \[\[Ana Souza\]\] \[\[Training plan\]\]$/,
    );

    const ana = records.find((r) => r.ref === 'People/Ana Souza.md')!.body;
    assert.ok(typeof ana.content === 'object' && ana.content.kind === 'document');
    assert.equal(ana.content.title, 'Ana Souza', 'first heading when front matter has no title');
    assert.equal(ana.occurred_at, '2023-11-02T10:00:00.000Z', 'file time when front matter has no date');
    assert.doesNotMatch(ana.content.text, /Tags:/, 'a #word inside code is not a tag');

    const legacy = records.find((r) => r.ref === 'Legacy.md')!.body;
    assert.ok(typeof legacy.content === 'object' && legacy.content.kind === 'document');
    assert.equal(legacy.content.text, 'Café crème');
    assert.equal(legacy.content.title, 'Legacy');

    // A `---js` block is never run: the note comes without it, saying so.
    const danger = records.find((r) => r.ref === 'Danger.md')!;
    assert.ok(typeof danger.body.content === 'object' && danger.body.content.kind === 'document');
    assert.equal(danger.body.content.text, 'body');
    assert.equal(danger.note, 'front matter not read (only YAML front matter is read); imported without it');

    assert.deepEqual(
      skips.map((s) => [s.ref, s.reason]),
      [['Empty.md', 'empty note']],
    );
  } finally {
    vault.remove();
  }
});

test('a single Markdown file', async () => {
  const t = writeTree({ 'note.md': 'Buy oat milk' });
  try {
    const { records } = await collect(parseMarkdown(join(t.root, 'note.md'), {}));
    assert.equal(records.length, 1);
    assert.equal(records[0]!.ref, 'note.md');
    assert.equal(records[0]!.body.source.name, 'markdown');
    assert.equal(records[0]!.body.source.external_id, realpathSync(join(t.root, 'note.md')));
  } finally {
    t.remove();
  }
});

test('a note is one item however it is imported; two notes of one name are two items', async () => {
  const t = writeTree({
    'a/todo.md': '# Todo\nBuy oat milk ALPHAITEM\n',
    'b/todo.md': '# Todo\nCall the plumber BETAITEM\n',
    'folder/sub/n.md': 'A plain note\n',
    'Vault/.obsidian/app.json': '{}',
    'Vault/sub/n.md': 'A vault note\n',
  });
  // [source.name, external_id, Idempotency-Key] of each note read from PATH in FORMAT.
  const read = async (path: string, format: 'markdown' | 'obsidian' = 'markdown') =>
    (await collect(parsers[format](join(t.root, path), {}))).records.map((r) => [
      r.body.source.name,
      r.body.source.external_id,
      importIdempotencyKey(r.body),
    ]);
  try {
    const [a] = await read('a/todo.md');
    const [b] = await read('b/todo.md');
    assert.equal(a![1], realpathSync(join(t.root, 'a/todo.md')));
    assert.equal(b![1], realpathSync(join(t.root, 'b/todo.md')));
    assert.notEqual(a![1], b![1], 'same name, different files');

    const plain = [realpathSync(join(t.root, 'folder/sub/n.md'))];
    for (const ways of [
      await read('folder/sub/n.md'),
      await read('folder/sub'),
      await read('folder'),
      await read('folder', 'obsidian'),
    ])
      assert.deepEqual(
        ways.map(([source, id]) => [source, id]),
        [['markdown', ...plain]],
      );

    const inVault = await read('Vault/sub/n.md');
    assert.deepEqual(
      inVault.map(([source, id]) => [source, id]),
      [['obsidian', 'Vault/sub/n.md']],
      'in a vault: the vault folder name and the path in the vault, even for the file alone',
    );
    for (const ways of [await read('Vault/sub'), await read('Vault'), await read('Vault', 'obsidian')])
      assert.deepEqual(ways, inVault, 'the same Record, so a re-import replays it');
  } finally {
    t.remove();
  }
});

test('a note dated only by its file: the file time is not content, so touching the file keeps its key', async () => {
  const t = writeTree({
    'plain.md': '# Plain\nNo date of its own.\n',
    'dated.md': '---\ndate: 2024-02-01T09:00:00Z\n---\nDated in its front matter.\n',
  });
  const file = (name: string) => join(t.root, name);
  const read = async (name: string) => (await collect(parseMarkdown(file(name), {}))).records[0]!;
  const touch = (name: string, iso: string) => utimesSync(file(name), new Date(iso), new Date(iso));
  try {
    touch('plain.md', '2024-01-01T00:00:00Z');
    const first = await read('plain.md');
    assert.equal(first.body.occurred_at, '2024-01-01T00:00:00.000Z', 'still dated by the file');
    assert.equal(first.occurredAtInKey, null, 'left out of the key');

    touch('plain.md', '2025-06-01T12:00:00Z');
    const touched = await read('plain.md');
    assert.equal(touched.body.occurred_at, '2025-06-01T12:00:00.000Z');
    assert.equal(importItemKey(touched), importItemKey(first), 'same note, same key');

    writeFileSync(file('plain.md'), '# Plain\nNo date of its own, and now edited.\n');
    touch('plain.md', '2025-06-01T12:00:00Z');
    assert.notEqual(importItemKey(await read('plain.md')), importItemKey(first), 'new text, new key');

    // A date the note writes itself is content: changing it is a change.
    const dated = await read('dated.md');
    assert.equal(dated.occurredAtInKey, undefined);
    writeFileSync(file('dated.md'), '---\ndate: 2024-02-02T09:00:00Z\n---\nDated in its front matter.\n');
    assert.notEqual(importItemKey(await read('dated.md')), importItemKey(dated));
  } finally {
    t.remove();
  }
});

test('a note dated by a day alone has one key in every zone; a time keeps its instant in the key', async () => {
  const t = writeTree({
    'day.md': '---\ndate: 2024-04-02\n---\nFlights booked.\n',
    'numeric.md': '---\ndate: 02.04.2024\n---\nFlights booked.\n',
    'wall.md': '---\ndate: 2024-04-02 10:30\n---\nFlights booked.\n',
    'offset.md': '---\ndate: 2024-04-02T10:30:00+01:00\n---\nFlights booked.\n',
  });
  const read = async (name: string, timeZone: string, dateOrder?: 'dmy' | 'mdy') =>
    (await collect(parseMarkdown(join(t.root, name), { timeZone, ...(dateOrder ? { dateOrder } : {}) })))
      .records[0]!;
  try {
    for (const name of ['day.md', 'numeric.md']) {
      const lisbon = await read(name, 'Europe/Lisbon');
      const utc = await read(name, 'UTC');
      assert.equal(
        lisbon.body.occurred_at,
        '2024-04-02T00:00:00+01:00',
        `${name}: the day's start in the zone, written with its offset`,
      );
      assert.equal(utc.body.occurred_at, '2024-04-02T00:00:00.000Z');
      assert.equal(lisbon.occurredAtInKey, '2024-04-02T00:00:00.000Z', `${name}: keyed as read in UTC`);
      assert.equal(importItemKey(lisbon), importItemKey(utc), `${name}: the zone is not part of the note`);
    }
    // Another day is another note; a numeric date read in another order is another day.
    writeFileSync(join(t.root, 'day.md'), '---\ndate: 2024-04-03\n---\nFlights booked.\n');
    assert.notEqual(
      importItemKey(await read('day.md', 'UTC')),
      importItemKey(await read('numeric.md', 'UTC')),
    );
    writeFileSync(join(t.root, 'slash.md'), '---\ndate: 04/02/2024\n---\nFlights booked.\n');
    assert.notEqual(
      importItemKey(await read('slash.md', 'UTC', 'mdy')),
      importItemKey(await read('slash.md', 'UTC', 'dmy')),
    );
    // A time of day, with or without an offset, is keyed by its instant as UTC writes it, as before,
    // whatever offset its occurred_at keeps.
    const [wallLisbon, wallUtc] = [await read('wall.md', 'Europe/Lisbon'), await read('wall.md', 'UTC')];
    assert.equal(wallLisbon.body.occurred_at, '2024-04-02T10:30:00+01:00');
    assert.equal(wallLisbon.occurredAtInKey, '2024-04-02T09:30:00.000Z');
    assert.equal(wallUtc.occurredAtInKey, undefined);
    assert.notEqual(importItemKey(wallLisbon), importItemKey(wallUtc));
    const offset = await read('offset.md', 'Asia/Tokyo');
    assert.deepEqual(
      [offset.body.occurred_at, offset.occurredAtInKey],
      ['2024-04-02T10:30:00+01:00', '2024-04-02T09:30:00.000Z'],
    );
    assert.equal(
      importItemKey(offset),
      importItemKey({
        ...offset,
        body: { ...offset.body, occurred_at: '2024-04-02T09:30:00.000Z' },
        occurredAtInKey: undefined,
      }),
    );
  } finally {
    t.remove();
  }
});

test('keys of notes dated by a time, by their file or by a day read in UTC are the ones stored before', () => {
  // Computed by the Idempotency-Key before a day alone was keyed zone-free: existing stores replay them.
  const body = (occurred_at: string) => ({
    content: { kind: 'document' as const, title: 'Trip', text: 'Flights booked.' },
    source: { name: 'markdown', external_id: 'markdown:/notes/trip.md' },
    occurred_at,
  });
  assert.equal(
    importIdempotencyKey(body('2024-04-02T09:30:00.000Z')),
    'imp_72hzAsWOMMnNdIRu4tM8e1OSZw_6eTigZHUe2cPsRy4',
  );
  assert.equal(
    importIdempotencyKey(body('2023-01-01T00:00:00.000Z'), { occurredAtInKey: null }),
    'imp_Xu-e2eN2mSEJxFLDc7tvIoSYUkMU0b-G2bKLALlTf2M',
  );
  assert.equal(
    importIdempotencyKey(body('2024-04-01T23:00:00.000Z'), { occurredAtInKey: '2024-04-02T00:00:00.000Z' }),
    'imp_Bwf0M4lo1eOYOAh0Irm0YK_gBffXfn918xkfXzy5thA',
  );
});

test('front-matter times without an offset are wall-clock time in the import zone, parsed by YAML or not', async () => {
  const t = writeTree({
    'yaml-timestamp.md': '---\ncreated: 2024-01-05 10:30:00\n---\nA\n',
    'string.md': '---\ncreated: 2024-01-05 10:30\n---\nB\n',
    'quoted.md': '---\n"date": "2024-01-05T10:30"   # as typed\n---\nC\n',
    'date-only.md': '---\ndate: 2024-01-05\n---\nD\n',
    'offset.md': '---\ndate: 2024-01-05T10:30:00+01:00\n---\nE\n',
    'utc.md': '---\nupdated: 2024-01-05 10:30:00.250Z\n---\nF\n',
    'impossible.md': '---\ndate: 2024-02-30\ncreated: 2024-01-05 10:30\n---\nG\n',
  });
  const machineZone = process.env.TZ;
  const times = async (o: { timeZone?: string }) =>
    Object.fromEntries(
      (await collect(parseMarkdown(t.root, o))).records.map((r) => [r.ref, r.body.occurred_at]),
    );
  try {
    assert.deepEqual(await times({ timeZone: 'America/New_York' }), {
      'date-only.md': '2024-01-05T00:00:00-05:00',
      'impossible.md': '2024-01-05T10:30:00-05:00',
      'offset.md': '2024-01-05T10:30:00+01:00',
      'quoted.md': '2024-01-05T10:30:00-05:00',
      'string.md': '2024-01-05T10:30:00-05:00',
      'utc.md': '2024-01-05T10:30:00.250Z',
      'yaml-timestamp.md': '2024-01-05T10:30:00-05:00',
    });
    // Without --time-zone, this machine's zone, for both spellings alike (a zone that is not UTC, so
    // the UTC js-yaml gives a timestamp would show).
    process.env.TZ = 'Asia/Kolkata';
    const local = await times({});
    assert.deepEqual(
      [local['yaml-timestamp.md'], local['string.md'], local['date-only.md']],
      ['2024-01-05T10:30:00+05:30', '2024-01-05T10:30:00+05:30', '2024-01-05T00:00:00+05:30'],
    );
  } finally {
    if (machineZone === undefined) delete process.env.TZ;
    else process.env.TZ = machineZone;
    t.remove();
  }
});

test("numeric front-matter dates: dots are day first, a part over 12 decides, else the import's date order", async () => {
  const t = writeTree({
    'dots.md': '---\ndate: 05.01.2024\n---\nA\n',
    'day-over-12.md': '---\ndate: 25/01/2024\n---\nB\n',
    'month-first.md': '---\ndate: 01/25/2024 10:30\n---\nC\n',
    'ambiguous.md': '---\ndate: 05/01/2024\n---\nD\n',
    'no-such-day.md': '---\ndate: 31/02/2024\ncreated: 2024-01-05\n---\nE\n',
  });
  const times = async (o: { dateOrder?: 'dmy' | 'mdy' }) =>
    Object.fromEntries(
      (await collect(parseMarkdown(t.root, { timeZone: 'UTC', ...o }))).records.map((r) => [
        r.ref,
        r.body.occurred_at,
      ]),
    );
  try {
    const byDefault = await times({});
    assert.deepEqual(byDefault, {
      'ambiguous.md': '2024-05-01T00:00:00.000Z',
      'day-over-12.md': '2024-01-25T00:00:00.000Z',
      'dots.md': '2024-01-05T00:00:00.000Z',
      'month-first.md': '2024-01-25T10:30:00.000Z',
      'no-such-day.md': '2024-01-05T00:00:00.000Z',
    });
    const dayFirst = await times({ dateOrder: 'dmy' });
    assert.equal(dayFirst['ambiguous.md'], '2024-01-05T00:00:00.000Z');
    assert.equal(dayFirst['month-first.md'], '2024-01-25T10:30:00.000Z', 'a part over 12 still decides');
  } finally {
    t.remove();
  }
});

test('a note with front matter that is not valid YAML is imported without it, with a note saying so', async () => {
  const t = writeTree({
    'broken.md': '---\ntitle: "unterminated\ntags: [a, b\n---\nReal content survives.\n',
    'rule.md': '---\nA note that opens with a rule and never closes it.\n',
    'scalar.md': '---\nJust a line between rules\n---\nThe body.\n',
  });
  try {
    const { records, skips } = await collect(parseMarkdown(t.root, {}));
    assert.deepEqual(skips, []);
    const broken = records.find((r) => r.ref === 'broken.md')!;
    assert.ok(typeof broken.body.content === 'object' && broken.body.content.kind === 'document');
    assert.equal(broken.body.content.text, 'Real content survives.');
    assert.equal(broken.body.content.title, 'broken');
    assert.match(broken.note!, /^front matter not read \(.+\); imported without it$/);
    // Without a closing line there is no front matter: the rule is part of the text.
    const rule = records.find((r) => r.ref === 'rule.md')!;
    assert.ok(typeof rule.body.content === 'object' && rule.body.content.kind === 'document');
    assert.equal(rule.body.content.text, '---\nA note that opens with a rule and never closes it.');
    assert.equal(rule.note, undefined);
    const scalar = records.find((r) => r.ref === 'scalar.md')!;
    assert.ok(typeof scalar.body.content === 'object' && scalar.body.content.kind === 'document');
    // A block of no properties is the note's own words between two rules: kept, as Obsidian shows them.
    assert.equal(scalar.body.content.text, '---\nJust a line between rules\n---\nThe body.');
    assert.equal(scalar.note, undefined);
  } finally {
    t.remove();
  }
});

test('CRLF and CR line ends become \\n in the note text', async () => {
  const t = writeTree({
    'win.md': '---\r\ntitle: Win\r\n---\r\nFirst line\r\nSecond line #tag\r\n',
    'mac.md': 'Old Mac\rline ends\r',
  });
  try {
    const { records } = await collect(parseMarkdown(t.root, {}));
    const text = (ref: string) => {
      const c = records.find((r) => r.ref === ref)!.body.content;
      return typeof c === 'object' && c.kind === 'document' ? c.text : '';
    };
    assert.equal(text('win.md'), 'First line\nSecond line #tag\n\nTags: #tag');
    assert.equal(text('mac.md'), 'Old Mac\nline ends');
  } finally {
    t.remove();
  }
});

test('a folder of notes is walked through its links, each real note once, a looping link reported', async () => {
  const t = writeTree({
    'Vault/.obsidian/app.json': '{}',
    'Vault/home.md': 'Home\n',
    'elsewhere/shared/idea.md': 'An idea kept outside the vault\n',
    'elsewhere/single.md': 'A note linked in alone\n',
  });
  try {
    symlinkSync(join(t.root, 'elsewhere/shared'), join(t.root, 'Vault/Shared'));
    symlinkSync(join(t.root, 'elsewhere/single.md'), join(t.root, 'Vault/single.md'));
    symlinkSync(join(t.root, 'Vault'), join(t.root, 'Vault/loop'));
    symlinkSync(join(t.root, 'nowhere.md'), join(t.root, 'Vault/gone.md'));
    const { records, skips } = await collect(parseMarkdown(join(t.root, 'Vault'), {}));
    assert.deepEqual(records.map((r) => r.ref).sort(), ['Shared/idea.md', 'home.md', 'single.md']);
    // A linked note is known by its real place, as when it is imported on its own.
    const idea = records.find((r) => r.ref === 'Shared/idea.md')!.body.source;
    assert.deepEqual(
      [idea.name, idea.external_id],
      ['markdown', realpathSync(join(t.root, 'elsewhere/shared/idea.md'))],
    );
    assert.deepEqual(
      skips.map((s) => [s.ref, s.reason]),
      [
        ['gone.md', 'broken link: its target does not exist'],
        ['loop', 'link back to the folder being read: not followed again'],
      ],
    );
  } finally {
    t.remove();
  }
});

test('a heading or tag inside a code block is code: the title and tags come from the note', async () => {
  const note = [
    '```sh',
    '# install deps',
    'npm ci  # see #setup',
    '```',
    '',
    '# Build notes',
    '',
    '~~~~css',
    'a { color: #fff; }',
    '~~~',
    '~~~~',
    'Works with `#notatag` too. #build',
  ].join('\n');
  const t = writeTree({ 'build.md': note });
  try {
    const { records } = await collect(parseMarkdown(join(t.root, 'build.md'), {}));
    const c = records[0]!.body.content as { title: string; text: string };
    assert.equal(c.title, 'Build notes');
    assert.match(c.text, /\n\nTags: #build$/, 'the code held no tag');
  } finally {
    t.remove();
  }
});

test('a heading may name code; inline triple backticks open no block; quoted blocks are code too', async () => {
  const t = writeTree({
    'hooks.md': ['# The `useEffect` hook', '', '```npm ci``` is what I ran. #react'].join('\n'),
    'quoted.md': ['# Colours', '', '> ```css', '> a { color: #fff; }', '> ```', '', '#design'].join('\n'),
  });
  try {
    const read = async (name: string) => {
      const { records } = await collect(parseMarkdown(join(t.root, name), {}));
      return records[0]!.body.content as { title: string; text: string };
    };
    const hooks = await read('hooks.md');
    assert.equal(hooks.title, 'The `useEffect` hook');
    assert.match(hooks.text, /\n\nTags: #react$/);
    const quoted = await read('quoted.md');
    assert.match(quoted.text, /\n\nTags: #design$/);
  } finally {
    t.remove();
  }
});

test('a daily note is dated by the day its name begins with, as a date alone in front matter is', async () => {
  const t = writeTree({
    'Daily/2024-03-04.md': 'Bought a kayak today.\n',
    'journals/2024_03_05.md': '- Paddled to the island.\n',
    'Daily/2024-03-06 Standup.md': 'Ana is off on Friday.\n',
    'Daily/2024-03-07.md': '---\ndate: 2024-03-09T08:00:00Z\n---\nWritten up two days later.\n',
    'Daily/2024-13-40.md': 'Not a day.\n',
    'Daily/20240308.md': 'Digits alone name no day here.\n',
  });
  const at = async (name: string, timeZone = 'Europe/Berlin') => {
    const file = join(t.root, ...name.split('/'));
    utimesSync(file, new Date('2024-06-01T12:00:00Z'), new Date('2024-06-01T12:00:00Z'));
    const r = (await collect(parseMarkdown(file, { timeZone }))).records[0]!;
    return [r.body.occurred_at, r.occurredAtInKey];
  };
  try {
    // The day's start where the import reads it, with its offset; the key holds the day itself, whatever the zone.
    assert.deepEqual(await at('Daily/2024-03-04.md'), [
      '2024-03-04T00:00:00+01:00',
      '2024-03-04T00:00:00.000Z',
    ]);
    assert.deepEqual(await at('Daily/2024-03-04.md', 'UTC'), [
      '2024-03-04T00:00:00.000Z',
      '2024-03-04T00:00:00.000Z',
    ]);
    assert.deepEqual(await at('journals/2024_03_05.md'), [
      '2024-03-05T00:00:00+01:00',
      '2024-03-05T00:00:00.000Z',
    ]);
    assert.deepEqual(await at('Daily/2024-03-06 Standup.md'), [
      '2024-03-06T00:00:00+01:00',
      '2024-03-06T00:00:00.000Z',
    ]);
    // Front matter says when, whatever the name; a name that is no day leaves the file's time.
    assert.deepEqual(await at('Daily/2024-03-07.md'), ['2024-03-09T08:00:00.000Z', undefined]);
    assert.deepEqual(await at('Daily/2024-13-40.md'), ['2024-06-01T12:00:00.000Z', null]);
    assert.deepEqual(await at('Daily/20240308.md'), ['2024-06-01T12:00:00.000Z', null]);
  } finally {
    t.remove();
  }
});

test('a note longer than a Record holds is imported in parts cut at paragraphs, none lost', async () => {
  const paragraph = (i: number) => `Day ${i}: ${'walked by the river and wrote it down. '.repeat(60)}`.trim();
  const body = Array.from({ length: 1100 }, (_, i) => paragraph(i)).join('\n\n');
  assert.ok(body.length > 2_000_000);
  const vault = writeTree({ 'Journal.md': `# Journal\n\n${body}\n\n#diary\n` });
  try {
    const { records, skips } = await collect(parseMarkdown(vault.root, {}));
    assert.deepEqual(skips, []);
    assert.equal(records.length, 3);
    const texts = records.map((r) => (r.body.content as { text: string }).text);
    for (const t of texts) {
      assert.ok(t.length <= 1_000_000, `${t.length} characters`);
      assert.match(t, /\n\nTags: #diary$/, 'each part keeps the footer');
    }
    // Cut between paragraphs: every day is whole in exactly one part.
    for (const i of [0, 550, 1099])
      assert.equal(texts.filter((t) => t.includes(paragraph(i))).length, 1, `day ${i}`);
    assert.deepEqual(
      records.map((r) => (r.body.content as { title: string }).title),
      ['Journal (part 1 of 3)', 'Journal (part 2 of 3)', 'Journal (part 3 of 3)'],
    );
    const ids = records.map((r) => r.body.source!.external_id);
    assert.equal(new Set(ids).size, 3);
    assert.ok(
      ids[1]!.startsWith(ids[0]!) && ids[1]!.endsWith('#part-2'),
      "the first part keeps the note's id",
    );
    assert.match(records[0]!.note ?? '', /imported in 3 parts/);
  } finally {
    vault.remove();
  }
});

test("a note's properties are its first lines, a note of properties alone is a note; tags once, links outside code", async () => {
  const vault = writeTree({
    '.obsidian/workspace.json': '{}',
    'People/Rita Sousa.md':
      '---\ntype: person\nbirthday: 1990-01-02\nphone: "+351 900 000 000"\ncompany: "[[Acme Corp]]"\n' +
      'aliases: [Rita, R. Sousa]\ntags: ["#people"]\ncssclasses: [wide]\n---\n',
    'Meetings/1on1.md':
      '---\ntags: ["#work/meetings"]\nstatus: done\n---\nTalked about the raise. #work/meetings\n\n' +
      'Obsidian links look like `[[this]]`.\n',
  });
  try {
    const { records, skips } = await collect(parseMarkdown(vault.root, {}));
    assert.deepEqual(skips, []);
    const text = (title: string) =>
      (
        records.find((r) => (r.body.content as { title: string }).title === title)!.body.content as {
          text: string;
        }
      ).text;
    assert.equal(
      text('Rita Sousa'),
      'type: person\nbirthday: 1990-01-02\nphone: +351 900 000 000\ncompany: [[Acme Corp]]\naliases: Rita, R. Sousa\n\n' +
        'Tags: #people\nLinks: [[Acme Corp]]',
    );
    assert.equal(
      text('1on1'),
      'status: done\n\nTalked about the raise. #work/meetings\n\nObsidian links look like `[[this]]`.\n\nTags: #work/meetings',
    );
  } finally {
    vault.remove();
  }
});

test("a vault's daily notes are dated by the format its Daily notes settings name them with", async () => {
  const vault = writeTree({
    '.obsidian/daily-notes.json': JSON.stringify({ format: 'DD-MM-YYYY', folder: 'Daily' }),
    'Daily/04-03-2024.md': 'Ran 5 km.\n',
    'Projects/Plan.md': 'Ship it.\n',
  });
  for (const f of ['Daily/04-03-2024.md', 'Projects/Plan.md'])
    utimesSync(join(vault.root, f), new Date('2025-01-01T00:00:00Z'), new Date('2025-01-01T00:00:00Z'));
  try {
    const { records } = await collect(parseMarkdown(vault.root, { timeZone: 'Europe/Lisbon' }));
    assert.deepEqual(
      records.map((r) => [(r.body.content as { title: string }).title, r.body.occurred_at]),
      [
        ['04-03-2024', '2024-03-04T00:00:00.000Z'],
        ['Plan', '2025-01-01T00:00:00.000Z'],
      ],
    );
  } finally {
    vault.remove();
  }
});

test("a vault's templates and Excalidraw drawings are no notes: each a skip that says what it is", async () => {
  const vault = writeTree({
    '.obsidian/templates.json': JSON.stringify({ folder: 'Meta/Templates' }),
    'Meta/Templates/Daily.md': '# {{title}}\n\n## Tasks\n',
    'Drawings/Plan.excalidraw.md':
      '==⚠  Switch to EXCALIDRAW VIEW in the MORE OPTIONS menu of this document. ⚠==\n',
    'Meta/About.md': 'This vault is mine.\n',
  });
  try {
    const { records, skips } = await collect(parseMarkdown(vault.root, {}));
    assert.deepEqual(
      records.map((r) => (r.body.content as { title: string }).title),
      ['About'],
    );
    assert.deepEqual(skips.map((x) => [x.ref, x.reason]).sort(), [
      ['Drawings/Plan.excalidraw.md', 'an Excalidraw drawing, not a note'],
      ['Meta/Templates/Daily.md', "a template in the vault's templates folder, not a note"],
    ]);
  } finally {
    vault.remove();
  }
});

test("the daily notes plugin's template is no note, wherever it is kept", async () => {
  const vault = writeTree({
    '.obsidian/daily-notes.json': JSON.stringify({
      template: 'Templates/Daily template',
      format: 'YYYY-MM-DD',
    }),
    'Templates/Daily template.md': '# {{date}}\n\n## Tasks\n',
    'Templates/Meeting.md': 'A note kept beside it, no template.\n',
  });
  try {
    const { records, skips } = await collect(parseMarkdown(vault.root, {}));
    assert.deepEqual(
      records.map((r) => (r.body.content as { title: string }).title),
      ['Meeting'],
    );
    assert.deepEqual(
      skips.map((x) => [x.ref, x.reason]),
      [['Templates/Daily template.md', "the vault's daily notes template, not a note"]],
    );
  } finally {
    vault.remove();
  }
});

/** A JSON Canvas card or group: its id, kind and place, and what it holds. */
const card = (
  id: string,
  type: string,
  x: number,
  y: number,
  more: object = {},
  width = 200,
  height = 100,
) => ({
  id,
  type,
  x,
  y,
  width,
  height,
  ...more,
});

test('a canvas is one document: groups by their label, cards top to bottom then left to right, labelled edges', async () => {
  // Listed out of reading order, as Obsidian saves cards in the order they were made.
  const launch = {
    nodes: [
      card('week1', 'group', 0, 0, { label: 'Week 1' }, 1000, 600),
      card('risks', 'group', 1200, 0, { label: 'Risks' }, 500, 400),
      card('design', 'group', 20, 300, { label: 'Design' }, 400, 250),
      card('sketch', 'text', 40, 320, { text: 'Sketch the landing page' }),
      card('room', 'text', 300, 40, { text: 'Book the room' }),
      card('kickoff', 'text', 40, 40, { text: '# Kickoff\r\nInvite [[Ana Souza]] #launch' }),
      card('roadmap', 'file', 1220, 20, { file: 'Projects/Roadmap.md', subpath: '#Q2' }),
      card('chart', 'file', 600, 800, { file: 'attachments/chart.png' }),
      card('brief', 'link', 0, 800, { url: 'https://example.com/brief' }),
      card('blank', 'text', 0, 900, { text: '   ' }),
      card('loose', 'group', 0, 1000, {}, 400, 200),
      card('idea', 'text', 20, 1020, { text: 'Loose idea' }),
      card('parking', 'group', 0, 1300, { label: 'Parking lot' }, 400, 200),
      card('lead', 'text', 0, -200, { text: 'Launch plan for May', color: '4' }),
    ],
    edges: [
      { id: 'e1', fromNode: 'kickoff', toNode: 'sketch', label: 'then' },
      { id: 'e2', fromNode: 'room', toNode: 'roadmap' },
      { id: 'e3', fromNode: 'roadmap', fromSide: 'bottom', toNode: 'brief', toSide: 'top', label: 'see' },
      { id: 'e4', fromNode: 'kickoff', toNode: 'gone', label: 'to a card deleted since' },
    ],
  };
  const vault = writeTree({
    '.obsidian/app.json': '{}',
    'Plans/Launch.canvas': JSON.stringify(launch, null, '\t'),
    'Projects/Roadmap.md': '# Roadmap\n\n## Q2\nShip it.\n',
  });
  const at = new Date('2024-05-02T08:00:00Z');
  utimesSync(join(vault.root, 'Plans/Launch.canvas'), at, at);
  try {
    const { records, skips } = await collect(parseMarkdown(vault.root, {}));
    assert.deepEqual(skips, []);
    assert.deepEqual(records.map((r) => r.ref).sort(), ['Plans/Launch.canvas', 'Projects/Roadmap.md']);
    const canvas = records.find((r) => r.ref === 'Plans/Launch.canvas')!.body;
    assert.equal(canvas.source.name, 'obsidian');
    assert.equal(canvas.source.external_id, `${basename(realpathSync(vault.root))}/Plans/Launch.canvas`);
    assert.equal(
      canvas.occurred_at,
      '2024-05-02T08:00:00.000Z',
      'dated by its file, as a note without a date',
    );
    assert.deepEqual(canvas.content, {
      kind: 'document',
      title: 'Launch',
      text: [
        'Launch plan for May',
        '## Week 1',
        '# Kickoff\nInvite [[Ana Souza]] #launch',
        'Book the room',
        '### Design',
        'Sketch the landing page',
        '## Risks',
        '[[Roadmap#Q2]]',
        'https://example.com/brief',
        '![[chart.png]]',
        'Loose idea',
        'Kickoff → Sketch the landing page: then\n[[Roadmap#Q2]] → https://example.com/brief: see',
        'Tags: #launch\nLinks: [[Ana Souza]] [[Roadmap]] [[chart.png]]',
      ].join('\n\n'),
    });
  } finally {
    vault.remove();
  }
});

test('an empty canvas and one that is not JSON Canvas are skips with the reason; the rest is read', async () => {
  const empty = 'empty canvas: no text, file or link on it';
  const vault = writeTree({
    '.obsidian/app.json': '{}',
    'Blank.canvas': '',
    'New.canvas': '{}',
    'Cleared.canvas': JSON.stringify({ nodes: [], edges: [] }),
    'Frames.canvas': JSON.stringify({
      nodes: [
        card('g', 'group', 0, 0, { label: 'To do' }, 500, 500),
        card('t', 'text', 10, 10, { text: '' }),
      ],
    }),
    'Cut.canvas': '{"nodes":[{"id":"a","type":"text","text":"Half',
    'Odd.canvas': JSON.stringify({ nodes: { a: 1 } }),
    'List.canvas': '[]',
    'Board.canvas': JSON.stringify({ nodes: [card('a', 'text', 0, 0, { text: 'Still read' })] }),
    'Note.md': 'Still read too\n',
  });
  try {
    const { records, skips } = await collect(parseMarkdown(vault.root, {}));
    assert.deepEqual(records.map((r) => r.ref).sort(), ['Board.canvas', 'Note.md']);
    const reasons = Object.fromEntries(skips.map((s) => [s.ref, s.reason]));
    assert.deepEqual(Object.keys(reasons).sort(), [
      'Blank.canvas',
      'Cleared.canvas',
      'Cut.canvas',
      'Frames.canvas',
      'List.canvas',
      'New.canvas',
      'Odd.canvas',
    ]);
    for (const ref of ['Blank.canvas', 'New.canvas', 'Cleared.canvas', 'Frames.canvas'])
      assert.equal(reasons[ref], empty, ref);
    assert.match(reasons['Cut.canvas']!, /^cannot be read: invalid JSON \(.+\)$/);
    assert.equal(reasons['Odd.canvas'], 'cannot be read: not a JSON Canvas: "nodes" is not a list');
    assert.equal(reasons['List.canvas'], 'cannot be read: not a JSON Canvas: not an object');
  } finally {
    vault.remove();
  }
});

test('a canvas longer than a Record holds is imported in parts, as a long note is', async () => {
  const words = (i: number) => `Card ${i}: ${'a step of the plan written out at length. '.repeat(50)}`.trim();
  const nodes = Array.from({ length: 1100 }, (_, i) => card(`c${i}`, 'text', 0, i * 200, { text: words(i) }));
  const vault = writeTree({ 'Big.canvas': JSON.stringify({ nodes }) });
  try {
    const { records, skips } = await collect(parseMarkdown(vault.root, {}));
    assert.deepEqual(skips, []);
    assert.deepEqual(
      records.map((r) => (r.body.content as { title: string }).title),
      ['Big (part 1 of 3)', 'Big (part 2 of 3)', 'Big (part 3 of 3)'],
    );
    const texts = records.map((r) => (r.body.content as { text: string }).text);
    for (const t of texts) assert.ok(t.length <= 1_000_000, `${t.length} characters`);
    for (const i of [0, 550, 1099])
      assert.equal(texts.filter((t) => t.includes(words(i))).length, 1, `card ${i} whole in one part`);
    assert.match(records[0]!.note ?? '', /imported in 3 parts/);
  } finally {
    vault.remove();
  }
});

test('a canvas is keyed as a note is: one item however chosen, touched the same, edited a new revision', async () => {
  const board = (text: string) => JSON.stringify({ nodes: [card('a', 'text', 0, 0, { text })] });
  const t = writeTree({ 'Boards/Trip.canvas': board('Pack the tent') });
  const file = join(t.root, 'Boards/Trip.canvas');
  const touch = (iso: string) => utimesSync(file, new Date(iso), new Date(iso));
  const read = async (path: string) => (await collect(parsers.markdown(path, {}))).records[0]!;
  try {
    touch('2024-01-01T00:00:00Z');
    const first = await read(file);
    assert.equal(first.body.source.name, 'markdown');
    assert.equal(first.body.source.external_id, realpathSync(file));
    assert.equal(first.occurredAtInKey, null, "the file's time is no part of its key");
    assert.equal(importItemKey(await read(join(t.root, 'Boards'))), importItemKey(first), 'from its folder');

    touch('2025-06-01T12:00:00Z');
    assert.equal(importItemKey(await read(file)), importItemKey(first), 'touched, the same');

    writeFileSync(file, board('Pack the tent and the stove'));
    const edited = await read(file);
    assert.equal(edited.body.source.external_id, first.body.source.external_id);
    assert.notEqual(importItemKey(edited), importItemKey(first), 'edited, a new revision of the same item');
  } finally {
    t.remove();
  }
});
