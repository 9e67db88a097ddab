import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import yazl from 'yazl';
import { createMnemoClient, type MnemoClient } from '../../server/client/index.ts';
import { runImport } from '../../server/import/run-import.ts';
import { chatGptExportOf, slipped, zipBytes } from '../../server/import/test-support.ts';
import type { RunningServer } from '../../server/start-server.ts';
import { serveLocal } from './serve-local.ts';

// `mnemo import export.zip` through a real server on loopback with the local engine on an encrypted
// SQLite file: an archive reads as the folder it was made from.
const root = mkdtempSync(join(tmpdir(), 'mnemo-import-zip-'));

/**
 * Runs `fn` with a temp dir of its own (os.tmpdir() reads TMPDIR at each call), and says what it left
 * there: the run's temp dir is shared with test files running beside this one, whose own unpacked
 * archives come and go meanwhile.
 */
async function inOwnTempDir<T>(fn: () => Promise<T>): Promise<{ result: T; left: string[] }> {
  const own = mkdtempSync(join(tmpdir(), 'mnemo-own-tmp-'));
  const was = process.env['TMPDIR'];
  process.env['TMPDIR'] = own;
  try {
    const result = await fn();
    return { result, left: readdirSync(own) };
  } finally {
    if (was === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = was;
    rmSync(own, { recursive: true, force: true });
  }
}
let server: RunningServer;
let client: MnemoClient;
let apiKey: string;

const vault: Record<string, string> = {
  'Vault/.obsidian/app.json': '{}',
  'Vault/Daily/2024-03-04.md': '---\ndate: 2024-03-04\n---\n# Tuesday\n\nI met Ana at the harbour.\n',
  'Vault/People/Ana.md': '# Ana\n\nAna keeps bees in Braga.\n',
};

async function zipOf(files: Record<string, string>, name: string): Promise<string> {
  const file = join(root, name);
  writeFileSync(file, await zipBytes(files, new Date(2024, 2, 5, 9, 0, 0)));
  return file;
}

before(async () => {
  ({ server, key: apiKey } = await serveLocal(root));
  client = createMnemoClient({ baseUrl: server.url, apiKey });
});
after(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

async function externalIds(brain: string): Promise<string[]> {
  const page = await client.listRecords(brain, { limit: 50 });
  return page.data.map((r) => `${r.source?.name}:${r.source?.external_id}`).sort();
}

describe('importing an archive', () => {
  test('a zipped vault is the vault: its notes, named as in the vault, and the same archive again is unchanged', async () => {
    const file = await zipOf(vault, 'Vault.zip');
    const first = await runImport({ client, brainId: 'notes', path: file });
    assert.deepEqual([first.imported, first.unchanged, first.failed], [2, 0, 0]);
    assert.deepEqual(await externalIds('notes'), [
      'obsidian:Vault/Daily/2024-03-04.md',
      'obsidian:Vault/People/Ana.md',
    ]);
    const again = await runImport({ client, brainId: 'notes', path: file });
    assert.deepEqual([again.imported, again.unchanged, again.failed], [0, 2, 0]);

    // The folder it was made from, imported from disk, is the same items too.
    for (const [path, text] of Object.entries(vault)) {
      mkdirSync(join(root, 'disk', path, '..'), { recursive: true });
      writeFileSync(join(root, 'disk', path), text);
    }
    const fromDisk = await runImport({ client, brainId: 'notes', path: join(root, 'disk', 'Vault') });
    assert.equal(fromDisk.imported + fromDisk.unchanged, 2);
    assert.deepEqual(await externalIds('notes'), [
      'obsidian:Vault/Daily/2024-03-04.md',
      'obsidian:Vault/People/Ana.md',
    ]);
  });

  test('uploaded from the app, the same archive is the same items as from the command line', async () => {
    const file = await zipOf(vault, 'Vault.zip');
    const upload = async (brain: string) => {
      const res = await fetch(`${server.url}/brains/${brain}/imports`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          files: [{ name: 'Vault.zip', content_base64: readFileSync(file).toString('base64') }],
        }),
      });
      return { status: res.status, body: (await res.json()) as { imported: number; unchanged: number } };
    };
    // 'notes' holds the command line's import of this archive (the test above).
    const r = await upload('notes');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual([r.body.imported, r.body.unchanged], [0, 2]);
    await client.createBrain({ id: 'uploaded' });
    const fresh = await upload('uploaded');
    assert.deepEqual([fresh.body.imported, fresh.body.unchanged], [2, 0]);
    assert.deepEqual(await externalIds('uploaded'), await externalIds('notes'));

    const broken = await fetch(`${server.url}/brains/uploaded/imports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        files: [{ name: 'x/broken.zip', content_base64: Buffer.from('nope').toString('base64') }],
      }),
    });
    assert.equal(broken.status, 400);
    const err = (await broken.json()) as { code: string; message: string };
    assert.equal(err.code, 'invalid_request_body');
    assert.match(err.message, /files\[0\]\.name: broken\.zip cannot be read as a zip archive/);

    // Beside another file, the broken archive is skipped and named, and the rest is imported.
    const mixed = await fetch(`${server.url}/brains/uploaded/imports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        files: [
          { name: 'broken.zip', content_base64: Buffer.from('nope').toString('base64') },
          { name: 'Trip.md', content_base64: Buffer.from('# Trip\n\nFerry at nine.').toString('base64') },
        ],
      }),
    });
    const both = (await mixed.json()) as { imported: number; skipped: { item: string; reason: string }[] };
    assert.equal(mixed.status, 200, JSON.stringify(both));
    assert.equal(both.imported, 1);
    assert.deepEqual(
      both.skipped.map((x) => x.item),
      ['broken.zip'],
    );
    assert.match(both.skipped[0]!.reason, /broken\.zip cannot be read as a zip archive/);
  });

  test("iOS's WhatsApp export is named after its archive, with or without media, so a new export adds only what is new", async () => {
    const chat = [
      '[04/03/2024, 10:15:02] Ana Silva: Flying to Porto on Friday',
      '[04/03/2024, 10:16:40] Rui: Great, the table is booked for 8',
    ].join('\r\n');
    const bare = await zipOf({ '_chat.txt': `${chat}\r\n` }, 'WhatsApp Chat - Porto trip.zip');
    const first = await runImport({ client, brainId: 'wa', path: bare, timeZone: 'UTC' });
    assert.deepEqual([first.imported, first.failed], [2, 0]);
    const ids = await externalIds('wa');
    assert.ok(
      ids.every((id) => id.startsWith('whatsapp:whatsapp:Porto trip:')),
      ids.join(', '),
    );
    rmSync(bare);
    const later = `${chat}\r\n[05/03/2024, 09:00:00] Marta: Count me in\r\n`;
    const media = await zipOf(
      { '_chat.txt': later, '00000012-PHOTO-2024-03-04.jpg': 'jpg' },
      'WhatsApp Chat - Porto trip.zip',
    );
    const again = await runImport({ client, brainId: 'wa', path: media, timeZone: 'UTC' });
    assert.deepEqual([again.imported, again.unchanged, again.failed], [1, 2, 0]);
  });

  test('an archive of loose notes reads as a folder named after it; nothing is left in the temp dir', async () => {
    const file = await zipOf(
      { 'todo.md': '# Todo\n\nCall the plumber on Monday.\n', 'ideas.md': 'A boat named Ana.\n' },
      'loose.zip',
    );
    const { result: r, left } = await inOwnTempDir(() => runImport({ client, brainId: 'loose', path: file }));
    assert.deepEqual(left, [], 'the unpacked copy is gone');
    assert.deepEqual([r.imported, r.failed], [2, 0]);
    assert.deepEqual(await externalIds('loose'), ['markdown:loose/ideas.md', 'markdown:loose/todo.md']);
  });

  test('entries an archive holds but that are not unpacked (a link, a second of one name) are listed as skipped', async () => {
    const z = new yazl.ZipFile();
    z.addBuffer(Buffer.from('# Fine\n\nThe shrews are fine.\n'), 'ok/fine.md');
    z.addBuffer(Buffer.from('# Fine again\n\nA second entry of that name.\n'), 'ok/fine.md');
    // A symbolic link as zip writes one: mode S_IFLNK in the high bits, the target as the data.
    z.addBuffer(Buffer.from('/etc/passwd'), 'ok/link.md', { mode: 0o120777 });
    z.end();
    const chunks: Buffer[] = [];
    for await (const c of z.outputStream) chunks.push(c as Buffer);
    const file = join(root, 'odd.zip');
    writeFileSync(file, Buffer.concat(chunks));
    const expected = [
      { item: 'odd.zip: ok/fine.md', reason: 'not unpacked: a second entry of the same name' },
      { item: 'odd.zip: ok/link.md', reason: 'not unpacked: a symbolic link' },
    ];

    const cli = await runImport({ client, brainId: 'odd', path: file });
    assert.deepEqual([cli.imported, cli.skipped, cli.failed], [1, 2, 0]);
    assert.deepEqual(
      cli.skippedItems.map((s) => ({ item: s.ref, reason: s.reason })),
      expected,
    );

    await client.createBrain({ id: 'odd-upload' });
    const res = await fetch(`${server.url}/brains/odd-upload/imports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        files: [{ name: 'odd.zip', content_base64: readFileSync(file).toString('base64') }],
      }),
    });
    const body = (await res.json()) as { imported: number; skipped_count: number; skipped: unknown[] };
    assert.equal(res.status, 200, JSON.stringify(body));
    assert.deepEqual([body.imported, body.skipped_count], [1, 2]);
    assert.deepEqual(body.skipped, expected);
  });

  test('archives found in a folder are read as what they hold, named as if unpacked where they lie, the same items again', async () => {
    const dir = join(root, 'Exports');
    mkdirSync(dir);
    writeFileSync(join(dir, 'todo.md'), '# Todo\n\nBuy bread for Ana.\n');
    const chat = '[04/03/2024, 10:15:02] Ana Silva: Flying to Porto on Friday\r\n';
    await zipOf({ '_chat.txt': chat }, 'Exports/WhatsApp Chat - Porto trip.zip');
    await zipOf({ 'conversations.json': chatGptExportOf('Bees', 'I keep bees in Braga') }, 'Exports/gpt.zip');
    await zipOf(
      { 'loose/plan.md': '# Plan\n\nFerry at nine.\n', 'loose/inner.zip': 'PK\u0003\u0004' },
      'Exports/notes.zip',
    );
    writeFileSync(join(dir, 'broken.zip'), 'not a zip');
    const { result: first, left } = await inOwnTempDir(() =>
      runImport({ client, brainId: 'found', path: dir, timeZone: 'UTC' }),
    );
    assert.deepEqual(left, [], 'nothing unpacked is left behind');
    assert.deepEqual([first.imported, first.failed], [4, 0]);
    assert.deepEqual(await externalIds('found'), [
      'chatgpt:chatgpt:c1/m1',
      'markdown:Exports/loose/plan.md',
      'markdown:Exports/todo.md',
      'whatsapp:whatsapp:Porto trip:2024-03-04T10:15:02.000Z:Ana Silva:1',
    ]);
    // One bad archive is skipped and named; an archive inside an archive is not unpacked.
    assert.deepEqual(
      first.skippedItems.map((s) => s.ref),
      ['broken.zip', 'notes.zip/loose/inner.zip'],
    );
    assert.match(first.skippedItems[0]!.reason, /not unpacked.*broken\.zip cannot be read as a zip archive/);
    assert.match(first.skippedItems[1]!.reason, /an archive inside an archive is not unpacked/);

    const again = await runImport({ client, brainId: 'found', path: dir, timeZone: 'UTC' });
    assert.deepEqual([again.imported, again.replaced, again.unchanged, again.failed], [0, 0, 4, 0]);

    // The chat and the export given alone are the same items.
    const alone = await runImport({
      client,
      brainId: 'found',
      path: join(dir, 'WhatsApp Chat - Porto trip.zip'),
      timeZone: 'UTC',
    });
    assert.deepEqual([alone.imported, alone.unchanged], [0, 1]);
    assert.deepEqual(
      [(await runImport({ client, brainId: 'found', path: join(dir, 'gpt.zip') })).unchanged],
      [1],
    );
  });

  test('forgetting what is missing covers what an archive in the folder held, and an unreadable one keeps all', async () => {
    const dir = join(root, 'Kept');
    mkdirSync(dir);
    writeFileSync(join(dir, 'todo.md'), '# Todo\n\nBuy bread.\n');
    const notes = { 'trip/a.md': '# A\n\nFerry at nine.\n', 'trip/b.md': '# B\n\nLunch in Gaia.\n' };
    await zipOf(notes, 'Kept/trip.zip');
    const first = await runImport({ client, brainId: 'kept', path: dir, forgetMissing: true });
    assert.deepEqual([first.imported, first.forgotten], [3, 0]);

    // b.md gone from the archive: forgotten. a.md emptied is still there (a skip, not gone), as on disk.
    await zipOf({ 'trip/a.md': '' }, 'Kept/trip.zip');
    const second = await runImport({ client, brainId: 'kept', path: dir, forgetMissing: true });
    assert.deepEqual(
      [second.unchanged, second.skipped, second.forgottenItems.map((i) => i.externalId)],
      [1, 1, ['Kept/trip/b.md']],
    );

    // The archive refused (an entry named to land outside it): what it holds is unknown, so nothing is
    // forgotten, though the refusal does not say "cannot be read".
    await zipOf({ 'trip/a.md': '# A', 'xx/evil.md': 'x' }, 'Kept/trip.zip');
    writeFileSync(join(dir, 'trip.zip'), slipped(readFileSync(join(dir, 'trip.zip')), 'xx/evil.md'));
    const third = await runImport({ client, brainId: 'kept', path: dir, forgetMissing: true });
    assert.equal(third.forgotten, 0);
    assert.match(third.skippedItems[0]!.reason, /not unpacked.*invalid relative path/);
    assert.match(third.forgetNotes.join('\n'), /nothing was forgotten.*trip\.zip/);

    // The archive gone from the folder: its notes are gone too.
    rmSync(join(dir, 'trip.zip'));
    const fourth = await runImport({ client, brainId: 'kept', path: dir, forgetMissing: true });
    assert.deepEqual(
      fourth.forgottenItems.map((i) => i.externalId),
      ['Kept/trip/a.md'],
    );
    assert.deepEqual(await externalIds('kept'), ['markdown:Kept/todo.md']);
  });

  test('an archive already unzipped beside it is not read twice', async () => {
    const dir = join(root, 'Twice');
    mkdirSync(join(dir, 'trip'), { recursive: true });
    writeFileSync(join(dir, 'trip', 'a.md'), '# A\n\nFerry at nine.\n');
    await zipOf({ 'trip/a.md': '# A\n\nFerry at nine.\n' }, 'Twice/trip.zip');
    const r = await runImport({ client, brainId: 'twice', path: dir });
    assert.deepEqual([r.imported, r.skipped], [1, 1]);
    assert.match(r.skippedItems[0]!.reason, /not unpacked: it would stand in for trip\/ beside it/);
  });

  test('an archive left out for another standing in for the same folder keeps what it held', async () => {
    const dir = join(root, 'Rivals');
    mkdirSync(dir);
    await zipOf({ 'x/a.md': '# A\n\nFerry at nine.\n' }, 'Rivals/x.zip');
    const first = await runImport({ client, brainId: 'rivals', path: dir, forgetMissing: true });
    assert.equal(first.imported, 1);
    // b.zip, sorted first, now unpacks to x/: x.zip is left out, and a.md, still in it, is not gone.
    await zipOf({ 'x/b.md': '# B\n\nLunch in Gaia.\n' }, 'Rivals/b.zip');
    const second = await runImport({ client, brainId: 'rivals', path: dir, forgetMissing: true });
    assert.deepEqual([second.imported, second.forgotten], [1, 0]);
    assert.match(second.skippedItems[0]!.reason, /as another archive here does/);
    assert.match(second.forgetNotes.join('\n'), /nothing was forgotten.*x\.zip/);
  });

  test('Ctrl-C mid-import leaves nothing unpacked in the temp dir, for an archive given or found in a folder', async () => {
    const lines = Array.from(
      { length: 800 },
      (_, i) =>
        `${String((i % 28) + 1).padStart(2, '0')}/01/2023, 10:${String(i % 60).padStart(2, '0')} - Rui: boat ${i}`,
    );
    const folder = join(root, 'Interrupted');
    mkdirSync(folder);
    await zipOf({ 'WhatsApp Chat with Rui.txt': lines.join('\n') }, 'Interrupted/rui.zip');
    for (const [path, brain] of [
      [folder, 'stopped-folder'],
      [join(folder, 'rui.zip'), 'stopped-zip'],
    ] as const) {
      // A temp dir of its own: what it holds after the signal is what the import left.
      const tmp = mkdtempSync(join(root, 'tmp-'));
      const args = ['bin/mnemo.mjs', 'import', path, '--brain', brain, '--self', 'Sam', '--concurrency', '2'];
      const env = { ...process.env, MNEMO_URL: server.url, MNEMO_KEY: apiKey, TMPDIR: tmp };
      const child = spawn(process.execPath, args, { env });
      after(() => child.kill('SIGKILL'));
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
      const ended = new Promise<NodeJS.Signals | null>((resolve) =>
        child.on('close', (_, signal) => resolve(signal)),
      );
      const written = () =>
        client.listRecords(brain, { limit: 50 }).then(
          (p) => p.data.length,
          () => 0,
        );
      const deadline = Date.now() + 60_000;
      while ((await written()) < 20 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      assert.equal(readdirSync(tmp).length, 1, 'unpacked while it runs');
      child.kill('SIGINT');
      assert.equal(await ended, 'SIGINT', stderr);
      assert.deepEqual(readdirSync(tmp), [], `${path}: ${stderr}`);
    }
  });

  test('what an import killed mid-way (kill -9) unpacked is removed by the next import', async () => {
    const lines = Array.from(
      { length: 800 },
      (_, i) =>
        `${String((i % 28) + 1).padStart(2, '0')}/01/2023, 10:${String(i % 60).padStart(2, '0')} - Rui: boat ${i}`,
    );
    await zipOf({ 'WhatsApp Chat with Rui.txt': lines.join('\n') }, 'killed.zip');
    const tmp = mkdtempSync(join(root, 'tmp-'));
    const env = { ...process.env, MNEMO_URL: server.url, MNEMO_KEY: apiKey, TMPDIR: tmp };
    const args = (path: string, brain: string) => [
      'bin/mnemo.mjs',
      'import',
      path,
      '--brain',
      brain,
      '--self',
      'Sam',
      '--concurrency',
      '2',
    ];
    const child = spawn(process.execPath, args(join(root, 'killed.zip'), 'killed'), { env });
    after(() => child.kill('SIGKILL'));
    const ended = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('close', (_, signal) => resolve(signal)),
    );
    const written = () =>
      client.listRecords('killed', { limit: 50 }).then(
        (p) => p.data.length,
        () => 0,
      );
    const deadline = Date.now() + 60_000;
    while ((await written()) < 20 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    child.kill('SIGKILL');
    assert.equal(await ended, 'SIGKILL');
    const left = readdirSync(tmp);
    assert.equal(left.length, 1, 'no clean-up outlives kill -9');
    assert.match(left[0]!, new RegExp(`^mnemo-zip-${child.pid}-`));

    const note = join(root, 'after-the-kill.md');
    writeFileSync(note, 'A note imported after the kill.\n');
    // Not spawnSync: the server answering it runs in this process.
    const next = spawn(process.execPath, args(note, 'killed'), { env });
    let stderr = '';
    next.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => next.on('close', (c) => resolve(c)));
    assert.equal(code, 0, stderr);
    assert.deepEqual(readdirSync(tmp), [], 'the next import removed it');
  });

  test('an archive that is not one is a clear error, and no Brain is made', async () => {
    const file = join(root, 'broken.zip');
    writeFileSync(file, 'not a zip');
    await assert.rejects(
      runImport({ client, brainId: 'broken', path: file }),
      /broken\.zip cannot be read as a zip archive/,
    );
    await assert.rejects(client.getBrain('broken'), { code: 'brain_not_found' });
  });
});
