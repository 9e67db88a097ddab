import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { FileKeyRegistry } from '../../engine/auth/key-registry.ts';
import { startServer, type RunningServer } from '../start-server.ts';
import { MnemoApiError, createMnemoClient, type MnemoClient, type StreamFrame } from './index.ts';

// Every method of the typed client against the real server (reference engine, real key registry).
const dir = mkdtempSync(join(tmpdir(), 'mnemo-client-live-'));
let server: RunningServer;
let mnemo: MnemoClient;

before(async () => {
  FileKeyRegistry.ensure(join(dir, 'keys.json'));
  server = await startServer({ engine: 'reference', port: 0, keyRegistry: join(dir, 'keys.json') });
  const admin = (await server.registry!.create({ env: 'test', project: 'app', admin: true })).key;
  mnemo = createMnemoClient({ baseUrl: server.url, apiKey: admin });
});
after(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

test('the typed client drives every /v1 operation of the real server', async () => {
  const brain = await mnemo.createBrain({ id: 'life', self: { type: 'person', name: 'Sam' } });
  assert.equal(brain.id, 'life');
  assert.deepEqual(
    (await mnemo.listBrains()).data.map((b) => b.id),
    ['life'],
  );
  assert.equal((await mnemo.getBrain('life')).self?.name, 'Sam');

  const { record, watermark } = await mnemo.rememberRecord(
    'life',
    { content: { kind: 'message', text: 'I started learning the cello in March', speaker: 'self' } },
    { idempotencyKey: 'k1' },
  );
  assert.match(watermark ?? '', /^wm_/);
  const replay = await mnemo.rememberRecord(
    'life',
    { content: { kind: 'message', text: 'I started learning the cello in March', speaker: 'self' } },
    { idempotencyKey: 'k1' },
  );
  assert.equal(replay.record.id, record.id, 'a replay returns the original Record');
  assert.equal((await mnemo.getRecord('life', record.id)).id, record.id);
  assert.equal((await mnemo.listRecords('life', { kind: 'message', limit: 10 })).data.length, 1);

  const memories = await mnemo.listMemories('life', { limit: 10 });
  const memory = await mnemo.getMemory('life', memories.data[0]!.id);
  assert.equal(memory.citations[0]!.record_id, record.id);

  const obj = await mnemo.acceptObject('life', { type: 'hobby', key: 'cello', value: { since: '2024-03' } });
  assert.equal(obj.version, 1);
  assert.deepEqual((await mnemo.getObject('life', 'hobby', 'cello')).value, { since: '2024-03' });

  const ctx = await mnemo.createContext('life', { query: 'cello' }, { watermark });
  assert.equal(ctx.status, 200);
  assert.ok(ctx.context.status === 'ready' && ctx.context.text?.includes('cello'));
  const frames: StreamFrame[] = [];
  for await (const f of mnemo.streamContext('life', { query: 'cello' })) frames.push(f);
  assert.equal(frames.at(-1)!.event, 'context');
  assert.equal((frames.at(-1)!.data as { status: string }).status, 'ready');

  const traces = await mnemo.listTraces('life', { limit: 5 });
  assert.ok(traces.data.length >= 2);
  assert.equal((await mnemo.getTrace('life', ctx.context.id)).id, ctx.context.id);
  assert.equal((await mnemo.getProfile('life', { limit: 5 })).object, 'profile');
  assert.equal((await mnemo.getCensus('life')).counts.records, 1);

  const created = await mnemo.createKey({ env: 'test', brain: 'life', scopes: ['context:read'] });
  assert.match(created.secret, /^sk_test_app_/);
  assert.ok((await mnemo.listKeys()).data.some((k) => k.id === created.id));
  assert.ok((await mnemo.revokeKey(created.id)).revoked_at);
  const revoked = createMnemoClient({ baseUrl: server.url, apiKey: created.secret });
  const e = await revoked.getBrain('life').catch((x: unknown) => x);
  assert.ok(e instanceof MnemoApiError && e.code === 'key_revoked' && e.status === 401);

  const imported = await mnemo.importFiles('life', {
    files: [
      {
        name: 'Cello.md',
        content_base64: Buffer.from('# Cello\n\nPractice scales daily.\n').toString('base64'),
      },
    ],
  });
  assert.deepEqual([imported.imported, imported.parts[0]!.format], [1, 'markdown']);
  assert.deepEqual(
    (await mnemo.listSources('life')).data.map((s) => [s.name, s.records]),
    [['markdown', 1]],
  );
  assert.equal((await mnemo.forgetSource('life', 'markdown')).target.type, 'source');

  assert.equal((await mnemo.forgetRecord('life', record.id)).deleted.records, 1);
  assert.equal((await mnemo.forgetBrain('life')).target.id, 'life');
  const gone = await mnemo.getBrain('life').catch((x: unknown) => x);
  assert.ok(gone instanceof MnemoApiError && gone.code === 'brain_not_found' && gone.type === 'not_found');
});
