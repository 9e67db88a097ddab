import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Memory, MnemoRecord } from '../../engine/contract/index.ts';
import { createMnemoClient, type MnemoClient } from '../../server/client/index.ts';
import type { RunningServer } from '../../server/start-server.ts';
import { serveLocal } from './serve-local.ts';

// `mnemo export` against a real server on an encrypted SQLite file: every Record, Memory and Object of
// a Brain, one per line, as /v1 serves them.
const root = mkdtempSync(join(tmpdir(), 'mnemo-export-'));
let server: RunningServer;
let client: MnemoClient;
let key: string;

before(async () => {
  ({ server, key } = await serveLocal(root));
  client = createMnemoClient({ baseUrl: server.url, apiKey: key });
  await client.createBrain({ id: 'ana', self: { type: 'person', name: 'Ana Reis' } });
  const said = [
    { text: 'I moved to Porto in 2021 for the sailing club.', visibility: 'shareable' },
    { text: 'My blood type is O negative.', visibility: 'local_only' },
    { text: 'My sister Inês works at the hospital in Coimbra.', visibility: 'redacted_summary' },
    { text: 'I am allergic to peanuts.', visibility: 'shareable' },
  ] as const;
  let watermark: string | null = null;
  for (const s of said) {
    ({ watermark } = await client.rememberRecord('ana', {
      content: { kind: 'message', speaker: 'Ana Reis', text: s.text },
      visibility: s.visibility,
      occurred_at: '2026-11-02T10:00:00Z',
    }));
  }
  await client.acceptObject('ana', {
    type: 'settings',
    key: 'theme',
    value: { dark: true },
    if_version: null,
  });
  // Every Record derived before the export reads them.
  for (;;) {
    const r = await client.createContext('ana', { query: 'blood type' }, { watermark: watermark! });
    if (r.status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
});
after(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

const run = (args: string[], env: Record<string, string> = { MNEMO_KEY: key }, brain = 'ana') =>
  new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ['bin/mnemo.mjs', 'export', '--brain', brain, ...args], {
      env: { ...process.env, MNEMO_URL: server.url, MNEMO_KEY: '', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });

type Line = { object: string } & Record<string, unknown>;
const linesOf = (text: string): Line[] =>
  text
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Line);

async function everyRecord(): Promise<MnemoRecord[]> {
  const out: MnemoRecord[] = [];
  for (let cursor: string | undefined; ;) {
    const page = await client.listRecords('ana', { limit: 2, ...(cursor ? { cursor } : {}) });
    out.push(...page.data);
    if (!page.has_more) return out;
    cursor = page.next_cursor!;
  }
}

async function everyMemory(): Promise<Memory[]> {
  const out: Memory[] = [];
  for (let cursor: string | undefined; ;) {
    const page = await client.listMemories('ana', { status: 'all', limit: 2, ...(cursor ? { cursor } : {}) });
    out.push(...page.data);
    if (!page.has_more) return out;
    cursor = page.next_cursor!;
  }
}

const byId = <T extends { id: string }>(xs: T[]) => [...xs].sort((a, b) => (a.id < b.id ? -1 : 1));

test('a Brain is written whole to a new owner-only file, each line as /v1 serves it, first and last saying what it is', async () => {
  const file = join(root, 'ana.jsonl');
  const r = await run([file]);
  assert.equal(r.status, 0, r.stderr);
  const lines = linesOf(readFileSync(file, 'utf8'));
  const records = await everyRecord();
  const memories = await everyMemory();
  assert.ok(memories.length >= 3, `derived: ${memories.length}`);

  const [head, ...rest] = lines;
  const end = rest.pop()!;
  assert.equal(head!.object, 'mnemo_export');
  assert.equal(head!.format_version, 1);
  assert.deepEqual(head!.left_out_visibilities, []);
  assert.equal((head!.brain as { id: string }).id, 'ana');
  assert.deepEqual(
    byId(rest.filter((l) => l.object === 'record') as unknown as MnemoRecord[]),
    byId(records),
  );
  assert.deepEqual(byId(rest.filter((l) => l.object === 'memory') as unknown as Memory[]), byId(memories));
  assert.deepEqual(
    rest.filter((l) => l.object === 'object').map((o) => [o.type, o.key, o.value]),
    [['settings', 'theme', { dark: true }]],
  );
  assert.deepEqual(end, {
    object: 'export_end',
    records: 4,
    memories: memories.length,
    objects: 1,
    left_out: { records: 0, memories: 0 },
  });
  assert.equal(statSync(file).mode & 0o777, 0o600);
  assert.match(
    r.stdout,
    new RegExp(`^exported brain "ana": 4 Records, ${memories.length} Memories, 1 Object to `),
  );

  const again = await run([file]);
  assert.equal(again.status, 1);
  assert.match(again.stderr, /exists already: an export never overwrites a file/);
  assert.deepEqual(linesOf(readFileSync(file, 'utf8')), lines);
});

test('--no-local-only leaves out local_only Records and every Memory citing one, and counts them', async () => {
  const file = join(root, 'ana-shared.jsonl');
  const r = await run([file, '--no-local-only']);
  assert.equal(r.status, 0, r.stderr);
  const lines = linesOf(readFileSync(file, 'utf8'));
  const records = lines.filter((l) => l.object === 'record') as unknown as MnemoRecord[];
  const held = new Set(records.map((x) => x.id));
  assert.deepEqual(records.map((x) => x.visibility).sort(), ['redacted_summary', 'shareable', 'shareable']);
  const memories = lines.filter((l) => l.object === 'memory') as unknown as Memory[];
  assert.ok(memories.every((m) => m.citations.every((c) => held.has(c.record_id))));
  assert.ok(!JSON.stringify(lines).includes('blood type'), 'nothing of the local_only Record is in the file');
  const all = await everyMemory();
  const end = lines.at(-1)!;
  assert.deepEqual(lines[0]!.left_out_visibilities, ['local_only']);
  assert.deepEqual(end.left_out, { records: 1, memories: all.length - memories.length });
  assert.ok(all.length - memories.length >= 1);
});

test('without a file the lines go to standard output and the summary to standard error', async () => {
  const r = await run([]);
  assert.equal(r.status, 0, r.stderr);
  const lines = linesOf(r.stdout);
  assert.equal(lines[0]!.object, 'mnemo_export');
  assert.equal(lines.at(-1)!.object, 'export_end');
  assert.match(r.stderr, /^exported brain "ana": 4 Records, \d+ Memories, 1 Object to standard output\n$/);
});

test('a key that may not read Memories fails the export and leaves no file, not even a partial one', async () => {
  const limited = (
    await server.registry!.create({ env: 'test', project: 'home', scopes: ['records:read', 'objects:read'] })
  ).key;
  const dir = mkdtempSync(join(root, 'limited-'));
  const r = await run([join(dir, 'ana.jsonl')], { MNEMO_KEY: limited });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /^mnemo export: missing_scope: .*memories:read/m);
  assert.deepEqual(readdirSync(dir), []);
});

test('no key, a missing folder or an unknown Brain: said, and nothing written', async () => {
  const noKey = await run([join(root, 'x.jsonl')], {});
  assert.equal(noKey.status, 2);
  assert.match(noKey.stderr, /pass --key or set MNEMO_KEY/);

  const noFolder = await run([join(root, 'no', 'such', 'x.jsonl')]);
  assert.equal(noFolder.status, 1);
  assert.match(noFolder.stderr, /the folder .*no\/such does not exist/);

  const dir = mkdtempSync(join(root, 'unknown-'));
  writeFileSync(join(dir, 'keep.txt'), 'x');
  const unknown = await run([join(dir, 'nobody.jsonl')], { MNEMO_KEY: key }, 'nobody');
  assert.equal(unknown.status, 1);
  assert.match(unknown.stderr, /brain_not_found/);
  assert.deepEqual(readdirSync(dir), ['keep.txt']);
});
