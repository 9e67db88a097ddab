import { serve, type ServerType } from '@hono/node-server';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { ImportRequest, RecordCreate } from '../../engine/contract/index.ts';
import { createReferenceEngine } from '../../engine/reference/index.ts';
import { createApp } from './app.ts';
import { loopbackHosts } from './loopback-guard.ts';
import { validationMessage } from './validate.ts';

const message = (schema: { safeParse: (v: unknown) => { error?: unknown } }, input: unknown) =>
  validationMessage(schema.safeParse(input).error as never, input);
const files = [{ name: 'a.md', content_base64: '' }];
const formats =
  '"auto", "markdown", "obsidian", "chatgpt", "claude", "mbox", "whatsapp", "slack", "ics", "vcf"';

test('a union of literals and enums names every allowed value, not only its first branch', () => {
  assert.equal(message(ImportRequest, { format: 'docx', files }), `format: must be one of ${formats}`);
  assert.equal(message(ImportRequest, { format: 7, files }), `format: must be one of ${formats}`);
});

test('a union of types names every type; a discriminated union its tags; the deepest branch still wins', () => {
  const fact = { kind: 'fact', subject: 'Ana', predicate: 'age' };
  assert.equal(
    message(RecordCreate, { content: { ...fact, value: null } }),
    'content.value: must be a string, a number or a boolean, got null',
  );
  assert.equal(
    message(RecordCreate, { content: 5 }),
    'content: must be a string or an object, got an integer',
  );
  assert.equal(
    message(RecordCreate, { content: { kind: 'bogus', text: 'x' } }),
    'content.kind: must be one of "message", "document", "event", "fact", "correction"',
  );
  assert.equal(message(RecordCreate, { content: { kind: 'event' } }), 'content.title: is required');
  assert.equal(message(RecordCreate, {}), 'content: is required');
});

// The same through the import endpoint of a real server on loopback.
let server: ServerType;
let base = '';

before(async () => {
  const engine = createReferenceEngine();
  let port = 0;
  const app = createApp({
    engine,
    registry: null,
    rateLimit: 0,
    docsUrlBase: () => `http://127.0.0.1:${port}/docs`,
    loopback: { hosts: () => loopbackHosts('127.0.0.1', port) },
  });
  server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
  });
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}/v1`;
});

after(() => new Promise<void>((r) => server.close(() => r())));

test('POST /imports with an unknown format lists every format in its 400', async () => {
  const res = await fetch(`${base}/brains/imp1/imports`, {
    method: 'POST',
    headers: { authorization: 'Bearer sk_test_p_validatesecret', 'content-type': 'application/json' },
    body: JSON.stringify({ format: 'docx', files }),
  });
  assert.equal(res.status, 400);
  const body = (await res.json()) as { code: string; message: string };
  assert.equal(body.code, 'invalid_request_body');
  assert.equal(body.message, `format: must be one of ${formats}`);
});
