import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createMnemoClient, type MnemoClient } from '../../server/client/index.ts';
import type { RunningServer } from '../../server/start-server.ts';
import { serveLocal } from './serve-local.ts';

// `mnemo import --remove whatsapp --chat NAME` from the command line, against a real server on an
// encrypted SQLite file: one chat of several goes, the others stay.
const root = mkdtempSync(join(tmpdir(), 'mnemo-remove-chat-'));
let server: RunningServer;
let client: MnemoClient;
let key: string;

before(async () => {
  ({ server, key } = await serveLocal(root));
  client = createMnemoClient({ baseUrl: server.url, apiKey: key });
});
after(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

const run = (args: string[]) =>
  new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ['bin/mnemo.mjs', 'import', ...args, '--brain', 'chats'], {
      env: { ...process.env, MNEMO_URL: server.url, MNEMO_KEY: key },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });

test('one WhatsApp chat is removed alone with --chat, as --list names it; --remove whatsapp still takes them all', async () => {
  const dir = join(root, 'chats');
  mkdirSync(dir);
  writeFileSync(
    join(dir, 'WhatsApp Chat with Porto trip.txt'),
    '04/03/2024, 10:15 - Ana: Flying to Porto on Friday\n04/03/2024, 10:16 - Rui: Table booked for 8\n',
  );
  writeFileSync(join(dir, 'WhatsApp Chat with Bees.txt'), '05/03/2024, 09:00 - Ana: The hives are calm\n');
  const imported = await run([dir, '--time-zone', 'UTC']);
  assert.equal(imported.status, 0, imported.stderr);

  const listed = await run(['--list']);
  assert.equal(listed.status, 0, listed.stderr);
  assert.match(
    listed.stdout,
    /^whatsapp\t3 items \(3 imported\)\t2024-03-04 \.\. 2024-03-05\n {2}chat "Bees"\t1 messages\n {2}chat "Porto trip"\t2 messages\n$/,
  );
  const json = JSON.parse((await run(['--list', '--json'])).stdout) as { chats?: unknown }[];
  assert.deepEqual(json[0]!.chats, [
    { name: 'Bees', messages: 1 },
    { name: 'Porto trip', messages: 2 },
  ]);

  const usage = await run(['--list', '--chat', 'Bees']);
  assert.equal(usage.status, 2);
  assert.match(usage.stderr, /--chat goes with --remove SOURCE/);

  const removed = await run(['--remove', 'whatsapp', '--chat', 'Porto trip']);
  assert.equal(removed.status, 0, removed.stderr);
  assert.match(
    removed.stdout,
    /^removed chat "Porto trip" of source "whatsapp" from brain "chats": 2 Records and \d+ Memories forgotten/,
  );
  const left = await client.listRecords('chats', { source: 'whatsapp' });
  assert.deepEqual(
    left.data.map((r) => r.source.external_id),
    ['whatsapp:Bees:2024-03-05T09:00:00.000Z:Ana:1'],
  );
  const missing = await run(['--remove', 'whatsapp', '--chat', 'Porto trip']);
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /source_not_found/);

  // The chat imported again comes back; the whole source still goes at once.
  assert.equal((await run([dir, '--time-zone', 'UTC'])).status, 0);
  const all = await run(['--remove', 'whatsapp']);
  assert.match(all.stdout, /^removed source "whatsapp" from brain "chats": 3 Records/);
});
