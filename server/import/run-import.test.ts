import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { MnemoApiError, type MnemoClient } from '../client/index.ts';
import type { ImportProgress } from './run-import.ts';
import { parsers, readingOptions, runImport } from './run-import.ts';
import type { ByteSource } from './text-lines.ts';
import { collect } from './test-support.ts';
import { MissingItems } from './forget-missing.ts';
import { formatSummary } from '../cli/commands/import.ts';

/**
 * A store holding nothing that takes a turn of the event loop per Record, as a server's answer does:
 * what an import reads before it writes (the Brain, its sources, Objects and notes) is empty.
 */
const storeOfNothing = () =>
  ({
    getBrain: () => Promise.resolve({}),
    listSources: () => Promise.resolve({ data: [] }),
    rememberRecord: async () => {
      await new Promise((r) => setImmediate(r));
      return { record: {}, replayed: false };
    },
    // What a contacts file held is recorded as an Object (forget-missing.ts).
    listObjects: () => Promise.resolve({ data: [], next_cursor: null }),
    acceptObject: () => Promise.resolve({}),
    // The notes already stored, which an import of notes reads first (known-note-names.ts): none.
    listRecords: () => Promise.resolve({ data: [], has_more: false, next_cursor: null }),
  }) as unknown as MnemoClient;

test('Records are sent while the export is still being read, never more than a queue ahead', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-run-import-'));
  try {
    const n = 3000;
    const lines = Array.from(
      { length: n },
      (_, i) => `0${1 + (i % 9)}/02/2024, 10:${String(i % 60).padStart(2, '0')} - Ana: message number ${i}`,
    );
    const file = join(dir, 'WhatsApp Chat with Ana.txt');
    writeFileSync(file, lines.join('\n'));
    let held = 0;
    let mostHeld = 0;
    const sentAt: ImportProgress[] = [];
    let last: ImportProgress | undefined;
    const client = storeOfNothing();
    const summary = await runImport({
      client,
      brainId: 'b',
      path: file,
      timeZone: 'UTC',
      onProgress: (p) => {
        last = p;
        if (p.imported === 1 && sentAt.length === 0) sentAt.push(p);
        held = p.total - p.done;
        mostHeld = Math.max(mostHeld, held);
      },
    });
    assert.equal(summary.imported, n);
    assert.equal(summary.total, n);
    assert.ok(sentAt[0]!.total < n, `the first Record went out after reading ${sentAt[0]!.total} of ${n}`);
    assert.ok(mostHeld <= 256 + 8 + 1, `at most a queue and the requests in flight ahead: ${mostHeld}`);
    assert.equal(last!.done, n, 'the last report counts every Record');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A WhatsApp export of `n` messages from Ana, all at one minute, in `dir`. */
function chatOfAna(dir: string, n: number): string {
  const file = join(dir, 'WhatsApp Chat with Ana.txt');
  writeFileSync(
    file,
    Array.from({ length: n }, (_, i) => `01/02/2024, 10:00 - Ana: message ${i}`).join('\n'),
  );
  return file;
}

test('a failure outside the per-item handling ends the run with that error instead of leaving it waiting', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-run-import-'));
  try {
    const file = chatOfAna(dir, 1000);
    const client = {
      getBrain: () => Promise.resolve({}),
      listSources: () => Promise.resolve({ data: [] }),
      rememberRecord: () => Promise.resolve({ record: {}, replayed: false }),
    } as unknown as MnemoClient;
    let calls = 0;
    await assert.rejects(
      runImport({
        client,
        brainId: 'b',
        path: file,
        timeZone: 'UTC',
        onProgress: (p) => {
          if (p.imported > 0 && ++calls > 3) throw new Error('the display broke');
        },
      }),
      /the display broke/,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a file that stops reading part way is a failure in the summary, after what it read was sent', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-run-import-'));
  const real = parsers.whatsapp;
  // A disk or network share failing mid-file: the real parser's first items, then the read error.
  parsers.whatsapp = async function* (path, options) {
    let n = 0;
    for await (const item of real(path, options)) {
      if (++n > 3) throw new Error('EIO: i/o error, read');
      yield item;
    }
  };
  try {
    const file = join(dir, 'WhatsApp Chat with Ana.txt');
    writeFileSync(
      file,
      Array.from({ length: 10 }, (_, i) => `01/02/2024, 10:0${i} - Ana: message ${i}`).join('\n'),
    );
    const sent: string[] = [];
    const client = {
      getBrain: () => Promise.resolve({}),
      listSources: () => Promise.resolve({ data: [] }),
      rememberRecord: (_b: string, body: { content: { text: string } }) => {
        sent.push(body.content.text);
        return Promise.resolve({ record: {}, replayed: false });
      },
    } as unknown as MnemoClient;
    // No time zone: the look for an earlier import's zone reads the file on its own (readChat), as the
    // disk allows it; the import's own read then meets the error part way.
    const summary = await runImport({ client, brainId: 'b', path: file });
    assert.deepEqual(sent, ['message 0', 'message 1', 'message 2']);
    assert.equal(summary.imported, 3);
    assert.equal(summary.failed, 1, 'the unread rest fails the run (exit 1), it is not a skip');
    assert.equal(summary.failedItems[0]!.code, 'read_failed');
    assert.match(summary.failedItems[0]!.reason, /stopped reading after 3 items: EIO/);
    assert.match(
      formatSummary(summary),
      /imported 3, replaced 0, unchanged 0, skipped 0, failed 1[\s\S]*read_failed/,
    );

    // Failing before the first item is still the command's own error: nothing was sent.
    parsers.whatsapp = () => {
      throw new Error('EACCES: permission denied');
    };
    await assert.rejects(runImport({ client, brainId: 'b', path: file, timeZone: 'UTC' }), /EACCES/);
  } finally {
    parsers.whatsapp = real;
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a server that cannot reach its store or its keys stops the import, not each item's failure", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-run-import-'));
  try {
    const file = chatOfAna(dir, 1000);
    for (const [status, code] of [
      [503, 'store_unavailable'],
      [500, 'key_registry_unreadable'],
    ] as const) {
      let sent = 0;
      const client = {
        getBrain: () => Promise.resolve({}),
        listSources: () => Promise.resolve({ data: [] }),
        rememberRecord: () => {
          sent += 1;
          return Promise.reject(new MnemoApiError(status, { type: 'internal', code, message: code }));
        },
      } as unknown as MnemoClient;
      await assert.rejects(runImport({ client, brainId: 'b', path: file, timeZone: 'UTC' }), { code });
      assert.ok(sent < 50, `${code}: ${sent} of 1000 items were sent to a server that could not take one`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a calendar event repeated exactly is imported once and its copy is listed under skipped', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-run-import-'));
  try {
    const event = [
      'BEGIN:VEVENT',
      'UID:dentist',
      'SUMMARY:Dentist',
      'DTSTART:20240305T090000Z',
      'END:VEVENT',
    ];
    const file = join(dir, 'cal.ics');
    writeFileSync(
      file,
      ['BEGIN:VCALENDAR', 'VERSION:2.0', ...event, ...event, 'END:VCALENDAR', ''].join('\r\n'),
    );
    const client = {
      getBrain: () => Promise.resolve({}),
      listSources: () => Promise.resolve({ data: [] }),
      rememberRecord: () => Promise.resolve({ record: {}, replayed: false }),
      listObjects: () => Promise.resolve({ data: [], has_more: false, next_cursor: null }),
      acceptObject: () => Promise.resolve({}),
    } as unknown as MnemoClient;
    const summary = await runImport({ client, brainId: 'b', path: file, timeZone: 'UTC' });
    assert.deepEqual([summary.imported, summary.skipped], [1, 1]);
    assert.match(
      formatSummary(summary),
      /skipped:\n {2}1 x an exact copy of the event "Dentist" in the file, which is imported \(dentist\)/,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--forget-missing forgets the notes, events and cards gone from PATH, every revision, only under PATH', async () => {
  const { mkdirSync, unlinkSync } = await import('node:fs');
  const { FileKeyRegistry } = await import('../../engine/auth/key-registry.ts');
  const { createLocalEngine } = await import('../../engine/local/index.ts');
  const { createMnemoClient } = await import('../client/index.ts');
  const { serveApp } = await import('../http/testing/serve-app.ts');
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-forget-missing-'));
  const registry = FileKeyRegistry.ensure(join(dir, 'keys.json'));
  const engine = await createLocalEngine({
    dataDir: join(dir, 'data'),
    dbKey: 'f'.repeat(64),
    reranker: null,
  });
  const server = await serveApp({ engine, registry });
  try {
    const tenant = { project: 'home', env: 'test' } as const;
    const client = createMnemoClient({
      baseUrl: `${server.origin}/v1`,
      apiKey: (await registry.create(tenant)).key,
    });
    const vault = join(dir, 'Vault');
    const write = (rel: string, text: string) => {
      mkdirSync(join(vault, rel, '..'), { recursive: true });
      writeFileSync(join(vault, rel), text);
    };
    write('.obsidian/app.json', '{}');
    write('Daily/a.md', '# A\n\nalpha\n');
    write('Daily/b.md', '# B\n\nbeta\n');
    write('Work/c.md', '# C\n\ngamma\n');
    const event = (uid: string, day: string, status = 'CONFIRMED') => [
      `BEGIN:VEVENT`,
      `UID:${uid}`,
      `DTSTART:202401${day}T100000Z`,
      `SUMMARY:${uid}`,
      `STATUS:${status}`,
      'END:VEVENT',
    ];
    const calendar = (...events: string[][]) =>
      ['BEGIN:VCALENDAR', 'VERSION:2.0', ...events.flat(), 'END:VCALENDAR', ''].join('\r\n');
    write('cal.ics', calendar(event('e1', '01'), event('e2', '02'), event('e3', '03')));
    const card = (uid: string, name: string, tel: string) =>
      `BEGIN:VCARD\r\nVERSION:3.0\r\nUID:${uid}\r\nFN:${name}\r\nTEL:${tel}\r\nEMAIL:${uid}@x.org\r\nEND:VCARD\r\n`;
    write('people.vcf', card('u1', 'Ana', '1') + card('u2', 'Rui', '2') + card('u3', 'Eva', '3'));
    const run = (path: string, o: { forgetMissing?: boolean; dryRun?: boolean } = {}) =>
      runImport({ client, brainId: 'b', path, timeZone: 'UTC', ...o });
    // One id per item, whatever its revisions.
    const ids = async (source: string) => [
      ...new Set(
        (await engine.listRecords(tenant, 'b', { limit: 100, source })).data
          .map((r) => r.source.external_id)
          .sort(),
      ),
    ];

    await run(vault);
    // Another calendar, imported on its own: its events are no file's under the vault.
    const other = join(dir, 'other.ics');
    writeFileSync(other, calendar(event('o1', '05')));
    await run(other);
    // b.md has two revisions; then b.md, event e2 and card u2 are deleted, a.md is left alone.
    write('Daily/b.md', '# B\n\nbeta, edited\n');
    assert.equal((await run(vault)).replaced, 1);
    unlinkSync(join(vault, 'Daily/b.md'));
    write('cal.ics', calendar(event('e1', '01'), event('e3', '03')));
    write('people.vcf', card('u1', 'Ana', '1') + card('u3', 'Eva', '3'));

    // Without the option nothing goes: deletions are not inferred from absence.
    assert.deepEqual((await run(vault)).forgottenItems, []);
    assert.deepEqual(await ids('obsidian'), ['Vault/Daily/a.md', 'Vault/Daily/b.md', 'Vault/Work/c.md']);

    // A subfolder imported alone forgets what is gone from it only: Work holds all it held.
    const work = await run(join(vault, 'Work'), { forgetMissing: true });
    assert.deepEqual(work.forgottenItems, []);

    const dry = await run(vault, { forgetMissing: true, dryRun: true });
    assert.equal(dry.dryRun, true);
    // The event and the card deleted from their files go as the note does, every field of the card.
    assert.deepEqual(dry.forgottenItems.map((i) => `${i.source} ${i.externalId}`).sort(), [
      'ics ics:e2',
      'obsidian Vault/Daily/b.md',
      'vcf vcf:u2:email',
      'vcf vcf:u2:phone',
    ]);
    assert.match(
      formatSummary(dry),
      /would forget 4 items missing from the files:\n {2}obsidian: Vault\/Daily\/b\.md\n {2}ics: ics:e2\n/,
    );
    assert.equal((await ids('obsidian')).length, 3, 'a dry run forgets nothing');
    assert.equal((await ids('ics')).length, 4, 'a dry run forgets nothing');

    const done = await run(vault, { forgetMissing: true });
    assert.equal(done.forgottenItems.length, 4);
    assert.equal(done.forgottenRecords, 5, 'both revisions of b.md, the event, both fields of the card');
    assert.match(
      formatSummary(done),
      /forgot 4 items missing from the files, with every revision \(5 Records/,
    );
    assert.deepEqual(await ids('obsidian'), ['Vault/Daily/a.md', 'Vault/Work/c.md']);
    assert.deepEqual(done.forgetNotes, []);
    // The other calendar's event is in no file under the vault: not missing from it.
    assert.deepEqual(await ids('ics'), ['ics:e1', 'ics:e3', 'ics:o1']);
    assert.deepEqual(await ids('vcf'), ['vcf:u1:email', 'vcf:u1:phone', 'vcf:u3:email', 'vcf:u3:phone']);
    // Idempotent: nothing more is missing.
    assert.deepEqual((await run(vault, { forgetMissing: true })).forgottenItems, []);
    assert.equal((await ids('obsidian')).length, 2);

    // A cancelled event is one the calendar no longer has, though its UID is still in the file.
    write('cal.ics', calendar(event('e1', '01'), event('e3', '03', 'CANCELLED')));
    assert.deepEqual(
      (await run(vault, { forgetMissing: true })).forgottenItems.map((i) => i.externalId),
      ['ics:e3'],
    );
    assert.deepEqual(await ids('ics'), ['ics:e1', 'ics:o1']);

    // A folder none of whose stored notes is there now (emptied, another one) keeps them all.
    unlinkSync(join(vault, 'Work/c.md'));
    write('Work/meeting.ics', calendar(event('e1', '01')));
    const emptied = await run(join(vault, 'Work'), { forgetMissing: true });
    assert.deepEqual(emptied.forgottenItems, []);
    assert.match(emptied.forgetNotes.join('\n'), /under "Vault\/Work\/" is all missing from this import/);
    assert.ok((await ids('obsidian')).includes('Vault/Work/c.md'));
    // What Work/meeting.ics lacks of cal.ics is no file's under Work: nothing of it was missing.
    assert.deepEqual(await ids('ics'), ['ics:e1', 'ics:o1']);

    // A calendar file gone from the folder is missing whole, but not an event another file holds.
    write('Work/trip.ics', calendar(event('t1', '07')));
    await run(vault);
    unlinkSync(join(vault, 'Work/trip.ics'));
    unlinkSync(join(vault, 'Work/meeting.ics'));
    const left = await run(vault, { forgetMissing: true });
    assert.deepEqual(left.forgottenItems.map((i) => i.externalId).sort(), ['Vault/Work/c.md', 'ics:t1']);
    assert.deepEqual(await ids('ics'), ['ics:e1', 'ics:o1']);
  } finally {
    await server.close();
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a note the import read counts as there, though the walk before it did not see it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-forget-missing-'));
  try {
    const vault = join(dir, 'Notes');
    mkdirSync(vault);
    writeFileSync(join(vault, 'a.md'), 'a');
    const missing = new MissingItems();
    await missing.coverNotes([vault], undefined, async (id) => id);
    // A plain folder's notes are named by their real paths (note-identity.ts).
    const stored = async () => [join(realpathSync(vault), 'a.md'), join(realpathSync(vault), 'b.md')];
    assert.deepEqual(
      [...(await missing.missing(stored)).bySource],
      [['markdown', [join(realpathSync(vault), 'b.md')]]],
      'before the import read it, b.md is missing',
    );
    // b.md, written while the import ran: read by it, and so stored, after the walk.
    const name = (await stored())[1]!;
    missing.sawRecord({
      type: 'record',
      ref: 'b.md',
      body: { content: 'b', source: { name: 'markdown', external_id: name } },
    } as never);
    assert.deepEqual([...(await missing.missing(stored)).bySource], []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** The progress reports of a dry import of FILE; `expected` as the report gives it, else `total`. */
async function progressOf(
  file: string,
): Promise<{ first: number; expected: number[]; done: number; reports: ImportProgress[] }> {
  const client = storeOfNothing();
  const expected: number[] = [];
  const reports: ImportProgress[] = [];
  let first = -1;
  const summary = await runImport({
    client,
    brainId: 'b',
    path: file,
    timeZone: 'UTC',
    onProgress: (p) => {
      reports.push(p);
      if (p.scanning !== undefined) return;
      expected.push(p.expected ?? p.total);
      if (first === -1 && p.done > 0) first = p.total;
    },
  });
  return { first, expected, done: summary.done, reports };
}

/**
 * Imports PATH dry and checks that it was sent while read and that every report once a tenth was
 * written expected its items, give or take 5%; the number of items.
 */
async function expectsItsItems(path: string): Promise<number> {
  const { first, expected, done } = await progressOf(path);
  assert.ok(first < done / 2, `${path}: sent while read (${first} of ${done} read at the first)`);
  const late = expected.slice(Math.ceil(expected.length / 10));
  const off = late.filter((e) => Math.abs(e - done) > done * 0.05);
  assert.deepEqual(off.slice(0, 3), [], `${path}: ${off.length} reports expect other than ${done}`);
  return done;
}

test('progress expects every item of a chat, mailbox, address book or calendar while only a queue of it is read', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-run-import-'));
  try {
    const n = 3000;
    const chat = join(dir, 'WhatsApp Chat with Ana.txt');
    writeFileSync(
      chat,
      Array.from(
        { length: n },
        (_, i) => `01/02/2024, 10:${String(i % 60).padStart(2, '0')} - Ana: hi ${i}`,
      ).join('\n'),
    );
    const mbox = join(dir, 'mail.mbox');
    writeFileSync(
      mbox,
      Array.from(
        { length: 1000 },
        (_, i) =>
          `From ana@example.com Thu Feb  1 10:00:00 2024\nFrom: Ana <ana@example.com>\nSubject: note ${i}\n` +
          `Message-ID: <m${i}@example.com>\nDate: Thu, 1 Feb 2024 10:00:00 +0000\n\nBody ${i}\n`,
      ).join('\n'),
    );
    const vcf = join(dir, 'contacts.vcf');
    writeFileSync(
      vcf,
      Array.from(
        { length: 600 },
        (_, i) => `BEGIN:VCARD\nVERSION:3.0\nFN:Person ${i}\nEMAIL:p${i}@example.com\nUID:c${i}\nEND:VCARD\n`,
      ).join(''),
    );
    const ics = join(dir, 'calendar.ics');
    const events = Array.from(
      { length: 600 },
      (_, i) =>
        `BEGIN:VEVENT\nUID:e${i}\nDTSTAMP:20240101T000000Z\nDTSTART:20240201T${String(i % 24).padStart(2, '0')}0000Z\n` +
        `SUMMARY:Meeting ${i}\nEND:VEVENT\n`,
    );
    writeFileSync(ics, `BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//t//EN\n${events.join('')}END:VCALENDAR\n`);
    // A mailbox is read once for its threads before its first mail is sent: how far is heard, a report
    // a percent at most, each before any item.
    const { reports } = await progressOf(mbox);
    const scans = reports.flatMap((p) => (p.scanning ? [p] : []));
    assert.ok(scans.length >= 50 && scans.length <= 101, `${scans.length} reports of the first pass`);
    assert.ok(scans.every((p) => p.done === 0 && p.scanning!.ref === mbox));
    const fractions = scans.map((p) => p.scanning!.fraction);
    assert.deepEqual(
      fractions,
      [...fractions].sort((a, b) => a - b),
      'in order',
    );
    assert.ok(fractions.at(-1)! > 0.98 && fractions.at(-1)! <= 1, String(fractions.at(-1)));
    assert.ok(reports.indexOf(scans.at(-1)!) < reports.findIndex((p) => p.done > 0));
    for (const file of [chat, mbox, vcf, ics]) await expectsItsItems(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('progress expects every item of a notes folder, a Slack export and a ChatGPT or Claude export while only a queue of it is read', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-run-import-'));
  try {
    const notes = join(dir, 'vault');
    for (let i = 0; i < 900; i++) {
      const folder = join(notes, `f${i % 9}`);
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, `note ${i}.md`), `# Note ${i}\n\nSomething worth keeping, number ${i}.\n`);
      // Files beside the notes are not read, and must not count as part of what is read.
      if (i % 3 === 0) writeFileSync(join(folder, `picture ${i}.png`), 'not a note');
    }
    const slack = join(dir, 'slack');
    mkdirSync(join(slack, 'general'), { recursive: true });
    writeFileSync(join(slack, 'users.json'), JSON.stringify([{ id: 'U01', name: 'ana', real_name: 'Ana' }]));
    writeFileSync(join(slack, 'channels.json'), JSON.stringify([{ id: 'C01', name: 'general' }]));
    // Days of one message to fifteen: a count of days would misjudge what is left.
    for (let d = 0; d < 120; d++) {
      const day = new Date(Date.UTC(2024, 0, 1) + d * 86_400_000).toISOString().slice(0, 10);
      const messages = Array.from({ length: 1 + ((d * 7) % 15) }, (_, i) => ({
        type: 'message',
        user: 'U01',
        text: `day ${d} message ${i}`,
        ts: `${1704067200 + d * 86_400 + i}.000100`,
      }));
      writeFileSync(join(slack, 'general', `${day}.json`), JSON.stringify(messages));
    }
    const sizes = (n: number) => Array.from({ length: n }, (_, c) => 1 + ((c * 13) % 24));
    const chatgpt = join(dir, 'chatgpt', 'conversations.json');
    mkdirSync(dirname(chatgpt));
    writeFileSync(
      chatgpt,
      JSON.stringify(
        sizes(80).map((n, c) => {
          const mapping: Record<string, unknown> = {};
          for (let i = 0; i < n; i++)
            mapping[`m${i}`] = {
              id: `m${i}`,
              parent: i === 0 ? null : `m${i - 1}`,
              children: i + 1 < n ? [`m${i + 1}`] : [],
              message: {
                id: `m${i}`,
                author: { role: i % 2 === 0 ? 'user' : 'assistant' },
                create_time: 1709550000 + c * 1000 + i,
                content: { content_type: 'text', parts: [`conversation ${c} message ${i}`] },
              },
            };
          return { title: `c${c}`, conversation_id: `c${c}`, current_node: `m${n - 1}`, mapping };
        }),
      ),
    );
    const claude = join(dir, 'claude', 'conversations.json');
    mkdirSync(dirname(claude));
    writeFileSync(
      claude,
      JSON.stringify(
        sizes(80).map((n, c) => ({
          uuid: `c${c}`,
          name: `c${c}`,
          created_at: '2024-04-01T09:00:00Z',
          chat_messages: Array.from({ length: n }, (_, i) => ({
            uuid: `c${c}m${i}`,
            sender: i % 2 === 0 ? 'human' : 'assistant',
            text: `conversation ${c} message ${i}`,
            created_at: '2024-04-01T09:00:05Z',
          })),
        })),
      ),
    );
    for (const path of [notes, slack, chatgpt, claude]) assert.ok((await expectsItsItems(path)) > 800, path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('counted first, a folder of chats, a mailbox and a picture expects its every item from the first report', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-run-import-'));
  try {
    // Chats of very different lengths, as a person's export is: the first file's rate foretold nothing.
    for (const [name, n] of [
      ['Lucija', 2],
      ['Mama', 140],
      ['Marko', 150],
      ['Petra Kos', 300],
    ] as const)
      writeFileSync(
        join(dir, `WhatsApp Chat with ${name}.txt`),
        Array.from(
          { length: n },
          (_, i) => `0${1 + (i % 9)}/02/2024, 10:${String(i % 60).padStart(2, '0')} - ${name}: hi ${i}`,
        ).join('\n'),
      );
    writeFileSync(
      join(dir, 'mail.mbox'),
      Array.from(
        { length: 40 },
        (_, i) =>
          `From ana@example.com Thu Feb  1 10:00:00 2024\nFrom: Ana <ana@example.com>\nSubject: note ${i}\n` +
          `Message-ID: <m${i}@example.com>\nDate: Thu, 1 Feb 2024 10:00:00 +0000\n\nBody ${i}\n`,
      ).join('\n'),
    );
    writeFileSync(join(dir, 'picture.png'), 'not an export');
    const run = async (countFirst: boolean) => {
      const reports: ImportProgress[] = [];
      const client = storeOfNothing();
      const summary = await runImport({
        client,
        brainId: 'b',
        path: dir,
        timeZone: 'UTC',
        countFirst,
        onProgress: (p) => reports.push(p),
      });
      return { summary, reports };
    };
    const { summary, reports } = await run(true);
    assert.equal(summary.total, 2 + 140 + 150 + 300 + 40 + 1);
    const counts = reports.flatMap((p) => (p.counting === undefined ? [] : [p.counting]));
    assert.equal(counts.at(-1), summary.total, 'the count heard as it grows');
    const firstItem = reports.findIndex((p) => p.counting === undefined && p.scanning === undefined);
    assert.ok(
      reports.slice(firstItem).every((p) => p.counting === undefined),
      'counted before any item',
    );
    const ends = reports
      .slice(firstItem)
      .filter((p) => p.scanning === undefined)
      .map((p) => Math.max(p.total, p.expected ?? 0));
    assert.deepEqual([...new Set(ends)], [summary.total], 'every report expects the whole import');
    // Not counted first, each file's end is all a report could know.
    const uncounted = await run(false);
    assert.ok(uncounted.reports.every((p) => p.counting === undefined));
    assert.ok(
      uncounted.reports.some((p) => Math.max(p.total, p.expected ?? 0) < summary.total),
      'without the count the end grows',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a WhatsApp import reads its chat as few times as it needs: its first pass, the look for an earlier import, the import', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-run-import-'));
  try {
    // All on days 1 to 12: the order is looked for as well as the zone, each in both readings.
    const lines = Array.from(
      { length: 40 },
      (_, i) => `0${1 + (i % 9)}/02/2024, 10:${10 + i} - Ana: note ${i}`,
    );
    const path = join(dir, 'WhatsApp Chat with Ana.txt');
    writeFileSync(path, lines.join('\n'));
    const bytes = readFileSync(path);
    const target = { name: '', format: 'whatsapp' as const, path };
    // Imported before month first, in Tokyo: both the order and the zone are followed.
    const before = await collect(parsers.whatsapp(path, { timeZone: 'Asia/Tokyo', dateOrder: 'mdy' }));
    const stored = before.records.map((r) => ({
      externalId: r.body.source.external_id,
      text: (r.body.content as { text: string }).text,
    }));
    for (const earlier of [[], stored]) {
      let reads = 0;
      const counted: ByteSource = async function* () {
        reads += 1;
        yield bytes;
      };
      const reading = await readingOptions(
        target,
        {},
        async function* () {
          yield* earlier;
        },
        counted,
      );
      const { records } = await collect(parsers.whatsapp(path, reading.options));
      // Reading the bytes twice is the first pass: the encoding is known once all of them are read. A
      // Brain without a WhatsApp message has no earlier import to look for.
      assert.equal(
        reads,
        earlier.length > 0 ? 4 : 3,
        'the first pass (two reads), the look for an earlier import, the import',
      );
      assert.equal(records.length, 40);
      if (earlier.length > 0) {
        assert.equal(reading.options.dateOrder, 'mdy');
        assert.deepEqual(
          records.map((r) => r.body.source.external_id),
          stored.map((r) => r.externalId),
          'read as the earlier import was',
        );
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a copy read after its first is out of the duplicate window is sent under the same key and stores nothing twice', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-run-import-'));
  try {
    const event = (uid: string) => [
      'BEGIN:VEVENT',
      `UID:${uid}`,
      `SUMMARY:${uid}`,
      'DTSTART:20240305T090000Z',
      'END:VEVENT',
    ];
    const calendar = (...uids: string[]) =>
      ['BEGIN:VCALENDAR', 'VERSION:2.0', ...uids.flatMap(event), 'END:VCALENDAR', ''].join('\r\n');
    // The dentist again, in a second calendar, after three other events.
    const file = join(dir, 'calendars');
    mkdirSync(file);
    writeFileSync(join(file, 'a.ics'), calendar('dentist', 'gym', 'school', 'bank'));
    writeFileSync(join(file, 'b.ics'), calendar('dentist'));
    // A store that answers a key it has seen with the Record it holds, as the server's Idempotency-Key does.
    const stored = new Map<string, { record: { id: string } }>();
    const client = {
      getBrain: () => Promise.resolve({}),
      listSources: () => Promise.resolve({ data: [] }),
      rememberRecord: (_b: string, _body: unknown, o: { idempotencyKey: string }) => {
        const held = stored.get(o.idempotencyKey);
        if (held) return Promise.resolve({ ...held, replayed: true });
        const written = { record: { id: `rec_${stored.size}` } };
        stored.set(o.idempotencyKey, written);
        return Promise.resolve({ ...written, replayed: false });
      },
      listObjects: () => Promise.resolve({ data: [], has_more: false, next_cursor: null }),
      acceptObject: () => Promise.resolve({}),
    } as unknown as MnemoClient;
    const within = await runImport({ client, brainId: 'b', path: file, timeZone: 'UTC', duplicateWindow: 4 });
    assert.deepEqual([within.imported, within.unchanged, within.skipped], [4, 0, 1], 'a skip, as before');
    stored.clear();
    const beyond = await runImport({ client, brainId: 'b', path: file, timeZone: 'UTC', duplicateWindow: 3 });
    assert.deepEqual([beyond.imported, beyond.unchanged, beyond.skipped], [4, 1, 0], 'sent, and replayed');
    assert.equal(stored.size, 4, 'each event stored once');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
