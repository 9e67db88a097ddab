import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServer, type RunningServer } from '../start-server.ts';

/** A chunked body (no Content-Length) of `total` bytes; `pulled()` says how much the server read. */
function endlessBody(total: number) {
  let pulled = 0;
  const chunk = new Uint8Array(64 * 1024).fill(97);
  const body = new ReadableStream<Uint8Array>({
    pull(ctl) {
      if (pulled >= total) return ctl.close();
      pulled += chunk.byteLength;
      ctl.enqueue(chunk);
    },
  });
  return { body, pulled: () => pulled };
}

const mb = 2 ** 20;

describe('a body without Content-Length is refused once it passes the limit, not read whole', () => {
  let server: RunningServer;
  const dataDir = mkdtempSync(join(tmpdir(), 'mnemo-read-limited-'));
  before(async () => {
    server = await startServer({ engine: 'local', port: 0, dataDir, dbKey: 'a'.repeat(64), ui: true });
  });
  after(async () => {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const post = (url: string, body: ReadableStream<Uint8Array>, headers: Record<string, string> = {}) =>
    fetch(url, {
      method: 'POST',
      body,
      duplex: 'half',
      headers: { 'Content-Type': 'application/json', ...headers },
    } as RequestInit);

  it('/v1 (4 MiB): 400 invalid_request_body, after reading a few MB of 200', async () => {
    const key = (await server.registry!.create({ env: 'test', project: 'p' })).key;
    const upload = endlessBody(200 * mb);
    const res = await post(`${server.url}/brains/b/records`, upload.body, { Authorization: `Bearer ${key}` });
    assert.equal(res.status, 400);
    const err = (await res.json()) as { code: string; message: string };
    assert.equal(err.code, 'invalid_request_body');
    assert.equal(err.message, `body: must be at most ${4 * mb} bytes`);
    assert.ok(upload.pulled() < 64 * mb, `read ${upload.pulled() / mb} MB`);
  });

  it('a chunked body within the limit is read whole', async () => {
    const key = (await server.registry!.create({ env: 'test', project: 'p' })).key;
    const json = new TextEncoder().encode(JSON.stringify({ id: 'chunked', name: 'x'.repeat(100) }));
    const body = new ReadableStream<Uint8Array>({
      start(ctl) {
        for (let i = 0; i < json.length; i += 7) ctl.enqueue(json.slice(i, i + 7));
        ctl.close();
      },
    });
    const res = await post(`${server.url}/brains`, body, { Authorization: `Bearer ${key}` });
    assert.equal(res.status, 201, await res.text());
  });

  it('/ui/session, which needs no key, reads no more than a token needs', async () => {
    const upload = endlessBody(200 * mb);
    const res = await post(`${server.origin}/ui/session`, upload.body);
    assert.equal(res.status, 400);
    assert.equal(((await res.json()) as { code: string }).code, 'invalid_request_body');
    assert.ok(upload.pulled() < 64 * mb, `read ${upload.pulled() / mb} MB`);
  });
});
