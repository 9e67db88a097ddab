import { serve, type ServerType } from '@hono/node-server';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { KeyRegistry } from '../../engine/auth/key-registry.ts';
import { createLocalEngine } from '../../engine/local/index.ts';
import type { Engine } from '../../engine/types.ts';
import { createMnemoClient } from '../../server/client/index.ts';
import { createApp } from '../../server/http/app.ts';
import { loopbackHosts } from '../../server/http/loopback-guard.ts';
import { runImport } from '../../server/import/run-import.ts';

// A server whose clock runs an hour behind this machine's: every Record it writes looks older than the
// import that sent it. The importer must count by the server's Idempotent-Replayed, not by created_at.
const dir = mkdtempSync(join(tmpdir(), 'mnemo-import-replayed-'));
const registry = KeyRegistry.ensure(join(dir, 'keys.json'));
const tenant = { project: 'home', env: 'test' } as const;
let engine: Engine;
let server: ServerType;
let port = 0;

before(async () => {
  engine = await createLocalEngine({
    dataDir: join(dir, 'data'),
    dbKey: 'r'.repeat(64),
    clock: () => new Date(Date.now() - 3_600_000),
    reranker: null,
  });
  const app = createApp({
    engine,
    registry,
    rateLimit: 0,
    docsUrlBase: () => `http://127.0.0.1:${port}/docs`,
    loopback: { hosts: () => loopbackHosts('127.0.0.1', port) },
  });
  server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
  });
  port = (server.address() as AddressInfo).port;
});

after(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('imported / unchanged split', () => {
  test('comes from Idempotent-Replayed, whatever the server clock says', async () => {
    // The Brain exists before the import, so created_at is all an importer without the header could use.
    await engine.createBrain(tenant, { id: 'notes' });
    const { key } = registry.create(tenant);
    const client = createMnemoClient({ baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: key });
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
