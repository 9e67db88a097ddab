import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { FileKeyRegistry } from '../../engine/auth/key-registry.ts';
import type { ImportProgress, ImportRequest } from '../../engine/contract/index.ts';
import { startServer, type RunningServer } from '../start-server.ts';
import { MnemoApiError, createMnemoClient, type MnemoClient } from './index.ts';

// importFilesWithProgress against the real server (reference engine, real key registry).
const dir = mkdtempSync(join(tmpdir(), 'mnemo-client-import-progress-'));
let server: RunningServer;
let mnemo: MnemoClient;

before(async () => {
  FileKeyRegistry.ensure(join(dir, 'keys.json'));
  server = await startServer({
    engine: 'reference',
    port: 0,
    rateLimit: 0,
    keyRegistry: join(dir, 'keys.json'),
    log: () => {},
  });
  const key = (await server.registry!.create({ env: 'test', project: 'app' })).key;
  mnemo = createMnemoClient({ baseUrl: server.url, apiKey: key });
});
after(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const notes = (n: number): ImportRequest['files'] =>
  Array.from({ length: n }, (_, i) => ({
    name: `n${String(i).padStart(4, '0')}.md`,
    content_base64: Buffer.from(`Note ${i} says hello.\n`).toString('base64'),
  }));

test('importFilesWithProgress: progress while it runs, then the ImportResult importFiles would return', async () => {
  await mnemo.createBrain({ id: 'progress' });
  await mnemo.createBrain({ id: 'plain' });
  const seen: ImportProgress[] = [];
  const result = await mnemo.importFilesWithProgress(
    'progress',
    { files: notes(40) },
    { onProgress: (p) => seen.push(p) },
  );
  assert.ok(seen.length >= 1);
  assert.deepEqual([seen[0]!.object, seen[0]!.files, seen[0]!.parts_planned], ['import_progress', 40, 40]);
  const plain = await mnemo.importFiles('plain', { files: notes(40) });
  assert.deepEqual({ ...result, brain_id: '', watermark: null }, { ...plain, brain_id: '', watermark: null });
  assert.equal(result.imported, 40);
  // Again: everything is already there.
  const again = await mnemo.importFilesWithProgress('progress', { files: notes(40) });
  assert.deepEqual([again.imported, again.unchanged], [0, 40]);
});

test('importFilesWithProgress: a failure before the stream opens and an error frame after it are MnemoApiErrors', async () => {
  const early = await mnemo.importFilesWithProgress('nobody', { files: notes(1) }).catch((e: unknown) => e);
  assert.ok(early instanceof MnemoApiError);
  assert.deepEqual([early.status, early.code], [404, 'brain_not_found']);

  // The Brain is forgotten while its import runs: the server can only say so in an error frame.
  await mnemo.createBrain({ id: 'doomed' });
  let forgetting: Promise<unknown> | null = null;
  const late = await mnemo
    .importFilesWithProgress(
      'doomed',
      { files: notes(2000) },
      {
        onProgress: (p) => {
          if (p.imported > 0) forgetting ??= mnemo.forgetBrain('doomed');
        },
      },
    )
    .catch((e: unknown) => e);
  assert.ok(forgetting, 'the import was still running when the Brain was forgotten');
  await forgetting;
  assert.ok(late instanceof MnemoApiError, String(late));
  assert.deepEqual([late.status, late.type, late.code], [404, 'not_found', 'brain_not_found']);
  assert.match(late.requestId ?? '', /^req_/);
});

test('importFilesWithProgress: aborting the signal rejects at once', async () => {
  await mnemo.createBrain({ id: 'aborted' });
  const controller = new AbortController();
  const outcome = await mnemo
    .importFilesWithProgress(
      'aborted',
      { files: notes(2000) },
      { signal: controller.signal, onProgress: (p) => p.imported > 0 && controller.abort() },
    )
    .catch((e: unknown) => e);
  assert.equal((outcome as Error).name, 'AbortError');
  const written = (await mnemo.getCensus('aborted')).counts.records;
  assert.ok(written > 0 && written < 2000, `stopped part way (${written})`);
});
