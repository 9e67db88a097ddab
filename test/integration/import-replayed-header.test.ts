import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { FileKeyRegistry } from '../../engine/auth/key-registry.ts';
import { createLocalEngine } from '../../engine/local/index.ts';
import type { Engine } from '../../engine/types.ts';
import { createMnemoClient } from '../../server/client/index.ts';
import { runImport } from '../../server/import/run-import.ts';
import { serveApp, type ServedApp } from '../../server/http/testing/serve-app.ts';

// A server whose clock runs an hour behind this machine's: every Record it writes looks older than the
// import that sent it. The importer must count by the server's Idempotent-Replayed, not by created_at.
const dir = mkdtempSync(join(tmpdir(), 'mnemo-import-replayed-'));
const registry = FileKeyRegistry.ensure(join(dir, 'keys.json'));
const tenant = { project: 'home', env: 'test' } as const;
let engine: Engine;
let server: ServedApp;

before(async () => {
  engine = await createLocalEngine({
    dataDir: join(dir, 'data'),
    dbKey: 'r'.repeat(64),
    clock: () => new Date(Date.now() - 3_600_000),
    reranker: null,
  });
  server = await serveApp({ engine, registry });
});

after(async () => {
  await server.close();
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('imported / unchanged split', () => {
  test('comes from Idempotent-Replayed, whatever the server clock says', async () => {
    // The Brain exists before the import, so created_at is all an importer without the header could use.
    await engine.createBrain(tenant, { id: 'notes' });
    const { key } = await registry.create(tenant);
    const client = createMnemoClient({ baseUrl: `${server.origin}/v1`, apiKey: key });
    const file = join(dir, 'Ideas.md');
    writeFileSync(file, '# Ideas\n\nA tide-clock for the hallway.\n');

    const first = await runImport({ client, brainId: 'notes', path: file });
    assert.equal(first.brainCreated, false);
    assert.deepEqual([first.imported, first.unchanged, first.failed], [1, 0, 0]);

    const again = await runImport({ client, brainId: 'notes', path: file });
    assert.deepEqual([again.imported, again.unchanged, again.failed], [0, 1, 0]);
    assert.equal((await client.listRecords('notes')).data.length, 1);

    // The server-side import (the UI's) counts by the engine's own flag.
    const files = [
      { name: 'Plans.md', content_base64: Buffer.from('# Plans\n\nRepaint the gate.\n').toString('base64') },
    ];
    const uploaded = await client.importFiles('notes', { files });
    assert.deepEqual([uploaded.imported, uploaded.unchanged], [1, 0]);
    const reuploaded = await client.importFiles('notes', { files });
    assert.deepEqual([reuploaded.imported, reuploaded.unchanged], [0, 1]);
  });
});
