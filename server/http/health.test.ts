import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { FileKeyRegistry } from '../../engine/auth/key-registry.ts';
import { createLocalEngine } from '../../engine/local/index.ts';
import type { Engine } from '../../engine/types.ts';
import { serveApp, type ServedApp } from './testing/serve-app.ts';

// The local engine behind a real server on loopback, with a key registry: health needs no key.
const dir = mkdtempSync(join(tmpdir(), 'mnemo-health-'));
let engine: Engine;
let server: ServedApp;
let base = '';
let key = '';

before(async () => {
  engine = await createLocalEngine({ dataDir: dir, dbKey: 'e'.repeat(64), reranker: null });
  const registry = FileKeyRegistry.ensure(join(dir, 'keys.json'));
  key = (await registry.create({ env: 'test', project: 'health' })).key;
  server = await serveApp({ engine, registry });
  base = `${server.origin}/v1`;
});

after(async () => {
  await server.close();
  await engine.close().catch(() => {});
  rmSync(dir, { recursive: true, force: true });
});

test('GET /v1/health answers 200 {status: ok} without a key, and any other path still wants one', async () => {
  const res = await fetch(`${base}/health`);
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { status: 'ok' });
  assert.match(res.headers.get('x-request-id') ?? '', /^req_/);
  assert.equal((await fetch(`${base}/brains`)).status, 401);
});

test('health answers GET only, and refuses cross-origin browser requests as every route does', async () => {
  // Every /v1 request but the keyless GETs (this and openapi.json) is authenticated before it is routed.
  assert.equal((await fetch(`${base}/health`, { method: 'POST' })).status, 401);
  const post = await fetch(`${base}/health`, { method: 'POST', headers: { authorization: `Bearer ${key}` } });
  assert.equal(post.status, 405);
  assert.equal(post.headers.get('allow'), 'GET, HEAD');
  assert.equal(((await post.json()) as { code: string }).code, 'http_405');
  const foreign = await fetch(`${base}/health`, { headers: { origin: 'https://evil.example' } });
  assert.equal(foreign.status, 403);
});

test('a closed engine is store_unavailable (503) in the one error shape, saying nothing of why', async () => {
  await engine.close();
  const res = await fetch(`${base}/health`);
  assert.equal(res.status, 503);
  const body = (await res.json()) as Record<string, unknown>;
  assert.deepEqual(Object.keys(body).sort(), ['code', 'docs_url', 'message', 'request_id', 'type']);
  assert.equal(body.code, 'store_unavailable');
  assert.equal(body.type, 'internal');
  assert.doesNotMatch(String(body.message), /closed/);
});
