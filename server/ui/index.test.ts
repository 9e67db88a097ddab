import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { isMnemoError } from '../../engine/errors/mnemo-error.ts';
import { mountUi } from './index.ts';
import { uiCsp } from './csp.ts';

function setup(opts: { built?: boolean } = {}) {
  const root = mkdtempSync(join(tmpdir(), 'mnemo-ui-'));
  const dir = join(root, 'dist');
  mkdirSync(dir);
  if (opts.built !== false) {
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Mnemo</title><div id="root"></div>');
    writeFileSync(join(dir, 'assets', 'app-1234.js'), 'console.log(1)');
  }
  writeFileSync(join(root, 'secret-outside.txt'), 'nope');
  const tokens = new Map([['tok_once', 'sk_test_local_abc']]);
  const app = new Hono();
  app.onError((e, c) => {
    if (isMnemoError(e)) return c.json({ type: e.type, code: e.code, message: e.message }, e.status as 400);
    return c.json({ code: 'internal_error' }, 500);
  });
  app.get('/v1/brains', (c) => c.json({ data: [] }));
  mountUi(app, {
    distDir: dir,
    exchangeToken: (t) => {
      const key = tokens.get(t) ?? null;
      tokens.delete(t);
      return key;
    },
  });
  app.notFound((c) => c.json({ code: 'http_404' }, 404));
  return { app, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

test('serves index.html at / with the strict CSP and no caching', async () => {
  const { app, cleanup } = setup();
  const res = await app.request('/');
  assert.equal(res.status, 200);
  assert.match(await res.text(), /<div id="root">/);
  assert.equal(res.headers.get('content-security-policy'), uiCsp);
  assert.match(uiCsp, /script-src 'self'(;|$)/);
  assert.doesNotMatch(uiCsp, /unsafe-inline|unsafe-eval/);
  assert.equal(res.headers.get('x-frame-options'), 'DENY');
  assert.equal(res.headers.get('cache-control'), 'no-store');
  cleanup();
});

test('client routes fall back to index.html; hashed assets are immutable', async () => {
  const { app, cleanup } = setup();
  const page = await app.request('/brains/b1/memories/mem_1');
  assert.equal(page.status, 200);
  assert.match(page.headers.get('content-type') ?? '', /text\/html/);
  const asset = await app.request('/assets/app-1234.js');
  assert.equal(asset.status, 200);
  assert.match(asset.headers.get('content-type') ?? '', /javascript/);
  assert.match(asset.headers.get('cache-control') ?? '', /immutable/);
  const missing = await app.request('/assets/gone-0000.js');
  assert.equal(missing.status, 404);
  cleanup();
});

test('never answers under /v1 and refuses paths leaving the dist dir', async () => {
  const { app, cleanup } = setup();
  assert.deepEqual(await (await app.request('/v1/brains')).json(), { data: [] });
  const unknown = await app.request('/v1/nowhere');
  assert.equal(unknown.status, 404);
  assert.deepEqual(await unknown.json(), { code: 'http_404' });
  for (const p of [
    '/../secret-outside.txt',
    '/%2e%2e/secret-outside.txt',
    '/assets/..%2f..%2fsecret-outside.txt',
  ]) {
    const res = await app.request(p);
    assert.notEqual(await res.text(), 'nope', p);
  }
  cleanup();
});

test('the UI token is exchanged once for the key', async () => {
  const { app, cleanup } = setup();
  const ask = (body: string, type = 'application/json') =>
    app.request('/ui/session', { method: 'POST', body, headers: { 'content-type': type } });
  const first = await ask(JSON.stringify({ token: 'tok_once' }));
  assert.equal(first.status, 200);
  assert.deepEqual(await first.json(), { api_key: 'sk_test_local_abc' });
  assert.equal(first.headers.get('cache-control'), 'no-store');
  const again = await ask(JSON.stringify({ token: 'tok_once' }));
  assert.equal(again.status, 401);
  assert.equal(((await again.json()) as { code: string }).code, 'http_401');
  assert.equal((await ask('{"token": 5}')).status, 400);
  assert.equal((await ask('not json')).status, 400);
  assert.equal((await ask('token=tok', 'application/x-www-form-urlencoded')).status, 415);
  cleanup();
});

test('says how to build when the renderer is missing', async () => {
  const { app, cleanup } = setup({ built: false });
  const res = await app.request('/');
  assert.equal(res.status, 503);
  assert.match(await res.text(), /npm run build:ui/);
  cleanup();
});

test('a session body that does not arrive in time is refused, not waited on', async () => {
  const root = mkdtempSync(join(tmpdir(), 'mnemo-ui-'));
  const app = new Hono();
  app.onError((e, c) =>
    isMnemoError(e) ? c.json({ code: e.code, message: e.message }, 400) : c.json({}, 500),
  );
  mountUi(app, { distDir: root, exchangeToken: () => 'sk_test_local_abc', sessionBodyMs: 200 });
  // One byte of the token, then nothing more: a client trickling it.
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    start: (c) => c.enqueue(new TextEncoder().encode('{')),
    cancel: () => void (cancelled = true),
  });
  const res = await app.request('/ui/session', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    duplex: 'half',
  } as RequestInit);
  assert.equal(res.status, 400);
  assert.deepEqual(await res.json(), {
    code: 'invalid_request_body',
    message: 'body: must arrive within 0.2 s',
  });
  assert.equal(cancelled, true, 'the body is no longer waited on');
  rmSync(root, { recursive: true, force: true });
});
