import assert from 'node:assert/strict';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { ImportResult, type ImportRequest } from '../../engine/contract/index.ts';
import { createMnemoClient } from '../../server/client/index.ts';
import { parseEventStream } from '../../server/client/sse.ts';
import { runImport } from '../../server/import/run-import.ts';
import type { RunningServer } from '../../server/start-server.ts';
import { serveLocal } from './serve-local.ts';

// A vault of a few hundred notes in nested folders, uploaded as the app sends it and imported by
// `mnemo import`, through a real server on loopback with the local engine on an encrypted SQLite file.
// Notes are copied and read several at a time: what is written, in what order and under which ids,
// must be as when they went one by one, and importing the vault again must write nothing.
process.env.MNEMO_EMBEDDER = 'none';

const root = mkdtempSync(join(tmpdir(), 'mnemo-import-vault-'));
const vault = join(root, 'Vault');
let server: RunningServer;
let key: string;

const folders = ['', 'Daily', 'Daily/2023', 'Daily/2024', 'Projects/Garden', 'People', 'Archive/Old/Deep'];
const notes = 80;

before(async () => {
  ({ server, key } = await serveLocal(root));
  mkdirSync(join(vault, '.obsidian'), { recursive: true });
  writeFileSync(join(vault, '.obsidian', 'app.json'), '{}');
  for (let i = 0; i < notes; i++) {
    const file = join(vault, folders[i % folders.length]!, `Note ${i}.md`);
    mkdirSync(dirname(file), { recursive: true });
    // Every third note has a date of its own; the others occur when their file was last changed.
    const front = i % 3 === 0 ? `---\ndate: 2024-02-${String((i % 28) + 1).padStart(2, '0')}\n---\n` : '';
    writeFileSync(file, `${front}# Note ${i}\n\nNote ${i} links [[Note ${(i * 7) % notes}]]. #tag${i % 5}\n`);
    const t = new Date(Date.UTC(2023, 0, 1) + i * 3_600_000);
    utimesSync(file, t, t);
  }
});

after(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

/** The vault's notes as the walk meets them: entries by name within each folder, folders entered in place. */
function walkOrder(dir: string, rel = ''): string[] {
  return readdirSync(join(dir, rel), { withFileTypes: true })
    .filter((e) => !e.name.startsWith('.'))
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((e) => {
      const r = rel ? `${rel}/${e.name}` : e.name;
      return e.isDirectory() ? walkOrder(dir, r) : [r];
    });
}

/** Every file of the vault as the app uploads it, in the order given (the browser's is its own). */
function upload(order: (names: string[]) => string[]): ImportRequest {
  const names = ['.obsidian/app.json', ...walkOrder(vault)];
  return {
    files: order(names).map((name) => ({
      name: `Vault/${name}`,
      content_base64: readFileSync(join(vault, name)).toString('base64'),
      last_modified: new Date(
        Date.UTC(2023, 0, 1) + Number(/Note (\d+)/.exec(name)?.[1] ?? 0) * 3_600_000,
      ).toISOString(),
    })),
  };
}

async function importStream(brain: string, body: ImportRequest): Promise<ImportResult> {
  const res = await fetch(`${server.url}/brains/${brain}/imports`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      accept: 'text/event-stream',
    },
    body: JSON.stringify(body),
  });
  assert.equal(res.status, 200);
  let result: ImportResult | undefined;
  for await (const frame of parseEventStream(res.body!)) {
    if (frame.event === 'result') result = ImportResult.parse(frame.data);
    else assert.equal(frame.event, 'progress');
  }
  assert.ok(result, 'a result frame');
  return result;
}

test('a vault uploaded in any order: each note once, under its vault path, written in the walk order; again, nothing new', async () => {
  const client = createMnemoClient({ baseUrl: server.url, apiKey: key });
  await client.createBrain({ id: 'vault' });
  const expected = walkOrder(vault);
  assert.equal(expected.length, notes);

  // Deepest files first, then the rest backwards: folders are made in another order than the walk's.
  const first = await importStream(
    'vault',
    upload((names) =>
      [...names].sort((a, b) => b.split('/').length - a.split('/').length || b.localeCompare(a)),
    ),
  );
  assert.deepEqual([first.imported, first.unchanged, first.skipped_count, first.failed], [notes, 0, 0, 0]);
  assert.deepEqual(
    first.parts.map((p) => [p.name, p.format, p.imported]),
    [['Vault', 'obsidian', notes]],
  );

  const records = [];
  for (let cursor: string | undefined; ;) {
    const page = await client.listRecords('vault', { limit: 100, ...(cursor ? { cursor } : {}) });
    records.push(...page.data);
    if (!page.next_cursor) break;
    cursor = page.next_cursor;
  }
  // Ids sort by creation: oldest first is the order the notes were written in.
  records.sort((a, b) => (a.id < b.id ? -1 : 1));
  assert.deepEqual(
    records.map((r) => r.source.external_id),
    expected.map((n) => `Vault/${n}`),
  );
  assert.ok(records.every((r) => r.source.name === 'obsidian'));

  const again = await importStream(
    'vault',
    upload((names) => names),
  );
  assert.deepEqual([again.imported, again.unchanged, again.failed], [0, notes, 0]);

  // `mnemo import` of the same vault on disk names and reads its notes as the upload did.
  const cli = await runImport({ client, brainId: 'vault', path: vault });
  assert.deepEqual([cli.imported, cli.unchanged, cli.failed], [0, notes, 0]);
  assert.equal((await client.getCensus('vault')).counts.records, notes);
});
