import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { FileKeyRegistry } from '../../engine/auth/key-registry.ts';
import { createLocalEngine } from '../../engine/local/index.ts';
import type { Engine } from '../../engine/types.ts';
import { createMnemoClient, type MnemoClient } from '../client/index.ts';
import { runImport } from './run-import.ts';
import { serveApp, type ServedApp } from '../http/testing/serve-app.ts';

// `mnemo import` of notes against the local engine (an encrypted SQLite file) over /v1 on loopback.
const dir = mkdtempSync(join(tmpdir(), 'mnemo-note-identity-'));
const registry = FileKeyRegistry.ensure(join(dir, 'keys.json'));
const tenant = { project: 'home', env: 'test' } as const;
let engine: Engine;
let server: ServedApp;
let client: MnemoClient;

before(async () => {
  engine = await createLocalEngine({ dataDir: join(dir, 'data'), dbKey: 'n'.repeat(64), reranker: null });
  server = await serveApp({ engine, registry });
  client = createMnemoClient({ baseUrl: `${server.origin}/v1`, apiKey: (await registry.create(tenant)).key });
});

after(async () => {
  await server.close();
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

const note = (path: string, text: string) => {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  return path;
};

/** The active Memories' statements that mention WORD. */
async function active(brain: string, word: string): Promise<string[]> {
  const page = await client.listMemories(brain, { q: word, status: 'active' });
  return page.data.map((m) => m.statement);
}

test('two notes named todo.md, imported one after the other, both stay retrievable', async () => {
  const a = note(join(dir, 'a', 'todo.md'), '# Todo\nBuy oat milk ALPHAITEM\n');
  const b = note(join(dir, 'b', 'todo.md'), '# Todo\nCall the plumber BETAITEM\n');
  assert.equal((await runImport({ client, brainId: 'coll', path: a })).imported, 1);
  assert.equal((await runImport({ client, brainId: 'coll', path: b })).imported, 1);
  const records = (await client.listRecords('coll', { source: 'markdown' })).data;
  assert.equal(new Set(records.map((r) => r.source.external_id)).size, 2);
  assert.equal((await active('coll', 'ALPHAITEM')).length, 1, 'the first note was not superseded');
  assert.equal((await active('coll', 'BETAITEM')).length, 1);
});

test('one note imported alone, in its folder and as a vault is stored once', async () => {
  const n = note(join(dir, 'vault', 'sub', 'n.md'), '# N\nThe spare key is under the GAMMAITEM pot\n');
  const runs = [
    await runImport({ client, brainId: 'once', path: n }),
    await runImport({ client, brainId: 'once', path: join(dir, 'vault') }),
    await runImport({ client, brainId: 'once', path: join(dir, 'vault'), format: 'obsidian' }),
  ];
  assert.deepEqual(
    runs.map((r) => [r.imported, r.unchanged]),
    [
      [1, 0],
      [0, 1],
      [0, 1],
    ],
  );
  assert.equal((await client.listRecords('once', {})).data.length, 1);
});
