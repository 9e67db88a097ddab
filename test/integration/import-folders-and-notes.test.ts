import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { FileKeyRegistry } from '../../engine/auth/key-registry.ts';
import { createLocalEngine } from '../../engine/local/index.ts';
import type { Engine } from '../../engine/types.ts';
import { MnemoApiError, createMnemoClient, type MnemoClient } from '../../server/client/index.ts';
import { chatGptExportOf } from '../../server/import/test-support.ts';
import { runImport } from '../../server/import/run-import.ts';
import { serveApp, type ServedApp } from '../../server/http/testing/serve-app.ts';

// `mnemo import` of notes and of mixed folders against the local engine (encrypted SQLite) over /v1.
const dir = mkdtempSync(join(tmpdir(), 'mnemo-import-folders-'));
const registry = FileKeyRegistry.ensure(join(dir, 'keys.json'));
let engine: Engine;
let server: ServedApp;
let client: MnemoClient;
let key: string;

before(async () => {
  engine = await createLocalEngine({ dataDir: join(dir, 'data'), dbKey: 'f'.repeat(64), reranker: null });
  server = await serveApp({ engine, registry });
  key = (await registry.create({ project: 'home', env: 'test' })).key;
  client = createMnemoClient({ baseUrl: `${server.origin}/v1`, apiKey: key });
});

after(async () => {
  await server.close();
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

function write(path: string, content: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  return path;
}

const touch = (path: string, iso: string) => utimesSync(path, new Date(iso), new Date(iso));

const counts = (s: { imported: number; unchanged: number; skipped: number; failed: number }) => [
  s.imported,
  s.unchanged,
  s.skipped,
  s.failed,
];

/** `mnemo import ARGS` as a child process against this server. */
function cli(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['bin/mnemo.mjs', 'import', ...args], {
      env: { ...process.env, MNEMO_URL: `${server.origin}/v1`, MNEMO_KEY: key },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('notes: what counts as a change', () => {
  test('a note whose file was only touched is unchanged; an edited one is a new revision of the same item', async () => {
    const note = write(join(dir, 'touched', 'groceries.md'), '# Groceries\nOat milk, rye bread.\n');
    touch(note, '2024-01-10T08:00:00Z');
    const opts = { client, brainId: 'touched', path: note };
    assert.deepEqual(counts(await runImport(opts)), [1, 0, 0, 0]);

    // A sync, a restore or `git checkout` gives the same bytes a new modification time.
    touch(note, '2024-06-01T12:00:00Z');
    assert.deepEqual(counts(await runImport(opts)), [0, 1, 0, 0]);
    const once = (await client.listRecords('touched')).data;
    assert.equal(once.length, 1, 'no second Record of the same note');
    assert.equal(
      once[0]!.occurred_at,
      '2024-01-10T08:00:00.000Z',
      'the note keeps the time it was first seen at',
    );

    writeFileSync(note, '# Groceries\nOat milk, rye bread, coffee.\n');
    touch(note, '2024-06-02T12:00:00Z');
    const edited = await runImport(opts);
    assert.deepEqual(counts(edited), [0, 0, 0, 0]);
    assert.equal(edited.replaced, 1, 'its new version, not a new item');
    const twice = (await client.listRecords('touched')).data;
    assert.equal(twice.length, 2);
    assert.equal(new Set(twice.map((r) => r.source.external_id)).size, 1, 'the same item, revised');
  });
});

describe('a folder of mixed files', () => {
  test('each file is read in its own format; what cannot be read is listed; a re-import is unchanged', async () => {
    const root = join(dir, 'mixed');
    write(join(root, 'plan.md'), '---\ndate: 2024-03-05\n---\n# Trip\r\nVisit [[Porto]].\r\n');
    write(join(root, 'broken-fm.md'), '---\ntitle: "unterminated\n---\nThe body is kept.\n');
    write(
      join(root, 'cal.ics'),
      'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:dentist-1\r\nDTSTART:20240310T090000Z\r\n' +
        'DTEND:20240310T093000Z\r\nSUMMARY:Dentist\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n',
    );
    write(
      join(root, 'contacts', 'people.vcf'),
      'BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Rui Costa\r\nTEL;TYPE=CELL:+351 912 345 678\r\nEND:VCARD\r\n',
    );
    write(join(root, 'WhatsApp Chat with Ana.txt'), '03/02/2024, 18:01 - Ana: See you in Lisbon\n');
    write(join(root, 'notes.txt'), 'just some text\n');
    write(join(dir, 'outside', 'linked.md'), 'A note linked into the folder\n');
    symlinkSync(join(dir, 'outside'), join(root, 'linked'));
    symlinkSync(root, join(root, 'contacts', 'loop'));

    const first = await runImport({ client, brainId: 'mixed', path: root, timeZone: 'UTC' });
    assert.equal(first.format, 'mixed');
    assert.equal(first.brainCreated, true);
    assert.deepEqual(
      first.parts.map((p) => [p.name, p.format, p.imported, p.skipped]),
      [
        ['.', 'markdown', 3, 0],
        ['cal.ics', 'ics', 1, 0],
        ['contacts/loop', null, 0, 1],
        ['contacts/people.vcf', 'vcf', 1, 0],
        ['notes.txt', null, 0, 1],
        ['WhatsApp Chat with Ana.txt', 'whatsapp', 1, 0],
      ],
    );
    assert.deepEqual(
      first.skippedItems.map((s) => [s.ref, s.reason]),
      [
        ['contacts/loop', 'link back to the folder being read: not followed again'],
        ['notes.txt', 'cannot tell the format of this file; import it on its own with --format'],
      ],
    );
    assert.deepEqual(first.notes, [
      {
        ref: 'broken-fm.md',
        note: 'front matter not read (unexpected end of the stream within a double quoted scalar at line 3, column 1); imported without it',
      },
      {
        // Its only date, 03/02, reads both ways.
        ref: 'WhatsApp Chat with Ana.txt: line 1',
        note:
          'its dates read both ways (3/2 could be 3 February or 2 March): read day first; if this chat writes the month first, remove this import and import it again with --date-order mdy ' +
          '(in the app: "Dates in WhatsApp chats", Month first)',
      },
    ]);
    const sources = (await client.listRecords('mixed', { limit: 50 })).data.map((r) => r.source.name).sort();
    assert.deepEqual(sources, ['ics', 'markdown', 'markdown', 'markdown', 'vcf', 'whatsapp']);

    const again = await runImport({ client, brainId: 'mixed', path: root, timeZone: 'UTC' });
    assert.deepEqual(counts(again), [0, 6, 2, 0]);

    const onlyIcs = await runImport({ client, brainId: 'mixed', path: root, format: 'ics' });
    assert.equal(onlyIcs.format, 'ics');
    assert.deepEqual([onlyIcs.imported, onlyIcs.unchanged], [0, 1]);
    assert.ok(
      onlyIcs.skippedItems.some(
        (s) => s.ref === 'plan.md' && s.reason === 'not ics (it looks like markdown)',
      ),
    );
  });

  test('a ChatGPT or Claude conversations.json does not make the files beside it part of its export', async () => {
    const root = join(dir, 'with-conversations');
    write(join(root, 'conversations.json'), chatGptExportOf('Trip', 'To Porto'));
    write(join(root, 'user.json'), '{}');
    write(
      join(root, 'calendar.ics'),
      'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:dentist-2\r\nDTSTART:20240310T090000Z\r\n' +
        'SUMMARY:Dentist\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n',
    );
    write(
      join(root, 'iCloud.vcf'),
      'BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Sofia Reis\r\nEMAIL:s@example.org\r\nEND:VCARD\r\n',
    );
    write(
      join(root, 'Inbox.mbox'),
      'From a@b Mon Jan  1 00:00:00 2024\nFrom: Ana <a@b>\nSubject: Lunch\nMessage-ID: <lunch@b>\n\nNoon?\n',
    );

    const s = await runImport({ client, brainId: 'beside-chats', path: root, timeZone: 'UTC' });
    assert.deepEqual(
      s.parts.map((p) => [p.name, p.format, p.imported, p.skipped]),
      [
        ['.', 'chatgpt', 1, 0],
        ['calendar.ics', 'ics', 1, 0],
        ['iCloud.vcf', 'vcf', 1, 0],
        ['Inbox.mbox', 'mbox', 1, 0],
      ],
    );
  });

  test('a path that is not there is said plainly, before anything is sent (exit 2)', async () => {
    const gone = join(dir, 'no-such-notes');
    const out = await cli([gone, '--brain', 'gone']);
    assert.equal(out.status, 2);
    assert.equal(out.stderr, `mnemo import: there is no file or folder at ${gone}\n`);
    assert.ok((await client.getBrain('gone').catch((e: unknown) => e)) instanceof MnemoApiError);
  });

  test('a folder with nothing to import says so and creates no Brain (exit 0: every item was skipped with a reason)', async () => {
    const root = join(dir, 'nothing');
    write(join(root, 'readme.txt'), 'nothing mnemo reads\n');
    const s = await runImport({ client, brainId: 'never', path: root });
    assert.equal(s.nothingToImport, true);
    assert.deepEqual(counts(s), [0, 0, 1, 0]);
    const missing = await client.getBrain('never').catch((e: unknown) => e);
    assert.ok(missing instanceof MnemoApiError && missing.code === 'brain_not_found');

    const out = await cli([root, '--brain', 'never']);
    assert.equal(
      out.status,
      0,
      'cli-and-harness.md: exit 0 when every item was imported, unchanged or skipped with a reason',
    );
    assert.match(out.stdout, /^nothing to import: brain "never" was not touched; skipped 1\n/);
    assert.match(
      out.stdout,
      /1 x cannot tell the format of this file; import it on its own with --format \(readme\.txt\)/,
    );
    assert.match(out.stderr, /nothing in .*nothing can be imported; nothing was written to brain "[^"]+"/);
    assert.ok((await client.getBrain('never').catch((e: unknown) => e)) instanceof MnemoApiError);

    // A folder of calendars imported as such, from the command line, names each file.
    const cals = join(dir, 'cals');
    for (const n of ['a', 'b'])
      write(
        join(cals, `${n}.ics`),
        `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:${n}\r\nDTSTART:20240310T090000Z\r\n` +
          `SUMMARY:Event ${n}\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n`,
      );
    const cal = await cli([cals, '--brain', 'calendars']);
    assert.equal(cal.status, 0, cal.stderr);
    assert.match(
      cal.stdout,
      /^ics -> brain "calendars" \(created\): imported 2, replaced 0, unchanged 0, skipped 0, failed 0/,
    );
    assert.match(cal.stdout, /\n {2}a\.ics \(ics\): imported 1.*\n {2}b\.ics \(ics\): imported 1/);
  });
});

describe("a vault's people notes", () => {
  test("a person's note she writes in the first person gives that person's properties and sentences to them, not to her", async () => {
    const vault = join(dir, 'people-vault');
    mkdirSync(join(vault, '.obsidian'), { recursive: true });
    write(
      join(vault, 'People', 'Rui Sousa.md'),
      '---\nbirthday: 1990-03-23\nphone: +351 912 345 678\n---\n' +
        'My younger brother. Allergic to peanuts! Lives in Porto.\nI owe him 20 euros.\n',
    );
    await client.createBrain({ id: 'ana', self: { type: 'person', name: 'Ana Sousa' } });
    assert.deepEqual(counts(await runImport({ client, brainId: 'ana', path: vault })), [1, 0, 0, 0]);
    await engine.idle();

    const memories = (await client.listMemories('ana', { limit: 50 })).data;
    assert.deepEqual(
      memories.map((m) => `${m.owner.state}: ${m.owner.entity} | ${m.predicate} | ${m.statement}`).sort(),
      [
        "other: Rui Sousa | birthday | Rui Sousa's birthday is 1990-03-23",
        'other: Rui Sousa | null | Allergic to peanuts!',
        'other: Rui Sousa | null | Lives in Porto.',
        "other: Rui Sousa | phone number | Rui Sousa's phone number is +351 912 345 678",
        // The note's opening says who he is to her: her kin, beside the sentence.
        "self: Ana Sousa | null | Ana Sousa's younger brother is Rui Sousa",
        'self: Ana Sousa | null | I owe him 20 euros.',
        'self: Ana Sousa | null | Rui Sousa is my younger brother.',
      ],
    );
    // Her Profile holds who he is to her and what she owes him: nothing of his.
    assert.deepEqual((await client.getProfile('ana')).lines.map((l) => l.statement).sort(), [
      "Ana Sousa's younger brother is Rui Sousa",
      'I owe him 20 euros.',
      'Rui Sousa is my younger brother.',
    ]);
  });
});
