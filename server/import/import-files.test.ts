import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { ImportRequest } from '../../engine/contract/index.ts';
import { MnemoError as MnemoErrorClass, type MnemoError } from '../../engine/errors/mnemo-error.ts';
import { createReferenceEngine } from '../../engine/reference/index.ts';
import type { Engine } from '../../engine/types.ts';
import { importFiles } from './import-files.ts';
import { createUnpackBudget } from './unpack-budget.ts';
import { chatGptExportOf, icsOf, slipped, standups2022Ics, zipBytes } from './test-support.ts';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { readMbox } from './formats/mbox-split.ts';
import { importItemKey } from './idempotency-key.ts';
import { collectRecords } from './run-import.ts';

const t = { project: 'p', env: 'test' as const };
const file = (name: string, text: string, lastModified?: string): ImportRequest['files'][number] => ({
  name,
  content_base64: Buffer.from(text, 'utf8').toString('base64'),
  ...(lastModified ? { last_modified: lastModified } : {}),
});

async function brain() {
  const engine = createReferenceEngine();
  await engine.createBrain(t, { id: 'b' });
  return engine;
}

/** The external ids of Brain b's Records of one source, each once, sorted. */
async function externalIds(engine: Engine, source: string): Promise<(string | null)[]> {
  const page = await engine.listRecords(t, 'b', { limit: 50, source });
  return [...new Set(page.data.map((r) => r.source.external_id))].sort();
}

test('folders arrive as files with relative paths: an Obsidian vault and a Slack export are each read whole', async () => {
  const engine = await brain();
  const vault = await importFiles(engine, t, 'b', {
    files: [
      file('Vault/.obsidian/app.json', '{}'),
      file('Vault/Recipes/Bacalhau.md', 'Soak the cod for 48 hours.\n', '2024-03-04T05:06:07Z'),
      file('Vault/Home.md', '# Home\n\nSee [[Bacalhau]].\n', '2024-01-01T00:00:00Z'),
    ],
  });
  assert.deepEqual(
    vault.parts.map((p) => [p.name, p.format, p.imported]),
    [['Vault', 'obsidian', 2]],
  );
  const notes = (await engine.listRecords(t, 'b', { limit: 50, source: 'obsidian' })).data;
  // The vault's folder name and the path in the vault, as `mnemo import` names the vault's notes.
  assert.deepEqual(notes.map((r) => r.source.external_id).sort(), [
    'Vault/Home.md',
    'Vault/Recipes/Bacalhau.md',
  ]);
  // Without a date in front matter, a note occurred when its file was last changed (as on the CLI).
  assert.equal(
    notes.find((r) => r.source.external_id === 'Vault/Recipes/Bacalhau.md')!.occurred_at,
    '2024-03-04T05:06:07.000Z',
  );

  const slack = await importFiles(engine, t, 'b', {
    files: [
      file('Export/users.json', JSON.stringify([{ id: 'U1', name: 'sam', real_name: 'Sam' }])),
      file('Export/channels.json', JSON.stringify([{ id: 'C1', name: 'general' }])),
      file(
        'Export/general/2024-01-15.json',
        JSON.stringify([
          { type: 'message', user: 'U1', text: 'Launch moved to Feb 2', ts: '1705312860.000200' },
        ]),
      ),
    ],
  });
  assert.deepEqual(
    slack.parts.map((p) => [p.name, p.format, p.imported]),
    [['Export', 'slack', 1]],
  );
});

test('an explicit format reads each chosen file in it; items listed by their file, never by the temporary path', async () => {
  const engine = await brain();
  const r = await importFiles(engine, t, 'b', {
    format: 'whatsapp',
    time_zone: 'UTC',
    files: [
      file('chat-a.txt', '01/02/2024, 10:00 - Ana: hello\n'),
      file('chat-b.txt', 'this is not a chat at all\n'),
    ],
  });
  assert.deepEqual(
    r.parts.map((p) => [p.name, p.format, p.imported, p.skipped]),
    [
      ['chat-a.txt', 'whatsapp', 1, 0],
      ['chat-b.txt', 'whatsapp', 0, 1],
    ],
  );
  assert.deepEqual(r.skipped, [{ item: 'chat-b.txt', reason: 'no WhatsApp message lines found' }]);
  await assert.rejects(
    importFiles(engine, t, 'b', { files: [file('a.md', 'x'), file('a.md', 'y')] }),
    /files\[1\]\.name: "a\.md" is given twice/,
  );
  await assert.rejects(
    importFiles(engine, t, 'b', { files: [file('a', 'x'), file('a/b.md', 'y')] }),
    /files\[1\]\.name: "a\/b\.md" cannot be stored \(\w+\); is it both a file and a folder\?/,
  );
});

test('uploaded notes go by their names as chosen, never by the temporary folder: same-named notes stay apart', async () => {
  const engine = await brain();
  // Two folders dropped at once, each holding a todo.md.
  const first = await importFiles(engine, t, 'b', {
    files: [file('a/todo.md', 'Buy oat milk ALPHAITEM'), file('b/todo.md', 'Call the plumber BETAITEM')],
  });
  assert.deepEqual(
    first.parts.map((p) => [p.name, p.format, p.imported]),
    [
      ['a', 'markdown', 1],
      ['b', 'markdown', 1],
    ],
  );
  const ids = async () =>
    (await engine.listRecords(t, 'b', { limit: 50 })).data.map((r) => [r.source.name, r.source.external_id]);
  assert.deepEqual((await ids()).sort(), [
    ['markdown', 'a/todo.md'],
    ['markdown', 'b/todo.md'],
  ]);
  // The same file sent again beside a new one: the same item, so nothing is written for it.
  const again = await importFiles(engine, t, 'b', {
    files: [file('a/todo.md', 'Buy oat milk ALPHAITEM'), file('c.md', 'New note')],
  });
  assert.deepEqual([again.imported, again.unchanged], [1, 1]);
  assert.equal((await ids()).length, 3);
});

test('a chosen folder of mixed files is read file by file, as `mnemo import` reads one', async () => {
  const engine = await brain();
  const ics =
    'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:dentist-1\r\nDTSTART:20240310T090000Z\r\n' +
    'SUMMARY:Dentist\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n';
  const r = await importFiles(engine, t, 'b', {
    time_zone: 'UTC',
    files: [
      file('Stuff/todo.md', '# Todo\nCall the plumber\n'),
      file('Stuff/deep/idea.md', 'An idea\n'),
      file('Stuff/calendar/cal.ics', ics),
      file('Stuff/picture.png', 'not an export'),
    ],
  });
  assert.deepEqual(
    r.parts.map((p) => [p.name, p.format, p.imported, p.skipped]),
    [
      ['Stuff', 'markdown', 2, 0],
      ['Stuff/calendar/cal.ics', 'ics', 1, 0],
      ['Stuff/picture.png', null, 0, 1],
    ],
  );
  assert.deepEqual(r.skipped, [
    {
      item: 'Stuff/picture.png',
      reason: 'not text mnemo reads (images, PDFs, media and other attachments are not imported)',
    },
  ]);
});

test('a note sent again with a later last_modified and the same text is unchanged', async () => {
  const engine = await brain();
  const send = (text: string, lastModified: string) =>
    importFiles(engine, t, 'b', { files: [file('Notes/plan.md', text, lastModified)] });
  assert.equal((await send('Book the ferry\n', '2024-01-01T00:00:00Z')).imported, 1);
  const touched = await send('Book the ferry\n', '2024-05-05T00:00:00Z');
  assert.deepEqual([touched.imported, touched.unchanged, touched.failed], [0, 1, 0]);
  const edited = await send('Book the ferry and the hotel\n', '2024-05-06T00:00:00Z');
  assert.deepEqual([edited.imported, edited.replaced, edited.unchanged], [0, 1, 0]);
  assert.equal((await engine.listRecords(t, 'b', { limit: 50 })).data.length, 2);
});

test('a note edited and then edited back is its first text again, and unchanged after that', async () => {
  const engine = await brain();
  const send = (text: string) => importFiles(engine, t, 'b', { files: [file('Notes/plan.md', text)] });
  const newest = async () =>
    (await engine.listRecords(t, 'b', { limit: 50 })).data
      .toSorted((a, b) => (a.id < b.id ? 1 : -1))
      .map((r) => (r.content.kind === 'document' ? r.content.text : ''))[0];
  assert.equal((await send('Gym: Holmes Place\n')).imported, 1);
  assert.equal((await send('Gym: Fitness Hut\n')).replaced, 1);
  const undone = await send('Gym: Holmes Place\n');
  assert.deepEqual([undone.imported, undone.replaced, undone.unchanged], [0, 1, 0]);
  assert.match((await newest())!, /Holmes Place/u);
  const again = await send('Gym: Holmes Place\n');
  assert.deepEqual([again.imported, again.replaced, again.unchanged], [0, 0, 1]);
  assert.equal((await engine.listRecords(t, 'b', { limit: 50 })).data.length, 3);
});

test('a note another device imported the same, pulled by sync, is unchanged here, not written again', async () => {
  const engine = await brain();
  const send = () => importFiles(engine, t, 'b', { files: [file('Notes/plan.md', 'Gym: Holmes Place\n')] });
  assert.equal((await send()).imported, 1);
  // Sync brings the other device's Record of the same note: same source, content and instant, but
  // written there under that device's own Idempotency-Key, which never travels.
  const [mine] = (await engine.listRecords(t, 'b', { limit: 50 })).data;
  await engine.rememberRecord(
    t,
    'b',
    {
      content: mine!.content,
      source: { name: mine!.source.name!, external_id: mine!.source.external_id! },
      occurred_at: mine!.occurred_at,
      visibility: mine!.visibility,
    },
    {},
  );
  const again = await send();
  assert.deepEqual([again.imported, again.replaced, again.unchanged], [0, 0, 1]);
  assert.equal((await engine.listRecords(t, 'b', { limit: 50 })).data.length, 2);
});

test('a note without a date that another device imported, its file written there at another time, is unchanged here', async () => {
  const engine = await brain();
  const send = () =>
    importFiles(engine, t, 'b', {
      files: [file('Notes/plan.md', 'Gym: Holmes Place\n', '2026-11-20T08:00:00Z')],
    });
  assert.equal((await send()).imported, 1);
  // The other device's copy of the folder was written there later (a clone, a copy): its Record, pulled
  // by sync, is dated by that file's time, which is no part of what the note says.
  const [mine] = (await engine.listRecords(t, 'b', { limit: 50 })).data;
  await engine.rememberRecord(
    t,
    'b',
    {
      content: mine!.content,
      source: { name: mine!.source.name!, external_id: mine!.source.external_id! },
      occurred_at: '2026-12-01T17:45:00.000Z',
      visibility: mine!.visibility,
    },
    {},
  );
  const again = await send();
  assert.deepEqual([again.imported, again.replaced, again.unchanged], [0, 0, 1]);
  assert.equal((await engine.listRecords(t, 'b', { limit: 50 })).data.length, 2);
});

test('a device that only pulled an import finds the same files unchanged: nothing is written again', async () => {
  const chat = '21/11/2026, 18:03 - Inês: Are you coming to Coimbra?\n21/11/2026, 18:05 - Maria: Yes!\n';
  const send = (engine: Engine) =>
    importFiles(engine, t, 'b', {
      files: [
        file('WhatsApp Chat with Inês.txt', chat),
        file('Notes/plan.md', 'Gym: Holmes Place\n', '2026-11-20T08:00:00Z'),
      ],
      time_zone: 'UTC',
    });
  const there = await brain();
  assert.equal((await send(there)).imported, 3);
  // Sync copies the other device's Records here as they are, without the Idempotency-Keys they were
  // written under.
  const here = await brain();
  for (const r of (await there.listRecords(t, 'b', { limit: 50 })).data.toReversed())
    await here.rememberRecord(
      t,
      'b',
      {
        content: r.content,
        source: { name: r.source.name!, external_id: r.source.external_id! },
        occurred_at: r.occurred_at,
        visibility: r.visibility,
      },
      {},
    );
  const again = await send(here);
  assert.deepEqual([again.imported, again.replaced, again.unchanged], [0, 0, 3]);
  assert.equal((await here.listRecords(t, 'b', { limit: 50 })).data.length, 3);
});

test("a calendar's to-do imported when its date was written as 00:00Z is unchanged; one due on another day is replaced", async () => {
  const calendar = (due: string) =>
    [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'BEGIN:VTODO',
      'UID:passport',
      'DTSTAMP:20261201T080000Z',
      'SUMMARY:Renew passport',
      `DUE;VALUE=DATE:${due}`,
      'END:VTODO',
      'END:VCALENDAR',
      '',
    ].join('\r\n');
  const send = (engine: Engine, due: string) =>
    importFiles(engine, t, 'b', { files: [file('tasks.ics', calendar(due))] });
  // What an import wrote before dates were written as dates, under the key of that body.
  const before = async () => {
    const engine = await brain();
    await engine.rememberRecord(
      t,
      'b',
      {
        content: {
          kind: 'document',
          title: 'To-do: Renew passport',
          text: 'To-do: Renew passport\nDue: 2026-12-15T00:00:00.000Z',
        },
        source: { name: 'ics', external_id: 'ics:passport#vtodo' },
        occurred_at: '2026-12-01T08:00:00.000Z',
      },
      {},
    );
    return engine;
  };
  const same = await before();
  const again = await send(same, '20261215');
  assert.deepEqual([again.imported, again.replaced, again.unchanged], [0, 0, 1]);
  assert.equal((await same.listRecords(t, 'b', { limit: 50 })).data.length, 1);
  const moved = await before();
  const later = await send(moved, '20261216');
  assert.deepEqual([later.imported, later.replaced, later.unchanged], [0, 1, 0]);
  const [newest] = (await moved.listRecords(t, 'b', { limit: 50 })).data;
  assert.equal((newest!.content as { text: string }).text, 'To-do: Renew passport\nDue: 2026-12-16');
});

test('two versions of one event in two calendar files import the same way every time', async () => {
  const engine = await brain();
  const event = (summary: string, sequence: number) =>
    [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'BEGIN:VEVENT',
      'UID:dentist-1',
      `SEQUENCE:${sequence}`,
      `SUMMARY:${summary}`,
      'DTSTART:20260302T093000Z',
      'END:VEVENT',
      'END:VCALENDAR',
      '',
    ].join('\r\n');
  const send = () =>
    importFiles(engine, t, 'b', {
      files: [
        file('work-january.ics', event('Dentist', 0)),
        file('work-march.ics', event('Dentist (moved)', 1)),
      ],
    });
  await send();
  const first = (await engine.listRecords(t, 'b', { limit: 50 })).data.length;
  for (let run = 0; run < 2; run += 1) {
    const again = await send();
    assert.deepEqual([again.imported, again.replaced], [0, 0], `run ${run}`);
    assert.equal((await engine.listRecords(t, 'b', { limit: 50 })).data.length, first, `run ${run}`);
  }
});

test('a note edited and imported again is counted as replaced, not new; a new note beside it is new', async () => {
  const engine = await brain();
  const first = await importFiles(engine, t, 'b', {
    files: [file('Notes/plan.md', 'Book the ferry\n'), file('Notes/list.md', 'Eggs\n')],
  });
  assert.deepEqual([first.imported, first.replaced, first.unchanged], [2, 0, 0]);
  const again = await importFiles(engine, t, 'b', {
    files: [
      file('Notes/plan.md', 'Book the ferry and the hotel\n'),
      file('Notes/list.md', 'Eggs\n'),
      file('Notes/new.md', 'Call Rui\n'),
    ],
  });
  assert.deepEqual([again.imported, again.replaced, again.unchanged], [1, 1, 1]);
  assert.equal(
    again.parts.reduce((n, p) => n + p.replaced, 0),
    1,
  );
  // A caller that may not read the Brain's Records cannot tell: what it wrote counts as imported.
  const blind = await importFiles(
    engine,
    t,
    'b',
    { files: [file('Notes/plan.md', 'Book the ferry, the hotel and a car\n')] },
    undefined,
    { readsRecords: false },
  );
  assert.deepEqual([blind.imported, blind.replaced], [1, 0]);
});

test('a calendar event repeated exactly is one event, and its copy is a skip, as a copied contact card is', async () => {
  const engine = await brain();
  const event = ['BEGIN:VEVENT', 'UID:dentist', 'SUMMARY:Dentist', 'DTSTART:20240305T090000Z', 'END:VEVENT'];
  const card = ['BEGIN:VCARD', 'VERSION:3.0', 'FN:Ana Silva', 'TEL;TYPE=CELL:+351 912 000 002', 'END:VCARD'];
  const r = await importFiles(engine, t, 'b', {
    files: [
      file(
        'cal.ics',
        ['BEGIN:VCALENDAR', 'VERSION:2.0', ...event, ...event, 'END:VCALENDAR', ''].join('\r\n'),
      ),
      file('contacts.vcf', [...card, ...card, ''].join('\r\n')),
    ],
  });
  assert.deepEqual(
    r.parts.map((p) => [p.name, p.imported, p.skipped]),
    [
      ['cal.ics', 1, 1],
      ['contacts.vcf', 1, 1],
    ],
  );
  assert.deepEqual(r.skipped, [
    {
      item: 'cal.ics: dentist',
      reason: 'an exact copy of the event "Dentist" in the file, which is imported',
    },
    { item: 'contacts.vcf: card at line 6', reason: 'an exact copy of the card at line 1' },
  ]);
});

/** Two mails without a Message-ID, LF line ends; the file ends with a blank line, as Thunderbird's. */
const mboxWithoutIds = [
  'From ana@example.org Mon Mar  4 09:00:00 2024',
  'From: Ana <ana@example.org>',
  'Date: Mon, 4 Mar 2024 09:00:00 +0000',
  'Subject: Ferry times',
  '',
  'The 9:40 ferry is gone; take the 10:15.',
  '',
  'From bo@example.org Tue Mar  5 10:00:00 2024',
  'From: Bo <bo@example.org>',
  'Date: Tue, 5 Mar 2024 10:00:00 +0000',
  'Subject: Keys',
  '',
  'The keys are under the mat.',
  '',
  '',
].join('\n');

test('an mbox saved again with CRLF line ends stores none of its mails without a Message-ID again', async () => {
  const engine = await brain();
  const first = await importFiles(engine, t, 'b', { files: [file('mail.mbox', mboxWithoutIds)] });
  assert.deepEqual([first.imported, first.unchanged], [2, 0]);
  const crlf = await importFiles(engine, t, 'b', {
    files: [file('mail.mbox', mboxWithoutIds.replace(/\n/g, '\r\n'))],
  });
  assert.deepEqual([crlf.imported, crlf.unchanged, crlf.failed], [0, 2, 0]);
  // And back: the LF file again, with its last blank line gone.
  const lf = await importFiles(engine, t, 'b', { files: [file('mail.mbox', mboxWithoutIds.trimEnd())] });
  assert.deepEqual([lf.imported, lf.unchanged, lf.failed], [0, 2, 0]);
  assert.equal((await engine.listRecords(t, 'b', { limit: 50 })).data.length, 2);
});

test('a copy of an mbox cut inside its last mail replaces none of its mails; the whole file changes nothing', async () => {
  const engine = await brain();
  const whole = mboxWithoutIds
    .trimEnd()
    .replace('Subject: Ferry times', 'Subject: Ferry times\nMessage-ID: <ferry@example.org>')
    .replace('Subject: Keys', 'Subject: Keys\nMessage-ID: <keys@example.org>');
  const first = await importFiles(engine, t, 'b', { files: [file('mail.mbox', `${whole}\n`)] });
  assert.deepEqual([first.imported, first.unchanged], [2, 0]);
  const cut = await importFiles(engine, t, 'b', { files: [file('mail.mbox', whole.slice(0, -6))] });
  assert.deepEqual([cut.imported, cut.replaced, cut.unchanged, cut.failed], [0, 0, 2, 0]);
  const again = await importFiles(engine, t, 'b', { files: [file('mail.mbox', `${whole}\n`)] });
  assert.deepEqual([again.imported, again.replaced, again.unchanged], [0, 0, 2]);
  const texts = (await engine.listRecords(t, 'b', { limit: 50 })).data.map((r) =>
    r.content.kind === 'message' ? r.content.text : '',
  );
  assert.equal(texts.length, 2);
  assert.ok(
    texts.some((x) => x.endsWith(whole.slice(-20).trim())),
    texts.join(' | '),
  );
});

test('mails without a Message-ID imported under the ids of their bytes as they were keep those ids', async () => {
  // As an earlier Mnemo stored a CRLF mbox: each mail named by a hash of its bytes, CR and all.
  const engine = await brain();
  const crlf = mboxWithoutIds.replace(/\n/g, '\r\n');
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-former-ids-'));
  try {
    writeFileSync(join(dir, 'mail.mbox'), crlf);
    const raws: Buffer[] = [];
    for await (const m of readMbox(join(dir, 'mail.mbox'))) raws.push(m.raw!);
    const { records } = await collectRecords('mbox', join(dir, 'mail.mbox'), {});
    for (const [i, r] of records.entries()) {
      const old = `mbox:sha256:${createHash('sha256').update(raws[i]!).digest('hex').slice(0, 32)}`;
      const body = { ...r.body, source: { ...r.body.source, external_id: old } };
      await engine.rememberRecord(t, 'b', body, { idempotencyKey: importItemKey({ ...r, body }) });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const again = await importFiles(engine, t, 'b', { files: [file('mail.mbox', crlf)] });
  assert.deepEqual([again.imported, again.unchanged, again.failed], [0, 2, 0]);
  const lf = await importFiles(engine, t, 'b', { files: [file('mail.mbox', mboxWithoutIds)] });
  assert.deepEqual([lf.imported, lf.unchanged, lf.failed], [0, 2, 0]);
  assert.equal((await engine.listRecords(t, 'b', { limit: 50 })).data.length, 2);
});

test('an import given a visibility writes its Records so; without one they are shareable', async () => {
  const engine = await brain();
  await importFiles(engine, t, 'b', {
    files: [file('Private/diary.md', 'Saw the doctor today\n')],
    visibility: 'local_only',
  });
  await importFiles(engine, t, 'b', { files: [file('Shared/plan.md', 'Book the ferry\n')] });
  const records = (await engine.listRecords(t, 'b', { limit: 50 })).data;
  const of = (words: string) =>
    records.find((r) => (r.content as { text: string }).text.includes(words))?.visibility;
  assert.equal(of('doctor'), 'local_only');
  assert.equal(of('ferry'), 'shareable');
  assert.equal(ImportRequest.safeParse({ files: [file('a.md', 'x')], visibility: 'secret' }).success, false);
  // shareable is the default: asking for it changes nothing, not even the items' keys.
  const again = await importFiles(engine, t, 'b', {
    files: [file('Shared/plan.md', 'Book the ferry\n')],
    visibility: 'shareable',
  });
  assert.deepEqual([again.imported, again.unchanged], [0, 1]);
});

test('a lone iOS _chat.txt uploaded on its own is named after its people, so two chats stay two', async () => {
  const engine = await brain();
  const chat = (who: string, text: string) =>
    `[31/12/2023, 21:04:05] ${who}: ${text}\n[31/12/2023, 21:05:00] Me: ok\n`;
  for (const [who, text] of [
    ['Anna', 'Happy new year!'],
    ['Boss', 'Report due Monday.'],
  ] as const)
    await importFiles(engine, t, 'b', { files: [file('_chat.txt', chat(who, text))], self_name: 'Me' });
  const records = (await engine.listRecords(t, 'b', { limit: 50 })).data;
  const threads = new Set(records.map((r) => (r.content as { thread?: string }).thread));
  assert.deepEqual([...threads].sort(), ['WhatsApp: Anna', 'WhatsApp: Boss']);
  assert.equal(
    new Set(records.map((r) => r.source.external_id)).size,
    4,
    "no message takes another's identity",
  );
});

test("without self_name the Brain's own person is the user, as for `mnemo import`: a chat sent both ways is unchanged", async () => {
  const engine = createReferenceEngine();
  await engine.createBrain(t, { id: 'b', self: { type: 'person', name: 'Ana Silva' } });
  const chat = file(
    'Marta.txt',
    '14/02/2026, 21:04 - Marta: Free on Saturday?\n14/02/2026, 21:05 - Ana Silva: Yes!\n',
  );
  const first = await importFiles(engine, t, 'b', { format: 'whatsapp', files: [chat], time_zone: 'UTC' });
  assert.equal(first.imported, 2);
  const speakers = (await engine.listRecords(t, 'b', { limit: 50 })).data.map(
    (r) => (r.content as { speaker?: string }).speaker,
  );
  assert.deepEqual(speakers.sort(), ['Marta', 'self']);
  // The CLI fills in the Brain's person when --self is not given; the same chat named so is the same items.
  const named = await importFiles(engine, t, 'b', {
    format: 'whatsapp',
    files: [chat],
    time_zone: 'UTC',
    self_name: 'Ana Silva',
  });
  assert.deepEqual([named.imported, named.replaced, named.unchanged], [0, 0, 2]);
});

test("a lone _chat.txt uploaded without self_name keeps the name its people gave it, the Brain's own person among them", async () => {
  const engine = createReferenceEngine();
  await engine.createBrain(t, { id: 'b', self: { type: 'person', name: 'Ana Silva' } });
  const chat = file(
    '_chat.txt',
    '[14/02/2026, 21:04:05] Marta: Free on Saturday?\n[14/02/2026, 21:05:00] Ana Silva: Yes!\n',
  );
  const first = await importFiles(engine, t, 'b', { files: [chat], time_zone: 'UTC' });
  assert.equal(first.imported, 2);
  const records = (await engine.listRecords(t, 'b', { limit: 50 })).data;
  // As an upload without self_name named it before the Brain's person was taken for the user: the
  // same file sent again is the same items, not a second copy of the chat.
  assert.deepEqual(
    records
      .map((r) => [r.source.external_id?.split(':')[1], (r.content as { speaker?: string }).speaker])
      .sort(),
    [
      ['Marta, Ana Silva', 'Marta'],
      ['Marta, Ana Silva', 'self'],
    ],
  );
});

test('a vault chosen with other files in it: each is read in its format or reported, none is silently ignored', async () => {
  const engine = await brain();
  const r = await importFiles(engine, t, 'b', {
    files: [
      file('Vault/.obsidian/app.json', '{}'),
      file('Vault/Home.md', '# Home\n\nWelcome.\n', '2024-01-01T00:00:00Z'),
      file('Vault/notes.txt', 'plain text'),
      file('Vault/attachments/scan', 'no extension'),
    ],
  });
  assert.deepEqual(
    r.parts.map((p) => [p.name, p.format, p.imported, p.skipped]),
    [
      ['Vault', 'obsidian', 1, 0],
      ['Vault/attachments/scan', null, 0, 1],
      ['Vault/notes.txt', null, 0, 1],
    ],
  );
  assert.deepEqual(
    r.skipped.map((s) => s.item),
    ['Vault/attachments/scan', 'Vault/notes.txt'],
  );
});

test('a chat whose dates read both ways says so on its part; the date order asked for reads it and says nothing', async () => {
  const chat = '03/04/2024, 09:00 - Anna: Lunch on Friday?\n05/04/2024, 13:00 - Anna: Here\n';
  const engine = await brain();
  const guessed = await importFiles(engine, t, 'b', {
    files: [file('WhatsApp Chat with Anna.txt', chat)],
    time_zone: 'UTC',
  });
  assert.match(guessed.parts[0]!.note ?? '', /its dates read both ways \(3\/4 could be 3 April or 4 March\)/);
  const other = await brain();
  const asked = await importFiles(other, t, 'b', {
    files: [file('WhatsApp Chat with Anna.txt', chat)],
    time_zone: 'UTC',
    date_order: 'mdy',
  });
  assert.equal(asked.parts[0]!.note, undefined);
  const first = (await other.listRecords(t, 'b', { limit: 50 })).data.map((r) => r.occurred_at).sort()[0];
  assert.equal(first, '2024-03-04T09:00:00.000Z');
});

test('a chat whose dates read both ways, uploaded again with the other date order, stores nothing again', async () => {
  const engine = await brain();
  const chat = file(
    'WhatsApp Chat with Ana.txt',
    '03/04/2024, 10:00 - Ana: hello\n05/04/2024, 11:00 - Ana: bye\n',
  );
  const first = await importFiles(engine, t, 'b', { time_zone: 'UTC', files: [chat] });
  assert.deepEqual([first.imported, first.unchanged], [2, 0]);
  const other = await importFiles(engine, t, 'b', { time_zone: 'UTC', date_order: 'mdy', files: [chat] });
  assert.deepEqual([other.imported, other.unchanged, other.failed], [0, 2, 0]);
  assert.match(
    other.parts[0]!.note ?? '',
    /^dates read day first as its earlier import read them, not month first/,
  );
  const times = (await engine.listRecords(t, 'b', { limit: 50 })).data.map((r) => r.occurred_at).sort();
  assert.deepEqual(times, ['2024-04-03T10:00:00.000Z', '2024-04-05T11:00:00.000Z']);
});

test("a folder's note names the note it is about, so it is not read as the reason for what was skipped", async () => {
  const engine = await brain();
  const r = await importFiles(engine, t, 'b', {
    files: [
      file('notes/empty.md', ''),
      file('notes/journal/bad.md', '---\ntitle: "unclosed\n---\nSailing on Friday.\n'),
      file('notes/ok.md', 'Tea at five.\n'),
    ],
  });
  assert.deepEqual(
    r.parts.map((p) => [p.name, p.imported, p.skipped]),
    [['notes', 2, 1]],
  );
  assert.match(r.parts[0]!.note ?? '', /^journal\/bad\.md: front matter not read \(/);
});

test('recurrence_since/until choose the window repeating calendar events are expanded in; a backwards window is refused', async () => {
  const ics = standups2022Ics;
  const outside = await importFiles(await brain(), t, 'b', { files: [file('work.ics', ics)] });
  assert.equal(outside.imported, 0);
  assert.match(outside.skipped[0]!.reason, /no occurrence in the import window/);
  const engine = await brain();
  const inside = await importFiles(engine, t, 'b', {
    files: [file('work.ics', ics)],
    recurrence_since: '2022-01-01T00:00:00Z',
    recurrence_until: '2023-01-01T00:00:00Z',
  });
  assert.equal(inside.imported, 3);
  const backwards = ImportRequest.safeParse({
    files: [file('work.ics', ics)],
    recurrence_since: '2023-01-01T00:00:00Z',
    recurrence_until: '2022-01-01T00:00:00Z',
  });
  assert.equal(backwards.success, false);
  assert.deepEqual(
    backwards.error?.issues.map((i) => [i.path.join('.'), i.message]),
    [['recurrence_since', 'must be earlier than recurrence_until']],
  );
  // One end alone, past the other's default, is a window with nothing in it: refused, not every series
  // skipped as outside it.
  const year = 365.25 * 24 * 3600 * 1000;
  const far = new Date(Date.now() + 2 * year).toISOString();
  const long = new Date(Date.now() - 3 * year).toISOString();
  await assert.rejects(
    importFiles(await brain(), t, 'b', { files: [file('work.ics', ics)], recurrence_since: far }),
    (e: MnemoError) =>
      e.code === 'invalid_request_body' &&
      e.message === 'recurrence_since: must be earlier than a year from now, the default recurrence_until',
  );
  await assert.rejects(
    importFiles(await brain(), t, 'b', { files: [file('work.ics', ics)], recurrence_until: long }),
    (e: MnemoError) =>
      e.code === 'invalid_request_body' &&
      e.message === 'recurrence_until: must be later than two years ago, the default recurrence_since',
  );
});

test("an upload's notes take the Brain's names only for a caller that may read them, and only when one could match", async () => {
  const engine = await brain();
  let reads = 0;
  const counted: Engine = {
    ...engine,
    sourceExternalIds: (...a) => {
      reads += 1;
      return engine.sourceExternalIds(...a);
    },
  };
  await importFiles(counted, t, 'b', { files: [file('Notes/todo.md', 'Plant the ALPHAITEM bulbs.\n')] });
  assert.equal(reads, 1, 'read once for the import');
  await importFiles(counted, t, 'b', { files: [file('todo.md', 'A file chosen alone.\n')] });
  await importFiles(counted, t, 'b', { files: [file('chat.ics', standups2022Ics)] });
  assert.equal(reads, 1, 'a file alone names no folder; a calendar holds no notes: nothing read');
  const again = { files: [file('Parent/Notes/todo.md', 'Plant the ALPHAITEM bulbs.\n')] };
  const blind = await importFiles(counted, t, 'b', again, undefined, { readsRecords: false });
  assert.deepEqual([blind.imported, blind.unchanged, blind.matched_notes], [1, 0, undefined]);
  assert.equal(reads, 1, 'a key without records:read reads nothing');
  const seen = await importFiles(counted, t, 'b', { files: [file('Other/Notes/todo.md', 'x\n')] });
  assert.deepEqual(seen.matched_notes, {
    count: 1,
    examples: [{ item: 'Other/Notes/todo.md', external_id: 'Notes/todo.md' }],
  });
  assert.equal(reads, 2);
});

test("an upload into a Brain whose notes' names cannot be read fails before it writes anything", async () => {
  const engine = await brain();
  await importFiles(engine, t, 'b', { files: [file('Notes/todo.md', 'Plant the bulbs.\n')] });
  const broken: Engine = {
    ...engine,
    sourceExternalIds: () => Promise.reject(new Error('disk I/O error')),
  };
  const files = [file('Parent/Notes/todo.md', 'Plant the tulips.\n'), file('Parent/a.md', 'A.\n')];
  await assert.rejects(importFiles(broken, t, 'b', { files }), /disk I\/O error/);
  assert.equal((await engine.listRecords(t, 'b', { limit: 10 })).data.length, 1);
});

test('a chat uploaded again by a key that may not read Records reads none of them, nor the zone of the earlier import', async () => {
  const engine = await brain();
  const chat = '15/01/2024, 09:00 - Anna: Lunch on Friday?\n';
  const files = [file('WhatsApp Chat with Anna.txt', chat)];
  await importFiles(engine, t, 'b', { files, time_zone: 'America/New_York' });
  let reads = 0;
  const counted: Engine = {
    ...engine,
    listRecords: (...a) => {
      reads += 1;
      return engine.listRecords(...a);
    },
  };
  // No zone asked for: with records:read, the earlier import's is followed, and the chat is unchanged.
  const seeing = await importFiles(counted, t, 'b', { files });
  assert.ok(reads > 0);
  assert.deepEqual([seeing.imported, seeing.unchanged], [0, 1]);
  assert.match(
    seeing.parts[0]!.note ?? '',
    /a zone that reads its earlier import's times as they were stored/,
  );
  reads = 0;
  const blind = await importFiles(counted, t, 'b', { files }, undefined, { readsRecords: false });
  assert.equal(reads, 0, 'nothing the Brain holds was read');
  assert.equal(blind.parts[0]!.note, undefined, 'no earlier import was followed');
});

test("uploads together hold at most the server's unpack budget: one past it is too_many_requests, and each gives back its share", async () => {
  const engine = await brain();
  const zipped = async (files: Record<string, string>) => ({
    name: 'notes.zip',
    content_base64: (await zipBytes(files)).toString('base64'),
  });
  const budget = createUnpackBudget(1_000);
  const small = await zipped({ 'notes/a.md': 'Ana keeps bees in Braga.\n'.repeat(10) });
  // Another upload holds most of it, as one still importing would.
  const other = budget.lease();
  other.take(900);
  await assert.rejects(
    importFiles(engine, t, 'b', { files: [small] }, undefined, { unpackBudget: budget }),
    (e: MnemoError) => {
      assert.equal(e.code, 'too_many_requests');
      assert.equal(e.extra.retry_after_seconds, 30);
      assert.match(e.message, /^files: other imports on this server hold 1 MiB unpacked/);
      return true;
    },
  );
  assert.equal(budget.held, 900, 'the refused upload gave back what it took');
  other.release();
  const done = await importFiles(engine, t, 'b', { files: [small] }, undefined, { unpackBudget: budget });
  assert.equal(done.imported, 1);
  assert.equal(budget.held, 0, 'the finished upload gave back its share');
});

test('an upload whose archives alone hold more than the unpack budget is refused for good, not told to wait', async () => {
  const engine = await brain();
  const zipped = async (name: string, files: Record<string, string>) => ({
    name,
    content_base64: (await zipBytes(files)).toString('base64'),
  });
  const budget = createUnpackBudget(1_000);
  // No other upload holds anything: waiting would free nothing, so a 429 would be retried for ever.
  const two = [
    await zipped('a.zip', { 'a/one.md': 'x'.repeat(600) }),
    await zipped('b.zip', { 'b/two.md': 'y'.repeat(600) }),
  ];
  for (const files of [two, [await zipped('big.zip', { 'big/b.md': 'x'.repeat(2_000) })]])
    await assert.rejects(
      importFiles(engine, t, 'b', { files }, undefined, { unpackBudget: budget }),
      (e: MnemoError) => {
        assert.deepEqual([e.code, e.status], ['invalid_request_body', 400]);
        assert.match(e.message, /^files: this upload's archives would hold more than/);
        assert.doesNotMatch(e.message, /other imports/);
        return true;
      },
    );
  assert.equal(budget.held, 0);
});

test("an uploaded archive's archive is not unpacked, and an archive refused among other files forgets nothing", async () => {
  const engine = await brain();
  const inner = await zipBytes({ 'deep.md': '# Deep' });
  const trip = await zipBytes({ 'trip/a.md': '# A\n\nFerry at nine.\n', 'trip/inner.zip': inner });
  const upload = (zip: Buffer, forget = false) =>
    importFiles(engine, t, 'b', {
      files: [
        file('Notes/todo.md', '# Todo\n\nBuy bread.\n'),
        { name: 'Notes/trip.zip', content_base64: zip.toString('base64') },
      ],
      ...(forget ? { forget_missing: true } : {}),
    });
  const first = await upload(trip);
  assert.equal(first.imported, 2);
  assert.deepEqual(first.skipped, [
    {
      item: 'Notes/trip/inner.zip',
      reason: 'an archive inside an archive is not unpacked: unzip the outer archive and import the folder',
    },
  ]);
  // The same archive refused (an entry named to land outside it): what it holds is unknown.
  const slip = slipped(await zipBytes({ 'trip/a.md': '# A', 'xx/evil.md': 'x' }), 'xx/evil.md');
  const refused = await upload(slip, true);
  assert.match(refused.skipped[0]!.reason, /invalid relative path/);
  assert.equal(refused.forgotten, 0);
  assert.deepEqual(await externalIds(engine, 'markdown'), ['Notes/todo.md', 'Notes/trip/a.md'].sort());
});

test('an upload whose writes find the store unreachable ends with store_unavailable, not a failure per item', async () => {
  const engine = await brain();
  let sent = 0;
  const away: Engine = {
    ...engine,
    rememberRecord: () => {
      sent += 1;
      return Promise.reject(new MnemoErrorClass('store_unavailable', 'The database cannot be reached now.'));
    },
  };
  const chat = Array.from({ length: 300 }, (_, i) => `01/02/2024, 10:00 - Ana: message ${i}`).join('\n');
  await assert.rejects(
    importFiles(away, t, 'b', {
      files: [{ name: '_chat.txt', content_base64: Buffer.from(chat).toString('base64') }],
      time_zone: 'UTC',
    }),
    { code: 'store_unavailable' },
  );
  assert.ok(sent < 50, `${sent} of 300 writes were sent to a store that could not take one`);
});

test('forget_missing forgets the notes gone from each chosen folder, every revision, on a SQLite store; a folder alone forgets nothing beside it', async () => {
  const { createLocalEngine } = await import('../../engine/local/index.ts');
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-upload-forget-'));
  const engine = await createLocalEngine({
    dataDir: join(dir, 'data'),
    dbKey: 'u'.repeat(64),
    reranker: null,
  });
  try {
    await engine.createBrain(t, { id: 'b' });
    const at = '2024-01-01T00:00:00Z';
    const vault = (...notes: [string, string][]) => [
      file('Vault/.obsidian/app.json', '{}'),
      ...notes.map(([name, text]) => file(`Vault/${name}`, text, at)),
    ];
    const ids = () => externalIds(engine, 'obsidian');
    await importFiles(
      engine,
      t,
      'b',
      { files: vault(['A/a.md', 'alpha'], ['A/b.md', 'beta'], ['B/c.md', 'gamma']) },
      dir,
    );
    await importFiles(
      engine,
      t,
      'b',
      { files: vault(['A/a.md', 'alpha'], ['A/b.md', 'beta, edited'], ['B/c.md', 'gamma']) },
      dir,
    );
    // Without the option, a note missing from the upload stays.
    const plain = await importFiles(engine, t, 'b', { files: vault(['A/a.md', 'alpha']) }, dir);
    assert.equal(plain.forgotten, undefined);
    assert.equal((await ids()).length, 3);
    // The vault chosen again without A/b.md: it goes, both of its revisions.
    const r = await importFiles(
      engine,
      t,
      'b',
      { files: vault(['A/a.md', 'alpha'], ['B/c.md', 'gamma']), forget_missing: true },
      dir,
    );
    assert.equal(r.forgotten, 1);
    assert.deepEqual(r.forgotten_items, [{ source: 'obsidian', external_id: 'Vault/A/b.md' }]);
    assert.deepEqual(r.forget_notes, []);
    assert.deepEqual(await ids(), ['Vault/A/a.md', 'Vault/B/c.md']);
    assert.equal((await engine.listRecords(t, 'b', { limit: 50, source: 'obsidian' })).data.length, 2);
    // The same upload again forgets nothing more.
    assert.equal(
      (
        await importFiles(
          engine,
          t,
          'b',
          { files: vault(['A/a.md', 'alpha'], ['B/c.md', 'gamma']), forget_missing: true },
          dir,
        )
      ).forgotten,
      0,
    );
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('forget_missing forgets the events and cards gone from an uploaded calendar and contacts file, not another calendar', async () => {
  const { createLocalEngine } = await import('../../engine/local/index.ts');
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-upload-forget-'));
  const engine = await createLocalEngine({
    dataDir: join(dir, 'data'),
    dbKey: 'v'.repeat(64),
    reranker: null,
  });
  try {
    await engine.createBrain(t, { id: 'b' });
    const calendar = (name: string, ...uids: string[]) =>
      file(
        name,
        [
          'BEGIN:VCALENDAR',
          'VERSION:2.0',
          ...uids.flatMap((uid, i) => [
            'BEGIN:VEVENT',
            `UID:${uid}`,
            `DTSTART:2024010${i + 1}T100000Z`,
            `SUMMARY:${uid}`,
            'END:VEVENT',
          ]),
          'END:VCALENDAR',
          '',
        ].join('\r\n'),
      );
    const cards = (...uids: string[]) =>
      file(
        'Cal/people.vcf',
        uids
          .map((u) => `BEGIN:VCARD\r\nVERSION:3.0\r\nUID:${u}\r\nFN:${u}\r\nTEL:1\r\nEND:VCARD\r\n`)
          .join(''),
      );
    const todos = (...uids: string[]) =>
      file(
        'Cal/todo.ics',
        `BEGIN:VCALENDAR\r\nVERSION:2.0\r\n${uids.map((u) => `BEGIN:VTODO\r\nUID:${u}\r\nSUMMARY:${u}\r\nEND:VTODO\r\n`).join('')}END:VCALENDAR\r\n`,
      );
    const ids = (source: string) => externalIds(engine, source);
    await importFiles(engine, t, 'b', { files: [calendar('home.ics', 'h1')] }, dir);
    await importFiles(
      engine,
      t,
      'b',
      { files: [calendar('Cal/work.ics', 'e1', 'e2'), cards('u1', 'u2'), todos('t1', 't2')] },
      dir,
    );
    const r = await importFiles(
      engine,
      t,
      'b',
      { files: [calendar('Cal/work.ics', 'e1'), cards('u1'), todos('t1')], forget_missing: true },
      dir,
    );
    assert.deepEqual(r.forgotten_items?.map((i) => `${i.source} ${i.external_id}`).sort(), [
      'ics ics:e2',
      'ics ics:t2#vtodo',
      'vcf vcf:u2:phone',
    ]);
    assert.deepEqual(r.forget_notes, []);
    assert.deepEqual(await ids('ics'), ['ics:e1', 'ics:h1', 'ics:t1#vtodo']);
    assert.deepEqual(await ids('vcf'), ['vcf:u1:phone']);
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('forget_missing keeps a contact whose card is cut off in the file, and keeps everything when a cut card names no UID', async () => {
  const { createLocalEngine } = await import('../../engine/local/index.ts');
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-upload-cut-'));
  const engine = await createLocalEngine({
    dataDir: join(dir, 'data'),
    dbKey: 'v'.repeat(64),
    reranker: null,
  });
  try {
    await engine.createBrain(t, { id: 'b' });
    const card = (uid: string | null, name: string, end = true) =>
      `BEGIN:VCARD\r\nVERSION:3.0\r\n${uid ? `UID:${uid}\r\n` : ''}FN:${name}\r\nTEL:1\r\n${end ? 'END:VCARD\r\n' : ''}`;
    const people = (...cards: string[]) => file('people.vcf', cards.join(''));
    const ids = () => externalIds(engine, 'vcf');
    await importFiles(
      engine,
      t,
      'b',
      { files: [people(card('ana', 'Ana'), card('bob', 'Bob'), card('cid', 'Cid'))] },
      dir,
    );
    assert.deepEqual(await ids(), ['vcf:ana:phone', 'vcf:bob:phone', 'vcf:cid:phone']);
    // Bob's END is lost before Cid's card begins; Cid's card is cut off by the end of the file.
    const cut = await importFiles(
      engine,
      t,
      'b',
      {
        files: [people(card('ana', 'Ana'), card('bob', 'Bob', false), card('cid', 'Cid', false))],
        forget_missing: true,
      },
      dir,
    );
    assert.deepEqual(cut.forgotten_items ?? [], []);
    assert.deepEqual(await ids(), ['vcf:ana:phone', 'vcf:bob:phone', 'vcf:cid:phone']);
    // A cut card that names no UID before it ends cannot be told from any other: nothing is forgotten.
    const unnamed = await importFiles(
      engine,
      t,
      'b',
      { files: [people(card('ana', 'Ana'), card(null, 'Bob', false))], forget_missing: true },
      dir,
    );
    assert.deepEqual(unnamed.forgotten_items ?? [], []);
    assert.deepEqual(await ids(), ['vcf:ana:phone', 'vcf:bob:phone', 'vcf:cid:phone']);
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('what a calendar or contacts file holds is taken from the text its parser reads, not read again', async () => {
  const fsp = (await import('node:fs/promises')).default;
  const { syncBuiltinESMExports } = await import('node:module');
  const engine = await brain();
  const reads = new Map<string, number>();
  const readFile = fsp.readFile;
  fsp.readFile = ((path: unknown, ...rest: unknown[]) => {
    const name = basename(String(path));
    if (/\.(ics|vcf)$/.test(name)) reads.set(name, (reads.get(name) ?? 0) + 1);
    return (readFile as (...a: unknown[]) => unknown)(path, ...rest);
  }) as typeof fsp.readFile;
  // A vCard is read as a stream, in passes (its encoding, then its cards): each pass counted as a read.
  const fs = (await import('node:fs')).default;
  const createReadStream = fs.createReadStream;
  fs.createReadStream = ((path: unknown, ...rest: unknown[]) => {
    const name = basename(String(path));
    if (/\.(ics|vcf)$/.test(name)) reads.set(`${name} (stream)`, (reads.get(`${name} (stream)`) ?? 0) + 1);
    return (createReadStream as (...a: unknown[]) => unknown)(path, ...rest);
  }) as typeof fs.createReadStream;
  syncBuiltinESMExports();
  try {
    const r = await importFiles(engine, t, 'b', {
      files: [
        file('cal.ics', standups2022Ics),
        file('people.vcf', 'BEGIN:VCARD\r\nVERSION:3.0\r\nUID:u1\r\nFN:Ana\r\nTEL:1\r\nEND:VCARD\r\n'),
      ],
      recurrence_since: '2022-01-01T00:00:00Z',
      forget_missing: true,
    });
    assert.equal(r.imported, 4);
  } finally {
    fsp.readFile = readFile;
    fs.createReadStream = createReadStream;
    syncBuiltinESMExports();
  }
  assert.deepEqual(Object.fromEntries(reads), { 'cal.ics': 1, 'people.vcf (stream)': 2 });
});

test('files chosen beside a conversations.json are each imported in their format, not dropped for the export', async () => {
  const engine = await brain();
  const conversations = chatGptExportOf('Trip', 'I fly to Porto on May 3.');
  const r = await importFiles(engine, t, 'b', {
    files: [
      file(
        'calendar.ics',
        icsOf(['UID:dentist-1', 'DTSTART:20240310T090000Z', 'DTEND:20240310T093000Z', 'SUMMARY:Dentist']),
      ),
      file('conversations.json', conversations),
      file('user.json', '{}'),
    ],
  });
  assert.deepEqual(
    r.parts.map((p) => [p.name, p.format, p.imported, p.skipped]),
    [
      ['conversations.json', 'chatgpt', 1, 0],
      ['calendar.ics', 'ics', 1, 0],
    ],
  );
});

test("a calendar's to-dos are tasks, open or done; one ticked off in the calendar is done once imported again, one cancelled gone", async () => {
  // The local engine: its Memories are the rules' (the reference engine's are its Records' text).
  const { createLocalEngine } = await import('../../engine/local/index.ts');
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-upload-todo-'));
  const engine = await createLocalEngine({
    dataDir: join(dir, 'data'),
    dbKey: 'v'.repeat(64),
    reranker: null,
  });
  after(async () => {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  });
  await engine.createBrain(t, { id: 'b' });
  const calendar = (passport: 'IN-PROCESS' | 'COMPLETED' | 'CANCELLED') =>
    file(
      'tasks.ics',
      [
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'BEGIN:VTODO',
        'UID:t1',
        'DTSTAMP:20261201T080000Z',
        'SUMMARY:Send Priya the onboarding doc',
        'DUE;VALUE=DATE:20261210',
        'STATUS:NEEDS-ACTION',
        'END:VTODO',
        'BEGIN:VTODO',
        'UID:t2',
        'DTSTAMP:20261201T080000Z',
        'SUMMARY:Renew passport',
        `STATUS:${passport}`,
        ...(passport === 'COMPLETED' ? ['COMPLETED:20261203T120000Z'] : []),
        'END:VTODO',
        'END:VCALENDAR',
        '',
      ].join('\r\n'),
    );
  const tasks = async () => {
    await engine.idle();
    return (await engine.listMemories(t, 'b', { limit: 50 })).data
      .map((m) => m.statement)
      .filter((s) => /^(?:To do|Done): /u.test(s))
      .sort();
  };
  await importFiles(engine, t, 'b', { files: [calendar('IN-PROCESS')] }, dir);
  assert.deepEqual(await tasks(), ['To do: Renew passport', 'To do: Send Priya the onboarding doc']);
  // The Record keeps when it is due, which the Memory quotes beside.
  const records = (await engine.listRecords(t, 'b', { limit: 50, source: 'ics' })).data;
  const send = records.find((r) => r.source.external_id === 'ics:t1#vtodo')!;
  assert.ok(send.content.kind === 'document');
  assert.match(send.content.text, /^To-do: Send Priya the onboarding doc\nDue: 2026-12-10/u);
  const again = await importFiles(engine, t, 'b', { files: [calendar('COMPLETED')] }, dir);
  assert.equal(again.replaced, 1);
  assert.deepEqual(await tasks(), ['Done: Renew passport', 'To do: Send Priya the onboarding doc']);
  // A cancelled to-do is no Record and no task: one cancelled since is forgotten with what is missing.
  const cancelled = await importFiles(
    engine,
    t,
    'b',
    { files: [calendar('CANCELLED')], forget_missing: true },
    dir,
  );
  assert.deepEqual(
    cancelled.forgotten_items?.map((i) => i.external_id),
    ['ics:t2#vtodo'],
  );
  assert.deepEqual(await tasks(), ['To do: Send Priya the onboarding doc']);
});
