import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { MnemoApiError, createMnemoClient, type MnemoClient } from '../../server/client/index.ts';
import { collectRecords, runImport, waitForDerivation } from '../../server/import/run-import.ts';
import { readMbox } from '../../server/import/formats/mbox-split.ts';
import { importItemKey } from '../../server/import/idempotency-key.ts';
import { createHash } from 'node:crypto';
import type { RunningServer } from '../../server/start-server.ts';
import { serveLocal } from './serve-local.ts';

// Imports through a real server on loopback with the local engine on an encrypted SQLite file.
const root = mkdtempSync(join(tmpdir(), 'mnemo-import-it-'));
let server: RunningServer;
let client: MnemoClient;
let key: string;

const chat = (lastLine: string) =>
  [
    '03/02/2024, 18:01 - Ana: Are you coming to Lisbon in May?',
    '03/02/2024, 18:02 - Sam: Yes, 3rd to 10th',
    'staying at the usual place',
    '03/02/2024, 18:05 - Ana: Mum says the flat is free',
    lastLine,
    'this line has no header but follows a message',
  ].join('\n');

before(async () => {
  ({ server, key } = await serveLocal(root));
  client = createMnemoClient({ baseUrl: server.url, apiKey: key });
});
after(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

describe('import through the /v1 API', () => {
  test('re-import is idempotent; a changed item supersedes; imported Records are not erasable', async () => {
    const file = join(root, 'WhatsApp Chat with Ana.txt');
    writeFileSync(file, chat('03/02/2024, 18:06 - Sam: Great, I will bring the pastéis'));
    const opts = { client, brainId: 'sam', path: file, timeZone: 'Europe/Lisbon', selfName: 'Sam' };

    const first = await runImport(opts);
    assert.equal(first.brainCreated, true);
    assert.deepEqual([first.imported, first.unchanged, first.skipped, first.failed], [4, 0, 0, 0]);
    const brain = await client.getBrain('sam');
    assert.deepEqual(brain.self, { type: 'person', name: 'Sam' }, "--self names the new Brain's principal");
    await waitForDerivation(client, 'sam');
    const census = await client.getCensus('sam');

    const again = await runImport(opts);
    assert.deepEqual([again.imported, again.unchanged, again.failed], [0, 4, 0]);
    await waitForDerivation(client, 'sam');
    assert.equal(
      (await client.getCensus('sam')).counts.records,
      census.counts.records,
      'nothing new was stored',
    );

    const page = await client.listRecords('sam', { source: 'whatsapp', limit: 50 });
    const pastries = page.data.find(
      (r) => r.content.kind === 'message' && r.content.text.includes('pastéis'),
    )!;
    assert.equal(pastries.erasable, false);
    assert.equal(pastries.occurred_at, '2024-02-03T18:06:00.000Z', 'Lisbon is UTC+0 in winter');
    const refused = await client.forgetRecord('sam', pastries.id).catch((e: unknown) => e);
    assert.ok(refused instanceof MnemoApiError);
    assert.deepEqual([refused.status, refused.code], [403, 'record_not_erasable']);

    // The same message edited in a newer export: same external_id, new content, new Record.
    writeFileSync(file, chat('03/02/2024, 18:06 - Sam: Great, I will bring the queijadas'));
    const changed = await runImport(opts);
    assert.deepEqual([changed.imported, changed.replaced, changed.unchanged, changed.failed], [0, 1, 3, 0]);
    await waitForDerivation(client, 'sam');
    const newer = (await client.listRecords('sam', { source: 'whatsapp', limit: 50 })).data.find(
      (r) => r.content.kind === 'message' && r.content.text.includes('queijadas'),
    )!;
    assert.equal(newer.source.external_id, pastries.source.external_id);
    assert.notEqual(newer.id, pastries.id);
    // What only the older revision said is superseded; what the newer one says again stays, citing both.
    const olds = await Promise.all(pastries.memory_ids.map((id) => client.getMemory('sam', id)));
    const gone = olds.filter((m) => m.statement.includes('pastéis'));
    assert.equal(gone.length, 1);
    assert.equal(gone[0]!.status, 'superseded');
    for (const kept of olds.filter((m) => !m.statement.includes('pastéis'))) {
      assert.equal(kept.status, 'active');
      assert.ok(kept.citations.some((c) => c.record_id === newer.id));
    }
    const active = await client.listMemories('sam', { q: 'queijadas' });
    assert.ok(active.data.some((m) => m.citations.some((c) => c.record_id === newer.id)));

    // The edit undone: the first text is the item's newest revision again, and stays so when re-imported.
    const current = async () =>
      (await client.listMemories('sam', { limit: 100 })).data
        .map((m) => m.statement)
        .filter((x) => /pastéis|queijadas/u.test(x));
    for (const [food, replaced, otherFood] of [
      ['pastéis', 1, 'queijadas'],
      ['queijadas', 1, 'pastéis'],
      ['pastéis', 1, 'queijadas'],
    ] as const) {
      writeFileSync(file, chat(`03/02/2024, 18:06 - Sam: Great, I will bring the ${food}`));
      const undone = await runImport(opts);
      assert.deepEqual([undone.imported, undone.replaced, undone.unchanged], [0, replaced, 3], food);
      await waitForDerivation(client, 'sam');
      const now = await current();
      assert.ok(
        now.some((x) => x.includes(food)) && !now.some((x) => x.includes(otherFood)),
        `${food}: ${now}`,
      );
      const same = await runImport(opts);
      assert.deepEqual([same.imported, same.replaced, same.unchanged], [0, 0, 4], `${food} again`);
    }
  });

  test('an event moved and moved back is at its first time again; an older export changes nothing', async () => {
    const file = join(root, 'work.ics');
    const calendar = (start: string, sequence: number, modified: string) =>
      [
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'PRODID:-//Test//EN',
        'BEGIN:VEVENT',
        'UID:cutover-1@example.com',
        'DTSTAMP:20261101T090000Z',
        `LAST-MODIFIED:${modified}`,
        `SEQUENCE:${sequence}`,
        `DTSTART:${start}`,
        'DURATION:PT2H',
        'SUMMARY:Atlas cutover',
        'END:VEVENT',
        'END:VCALENDAR',
        '',
      ].join('\r\n');
    const opts = { client, brainId: 'cal', path: file };
    const startsAt = async () =>
      (await client.listRecords('cal', { source: 'ics', limit: 10 })).data.map((r) =>
        r.content.kind === 'event' ? r.content.starts_at : null,
      )[0];
    const versions: Array<[string, number, string, [number, number, number], string]> = [
      ['20261212T220000Z', 0, '20261101T090000Z', [1, 0, 0], '2026-12-12T22:00:00.000Z'],
      ['20261219T220000Z', 1, '20261105T090000Z', [0, 1, 0], '2026-12-19T22:00:00.000Z'],
      // Moved back: what the first version said, as a newer version.
      ['20261212T220000Z', 2, '20261106T090000Z', [0, 1, 0], '2026-12-12T22:00:00.000Z'],
      // The export from before the move, imported again: its own version, replayed.
      ['20261219T220000Z', 1, '20261105T090000Z', [0, 0, 1], '2026-12-12T22:00:00.000Z'],
      ['20261212T220000Z', 2, '20261106T090000Z', [0, 0, 1], '2026-12-12T22:00:00.000Z'],
    ];
    for (const [start, sequence, modified, counts, now] of versions) {
      writeFileSync(file, calendar(start, sequence, modified));
      const run = await runImport(opts);
      assert.deepEqual([run.imported, run.replaced, run.unchanged, run.failed], [...counts, 0], start);
      assert.equal(await startsAt(), now, `SEQUENCE ${sequence}`);
    }
  });

  test('a chat imported before is read in the zone that import used, on the command line and in the app', async () => {
    // Winter and summer times (DST in both zones), a text said twice in one minute (told apart by order).
    const text = [
      '15/01/2024, 09:30 - Ana: ok',
      '15/01/2024, 09:30 - Ana: ok',
      '15/01/2024, 09:31 - Rui: See you at the market',
      '20/07/2024, 22:10 - Ana: The ferry leaves at 8',
      '20/07/2024, 22:12 - Rui: I will be there',
    ].join('\n');
    const file = join(root, 'WhatsApp Chat with Ana and Rui.txt');
    writeFileSync(file, text);
    const machine = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const earlier = machine === 'America/Chicago' ? 'Asia/Kathmandu' : 'America/Chicago';
    const first = await runImport({ client, brainId: 'travel', path: file, timeZone: earlier });
    assert.deepEqual([first.imported, first.unchanged, first.failed], [5, 0, 0]);

    // Back on this machine's zone, with no zone given: the earlier one is followed and said so.
    const again = await runImport({ client, brainId: 'travel', path: file });
    assert.deepEqual([again.imported, again.unchanged, again.failed], [0, 5, 0]);
    assert.match(again.notes[0]!.note, new RegExp(`times read in ${earlier}`));
    const times = (await client.listRecords('travel')).data
      .map((r) => new Date(r.occurred_at).toISOString())
      .sort();
    assert.equal(
      times[0],
      earlier === 'America/Chicago' ? '2024-01-15T15:30:00.000Z' : '2024-01-15T03:45:00.000Z',
    );

    // The app's upload without a zone does the same.
    const uploaded = await client.importFiles('travel', {
      files: [
        { name: 'WhatsApp Chat with Ana and Rui.txt', content_base64: Buffer.from(text).toString('base64') },
      ],
    });
    assert.deepEqual([uploaded.imported, uploaded.unchanged, uploaded.failed], [0, 5, 0]);
    assert.match(uploaded.parts[0]!.note ?? '', new RegExp(`times read in ${earlier}`));

    // A zone asked for that the earlier import did not use is not: read in UTC, each message would be
    // stored again, hours off. The note says so, and how to read it in UTC.
    const utc = await runImport({ client, brainId: 'travel', path: file, timeZone: 'UTC' });
    assert.deepEqual([utc.imported, utc.unchanged], [0, 5]);
    assert.match(
      utc.notes.map((n) => n.note).join('\n'),
      new RegExp(
        `times read in ${earlier} as its earlier import read them, not UTC as asked.*remove the earlier import first`,
      ),
    );
    // Asked for the zone it used, nothing is said.
    const same = await runImport({ client, brainId: 'travel', path: file, timeZone: earlier });
    assert.deepEqual([same.imported, same.unchanged], [0, 5]);
    assert.deepEqual(
      same.notes.filter((n) => /times read in/.test(n.note)),
      [],
    );
  });

  test('a chat whose dates read both ways is read in the date order its earlier import used', async () => {
    // 03/12 and 04/12: 12 March or 3 December, and no day over 12 to tell.
    const text = [
      '03/12/2024, 09:30 - Ana: Tickets for the concert?',
      '03/12/2024, 09:31 - Rui: Two, please',
      '04/12/2024, 20:00 - Ana: Bought them',
    ].join('\n');
    const file = join(root, 'WhatsApp Chat with Ana (order).txt');
    writeFileSync(file, text);
    const opts = { client, brainId: 'order', path: file, timeZone: 'Asia/Tokyo' };
    const first = await runImport({ ...opts, dateOrder: 'mdy' });
    assert.deepEqual([first.imported, first.unchanged, first.failed], [3, 0, 0]);

    // No order given (and no zone either): both of the earlier import's are followed, and said so.
    const again = await runImport({ client, brainId: 'order', path: file });
    assert.deepEqual([again.imported, again.unchanged, again.failed], [0, 3, 0]);
    assert.match(again.notes[0]!.note, /^dates read month first, the date order its earlier import used/);
    // A date order given next time would not be followed either (below): the note sends to a removal.
    assert.doesNotMatch(again.notes[0]!.note, /overrides/);
    assert.match(
      again.notes[0]!.note,
      /To read it the other way, remove the earlier import first \(mnemo import --remove whatsapp --chat NAME.*"Remove this chat".*then import it again with --date-order dmy or mdy/,
    );
    // Any zone at +9 all year fits the earlier import alike (Tokyo, Chita, Seoul, …).
    assert.match(again.notes[0]!.note, /times read in Asia\//);
    const uploaded = await client.importFiles('order', {
      files: [
        { name: 'WhatsApp Chat with Ana (order).txt', content_base64: Buffer.from(text).toString('base64') },
      ],
      time_zone: 'Asia/Tokyo',
    });
    assert.deepEqual([uploaded.imported, uploaded.unchanged, uploaded.failed], [0, 3, 0]);
    assert.match(uploaded.parts[0]!.note ?? '', /dates read month first/);
    const times = (await client.listRecords('order')).data
      .map((r) => new Date(r.occurred_at).toISOString())
      .sort();
    assert.deepEqual(times, [
      '2024-03-12T00:30:00.000Z',
      '2024-03-12T00:31:00.000Z',
      '2024-04-12T11:00:00.000Z',
    ]);

    // The other order asked for would store each message again, months off (it did): the earlier
    // import's order is kept, and the note says how to read it the other way.
    const dayFirst = await runImport({ ...opts, dateOrder: 'dmy' });
    assert.deepEqual([dayFirst.imported, dayFirst.unchanged], [0, 3]);
    assert.match(
      dayFirst.notes[0]!.note,
      /^dates read month first as its earlier import read them, not day first as asked: .*remove the earlier import first \(mnemo import --remove whatsapp --chat NAME/,
    );
    assert.equal((await client.listRecords('order')).data.length, 3);
  });

  test('malformed items are skipped with a reason and never stop the rest', async () => {
    const file = join(root, 'people.vcf');
    writeFileSync(
      file,
      'BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Broken\r\nEMAIL;;;=:x\r\nEND:VCARD\r\n' +
        'BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Rui Costa\r\nTEL;TYPE=CELL:+351 912 345 678\r\nEND:VCARD\r\n',
    );
    const s = await runImport({ client, brainId: 'contacts', path: file });
    assert.deepEqual([s.imported, s.skipped, s.failed], [1, 1, 0]);
    assert.match(s.skippedItems[0]!.reason, /^unreadable card/);
  });

  test('a canvas in a vault: imported, unchanged, edited, forgotten when gone; a broken one costs only itself', async () => {
    const vault = join(root, 'Canvas Vault');
    const write = (rel: string, text: string) => {
      mkdirSync(join(vault, rel, '..'), { recursive: true });
      writeFileSync(join(vault, rel), text);
    };
    const board = (...texts: string[]) =>
      JSON.stringify({
        nodes: texts.map((text, i) => ({
          id: `n${i}`,
          type: 'text',
          x: 0,
          y: i * 200,
          width: 200,
          height: 100,
          text,
        })),
        edges: [],
      });
    write('.obsidian/app.json', '{}');
    write('Home.md', '# Home\n\nWhere the plans are.\n');
    write('Plans/Launch.canvas', board('Book the venue', 'Invite the press'));
    write('Plans/Broken.canvas', '{"nodes":[{"id":"a"');
    const run = (forgetMissing = false) =>
      runImport({ client, brainId: 'canvas', path: vault, timeZone: 'UTC', forgetMissing });
    const ids = async () =>
      (await client.listRecords('canvas', { source: 'obsidian', limit: 50 })).data
        .map((r) => r.source.external_id)
        .sort();

    const first = await run();
    assert.deepEqual([first.imported, first.skipped, first.failed], [2, 1, 0]);
    assert.match(first.skippedItems[0]!.reason, /^cannot be read: invalid JSON/);
    assert.deepEqual(await ids(), ['Canvas Vault/Home.md', 'Canvas Vault/Plans/Launch.canvas']);

    const again = await run();
    assert.deepEqual([again.imported, again.replaced, again.unchanged], [0, 0, 2]);

    write('Plans/Launch.canvas', board('Book the venue', 'Invite the press', 'Order the banners'));
    const edited = await run();
    assert.deepEqual([edited.imported, edited.replaced, edited.unchanged], [0, 1, 1]);
    const launch = (await client.listRecords('canvas', { source: 'obsidian', limit: 50 })).data.find(
      (r) => r.source.external_id === 'Canvas Vault/Plans/Launch.canvas' && r.content.kind === 'document',
    )!;
    assert.ok(launch.content.kind === 'document' && launch.content.text.includes('Order the banners'));

    // The broken canvas is there, though unread: only the deleted one is missing.
    rmSync(join(vault, 'Plans/Launch.canvas'));
    const gone = await run(true);
    assert.deepEqual(
      gone.forgottenItems.map((i) => `${i.source} ${i.externalId}`),
      ['obsidian Canvas Vault/Plans/Launch.canvas'],
    );
    assert.deepEqual(await ids(), ['Canvas Vault/Home.md']);
  });

  test('mnemo import from the command line: summary, exit codes, no TTY progress', async () => {
    const dir = join(root, 'vault');
    const note = join(dir, 'Recipes', 'Bacalhau.md');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(join(dir, 'Recipes'), { recursive: true });
    mkdirSync(join(dir, '.obsidian'), { recursive: true });
    writeFileSync(note, '---\ntags: [food]\n---\nSoak the cod for 48 hours, change the water 3 times.\n');
    writeFileSync(join(dir, 'Empty.md'), '');
    // Asynchronous: the server answering the child lives in this very process.
    const run = (k: string, args: string[] = [dir]) =>
      new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, ['bin/mnemo.mjs', 'import', ...args, '--brain', 'kitchen'], {
          env: { ...process.env, MNEMO_URL: server.url, MNEMO_KEY: k },
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
        child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
        child.on('close', (status) => resolve({ status, stdout, stderr }));
      });
    const first = await run(key);
    assert.equal(first.status, 0, first.stderr);
    assert.match(
      first.stdout,
      /^obsidian -> brain "kitchen" \(created\): imported 1, replaced 0, unchanged 0, skipped 1, failed 0/,
    );
    assert.match(first.stdout, /1 x empty note \(Empty\.md\)/);
    assert.doesNotMatch(first.stderr, /importing \[/, 'no progress bar without a TTY');
    const second = await run(key);
    assert.equal(second.status, 0, second.stderr);
    assert.match(second.stdout, /imported 0, replaced 0, unchanged 1, skipped 1, failed 0/);
    // The note edited: its new version takes the old one's place, and the summary says so.
    writeFileSync(note, '---\ntags: [food]\n---\nSoak the cod for 36 hours, change the water 4 times.\n');
    const edited = await run(key);
    assert.equal(edited.status, 0, edited.stderr);
    assert.match(edited.stdout, /imported 0, replaced 1, unchanged 0, skipped 1, failed 0/);
    const denied = await run('sk_test_home_notissuedbythisregistry');
    assert.equal(denied.status, 1);
    assert.match(denied.stderr, /invalid_api_key/);

    // --list names the import by what it holds now, one note, its replaced version said apart;
    // --remove forgets it whole; a second --remove finds nothing.
    const listed = await run(key, ['--list']);
    assert.equal(listed.status, 0, listed.stderr);
    assert.match(listed.stdout, /^obsidian\t1 item \(1 imported\), 1 replaced version\t/);
    // --dry-run reads PATH only: with --remove it is refused, never ignored while the import goes.
    for (const flag of ['--dry-run', '--forget-missing']) {
      const dry = await run(key, ['--remove', 'obsidian', flag]);
      assert.equal(dry.status, 2, dry.stdout);
      assert.match(
        dry.stderr,
        new RegExp(`${flag} goes with PATH, not with --remove SOURCE; nothing was done`),
      );
    }
    assert.equal((await client.listRecords('kitchen')).data.length, 2, 'nothing was forgotten');
    const removed = await run(key, ['--remove', 'obsidian']);
    assert.equal(removed.status, 0, removed.stderr);
    assert.match(
      removed.stdout,
      /^removed source "obsidian" from brain "kitchen": 2 Records and \d+ Memories forgotten/,
    );
    assert.equal((await client.listRecords('kitchen')).data.length, 0);
    const again = await run(key, ['--remove', 'obsidian']);
    assert.equal(again.status, 1);
    assert.match(again.stderr, /source_not_found/);
    // A Record written over /v1 with no source is no import, yet --list says it is there.
    await client.rememberRecord('kitchen', {
      content: 'The bike lock code is 4512.',
      occurred_at: '2024-05-06T07:08:09Z',
    });
    const unsourced = await run(key, ['--list']);
    assert.equal(unsourced.status, 0, unsourced.stderr);
    assert.equal(
      unsourced.stdout,
      'brain "kitchen" has no sources\nwritten over the API with no source: 1 Record\t2024-05-06 .. 2024-05-06\n',
    );
    const both = await run(key, [dir, '--remove', 'obsidian']);
    assert.equal(both.status, 2);
    assert.match(both.stderr, /exactly one of PATH, --remove SOURCE or --list/);
    // --since past --until's default (a year from now) leaves no window: a usage error, nothing read.
    const late = await run(key, [dir, '--since', `${new Date().getUTCFullYear() + 3}-01-01`]);
    assert.equal(late.status, 2);
    assert.match(late.stderr, /--since: must be earlier than a year from now, the default --until/);
  });
  test("without --self the user's sender is the Brain's own person, as in the app: imported both ways, nothing twice", async () => {
    const text = [
      '13/02/2024, 18:01 - Ana Costa: Of course.',
      '13/02/2024, 18:02 - Marta: See you at six',
    ].join('\n');
    const file = join(root, 'WhatsApp Chat with Marta.txt');
    writeFileSync(file, text);
    await client.createBrain({ id: 'costa', self: { type: 'person', name: 'Ana Costa' } });
    // The app's Import screen fills in the Brain's own person's name.
    const app = await client.importFiles('costa', {
      files: [{ name: 'WhatsApp Chat with Marta.txt', content_base64: Buffer.from(text).toString('base64') }],
      time_zone: 'Europe/Lisbon',
      self_name: 'Ana Costa',
    });
    assert.deepEqual([app.imported, app.unchanged], [2, 0]);
    const cli = await runImport({ client, brainId: 'costa', path: file, timeZone: 'Europe/Lisbon' });
    assert.deepEqual([cli.imported, cli.unchanged, cli.failed], [0, 2, 0]);
    const speakers = (await client.listRecords('costa')).data.map((r) =>
      typeof r.content === 'object' && r.content.kind === 'message' ? r.content.speaker : null,
    );
    assert.deepEqual(speakers.sort(), ['Marta', 'self']);
  });

  test('your own messages imported into a Brain without a self: the summary says what that means, once', async () => {
    const file = join(root, 'WhatsApp Chat with Bo.txt');
    writeFileSync(
      file,
      ['13/02/2024, 18:01 - Ana: My dentist is Dr. Reis', '13/02/2024, 18:02 - Ana: I moved to Braga'].join(
        '\n',
      ),
    );
    const base = { client, path: file, timeZone: 'Europe/Lisbon', selfName: 'Ana' };
    // A new Brain made with the name as its self: nothing to say.
    const made = await runImport({ ...base, brainId: 'ana-self' });
    assert.equal(made.brainCreated, true);
    assert.deepEqual(made.notes, []);
    assert.deepEqual((await client.getBrain('ana-self')).self, { type: 'person', name: 'Ana' });
    // A Brain made before without one: the messages are Ana's, but the Brain cannot say so.
    await client.createBrain({ id: 'no-self' });
    const into = await runImport({ ...base, brainId: 'no-self' });
    assert.deepEqual(
      into.notes.map((n) => n.ref),
      ['brain "no-self"'],
    );
    assert.match(into.notes[0]!.note, /has no self.*no_attribution.*--self/);
    // No --self and a new Brain: no sender is taken for the person, and the summary says who they were.
    const none = await runImport({ client, path: file, timeZone: 'Europe/Lisbon', brainId: 'nobody' });
    assert.deepEqual(none.notes, []);
    const two = join(root, 'WhatsApp Chat with Rui.txt');
    writeFileSync(two, ['13/02/2024, 18:01 - Ana: Dinner at 8?', '13/02/2024, 18:02 - Rui: Yes!'].join('\n'));
    const both = await runImport({ client, path: two, timeZone: 'Europe/Lisbon', brainId: 'nobody-2' });
    assert.deepEqual(
      both.notes.map((n) => n.note),
      [
        'no sender was taken for you (no --self, and the Brain has no self), so every message is someone ' +
          'else\'s: "Ana", "Rui". If one is you, import into a new Brain with --self "That Name".',
      ],
    );
  });

  test('an mbox imported with CRLF line ends, under the ids of an earlier version, and then as LF: nothing twice', async () => {
    const mbox = [
      'From ana@example.org Mon Mar  4 09:00:00 2024',
      'From: Ana <ana@example.org>',
      'Date: Mon, 4 Mar 2024 09:00:00 +0000',
      'Subject: Ferry times',
      '',
      'The 9:40 ferry is gone; take the 10:15.',
      '',
      'From bo@example.org Tue Mar  5 10:00:00 2024',
      'From: Bo <bo@example.org>',
      'Subject: Keys',
      '',
      'The keys are under the mat.',
      '',
    ].join('\r\n');
    const file = join(root, 'saved-on-windows.mbox');
    writeFileSync(file, mbox);
    const opts = { client, brainId: 'mail-crlf', path: file };
    const first = await runImport(opts);
    assert.deepEqual([first.imported, first.unchanged], [2, 0]);
    // The same mails as an earlier Mnemo named them (a hash of their CRLF bytes) in another Brain.
    await client.createBrain({ id: 'mail-old' });
    const raws: Buffer[] = [];
    for await (const m of readMbox(file)) raws.push(m.raw!);
    const { records } = await collectRecords('mbox', file, {});
    for (const [i, r] of records.entries()) {
      const old = `mbox:sha256:${createHash('sha256').update(raws[i]!).digest('hex').slice(0, 32)}`;
      const body = { ...r.body, source: { ...r.body.source, external_id: old } };
      await client.rememberRecord('mail-old', body, { idempotencyKey: importItemKey({ ...r, body }) });
    }
    for (const brainId of ['mail-crlf', 'mail-old']) {
      const again = await runImport({ ...opts, brainId });
      assert.deepEqual([again.imported, again.unchanged, again.failed], [0, 2, 0], brainId);
      writeFileSync(file, mbox.replace(/\r\n/g, '\n'));
      const lf = await runImport({ ...opts, brainId });
      writeFileSync(file, mbox);
      assert.deepEqual([lf.imported, lf.unchanged, lf.failed], [0, 2, 0], `${brainId}, LF`);
      const page = await client.listRecords(brainId, { source: 'mbox', limit: 50 });
      assert.equal(page.data.length, 2, brainId);
    }
  });
  test("a mail's time keeps its sender's offset; one imported when it was kept in UTC is unchanged", async () => {
    const file = join(root, 'offsets.mbox');
    writeFileSync(
      file,
      [
        'From rui@example.org Wed Mar 13 01:17:45 2024',
        'From: Rui <rui@example.org>',
        'Date: Tue, 12 Mar 2024 21:17:45 -0400',
        'Message-ID: <late@example.org>',
        'Subject: Tonight',
        '',
        'Landed in New York, dinner at 10.',
        '',
      ].join('\n'),
    );
    await client.createBrain({ id: 'mail-zoned' });
    const { records } = await collectRecords('mbox', file, {});
    assert.equal(records[0]!.body.occurred_at, '2024-03-12T21:17:45-04:00');
    // An offset no zone has is written as the instant, not refused.
    writeFileSync(file, readFileSync(file, 'utf8').replace('-0400', '+2500'));
    const odd = (await collectRecords('mbox', file, {})).records[0]!.body.occurred_at;
    assert.equal(odd, '2024-03-11T20:17:45.000Z');
    writeFileSync(file, readFileSync(file, 'utf8').replace('+2500', '-0400'));
    // As an earlier Mnemo wrote it: the instant in UTC, keyed by it.
    const utc = { ...records[0]!.body, occurred_at: '2024-03-13T01:17:45.000Z' };
    await client.rememberRecord('mail-zoned', utc, {
      idempotencyKey: importItemKey({ ...records[0]!, body: utc, occurredAtInKey: undefined }),
    });
    const again = await runImport({ client, brainId: 'mail-zoned', path: file });
    assert.deepEqual([again.imported, again.unchanged, again.failed], [0, 1, 0]);
    // A new Brain gets the time as written.
    const fresh = await runImport({ client, brainId: 'mail-zoned-new', path: file });
    assert.equal(fresh.imported, 1);
    const page = await client.listRecords('mail-zoned-new', { source: 'mbox', limit: 5 });
    assert.equal(page.data[0]!.occurred_at, '2024-03-12T21:17:45-04:00');
  });

  test('Ctrl-C mid-import says what is kept and ends by the signal; the same command again goes on', async () => {
    const file = join(root, 'WhatsApp Chat with Rui.txt');
    // Enough that the import is stopped while the chat is still being read (the reader stays at most its
    // queue of 256 ahead of ~30 written), so the summary tells "of about N" from the file, not "of the N
    // read so far"; each line past that is one more write and derivation, by the stopped import or the
    // one that goes on.
    const lines = Array.from({ length: 500 }, (_, i) => {
      const [d, m] = [
        String((i % 28) + 1).padStart(2, '0'),
        String((Math.floor(i / 28) % 12) + 1).padStart(2, '0'),
      ];
      return `${d}/${m}/2023, 10:${String(i % 60).padStart(2, '0')} - Rui: message number ${i} about the boat`;
    });
    writeFileSync(file, lines.join('\n'));
    const args = ['bin/mnemo.mjs', 'import', file, '--brain', 'rui', '--self', 'Sam', '--concurrency', '2'];
    const env = { ...process.env, MNEMO_URL: server.url, MNEMO_KEY: key };
    const child = spawn(process.execPath, args, { env });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on('close', (code, signal) => resolve({ code, signal })),
    );
    after(() => child.kill('SIGKILL'));
    // Some Records written, not all.
    const deadline = Date.now() + 60_000;
    const written = async () => {
      try {
        return (await client.listRecords('rui', { limit: 200 })).data.length;
      } catch {
        return 0;
      }
    };
    while ((await written()) < 30 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    child.kill('SIGINT');
    const result = await ended;
    assert.deepEqual(result, { code: null, signal: 'SIGINT' }, stderr);
    const stopped =
      /mnemo import: stopped after \d+ of about (\d+) items\. What was written is kept; the same command again goes on/.exec(
        stderr,
      );
    // How far it got is told against the chat's messages, not against the few read ahead of the writes.
    assert.ok(stopped && Math.abs(Number(stopped[1]) - lines.length) <= 8, stderr);
    const again = spawn(process.execPath, args, { env });
    let stdout = '';
    again.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    assert.equal(await new Promise((resolve) => again.on('close', resolve)), 0);
    const [, imported, , unchanged] = /imported (\d+), replaced (\d+), unchanged (\d+)/.exec(stdout) ?? [];
    assert.equal(Number(imported) + Number(unchanged), lines.length, stdout);
    assert.ok(Number(unchanged) > 0, stdout);
  });
});
