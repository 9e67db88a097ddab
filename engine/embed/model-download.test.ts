import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { downloadVerified, ensureModel, type Progress } from './model-download.ts';

const body = Buffer.from(Array.from({ length: 50_000 }, (_, i) => (i * 31) % 251));
const sha = createHash('sha256').update(body).digest('hex');

describe('model download (local HTTP server)', () => {
  let server: Server;
  let base: string;
  let dir: string;
  let requests: Array<{ url: string; range: string | undefined }>;
  let honourRange = true;

  before(async () => {
    server = createServer((req, res) => {
      requests.push({ url: req.url!, range: req.headers.range });
      if (req.url === '/missing') return void res.writeHead(404).end();
      const m = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
      if (m && honourRange) {
        const start = Number(m[1]);
        if (start >= body.length) return void res.writeHead(416).end();
        res.writeHead(206, {
          'content-length': body.length - start,
          'content-range': `bytes ${start}-${body.length - 1}/${body.length}`,
        });
        return void res.end(body.subarray(start));
      }
      res.writeHead(200, { 'content-length': body.length });
      res.end(body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));
  beforeEach(() => {
    requests = [];
    honourRange = true;
    dir = mkdtempSync(join(tmpdir(), 'mnemo-dl-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('downloads, verifies and reports progress up to the total', async () => {
    const seen: Progress[] = [];
    const dest = join(dir, 'm', 'model.onnx');
    await downloadVerified({ path: 'model.onnx', url: `${base}/model`, sha256: sha }, dest, {
      onProgress: (p) => seen.push(p),
    });
    assert.deepEqual(readFileSync(dest), body);
    assert.equal(existsSync(`${dest}.part`), false);
    assert.equal(seen.at(-1)!.received, body.length);
    assert.equal(seen.at(-1)!.total, body.length);
  });

  it('resumes a partial file with a Range request and still verifies the whole', async () => {
    const dest = join(dir, 'model.onnx');
    writeFileSync(`${dest}.part`, body.subarray(0, 20_000));
    await downloadVerified({ path: 'model.onnx', url: `${base}/model`, sha256: sha }, dest);
    assert.deepEqual(
      requests.map((r) => r.range),
      ['bytes=20000-'],
    );
    assert.deepEqual(readFileSync(dest), body);
  });

  it('starts over when the server ignores the Range header', async () => {
    honourRange = false;
    const dest = join(dir, 'model.onnx');
    writeFileSync(`${dest}.part`, body.subarray(0, 20_000));
    await downloadVerified({ path: 'model.onnx', url: `${base}/model`, sha256: sha }, dest);
    assert.deepEqual(readFileSync(dest), body);
  });

  it('finishes a part that was already complete (416) after checking it', async () => {
    const dest = join(dir, 'model.onnx');
    writeFileSync(`${dest}.part`, body);
    await downloadVerified({ path: 'model.onnx', url: `${base}/model`, sha256: sha }, dest);
    assert.deepEqual(readFileSync(dest), body);
  });

  it('refuses bytes whose SHA-256 differs, and removes them so the next try starts clean', async () => {
    const dest = join(dir, 'model.onnx');
    const wrong = 'f'.repeat(64);
    await assert.rejects(
      downloadVerified({ path: 'model.onnx', url: `${base}/model`, sha256: wrong }, dest),
      /SHA-256 mismatch/,
    );
    assert.equal(existsSync(dest), false);
    assert.equal(existsSync(`${dest}.part`), false);
  });

  it('resumes from a corrupted part, detects it, and recovers on the next attempt', async () => {
    const dest = join(dir, 'model.onnx');
    writeFileSync(`${dest}.part`, Buffer.alloc(10_000, 7));
    await assert.rejects(
      downloadVerified({ path: 'model.onnx', url: `${base}/model`, sha256: sha }, dest),
      /SHA-256 mismatch/,
    );
    await downloadVerified({ path: 'model.onnx', url: `${base}/model`, sha256: sha }, dest);
    assert.deepEqual(readFileSync(dest), body);
  });

  it('makes no request for a file already present and verified', async () => {
    const m = { id: 'tiny', files: [{ path: 'model.onnx', url: `${base}/model`, sha256: sha }] };
    const modelDir = await ensureModel(m, dir);
    assert.equal(requests.length, 1);
    assert.equal(await ensureModel(m, dir), modelDir);
    assert.equal(requests.length, 1);
  });

  it('fails with the HTTP status', async () => {
    await assert.rejects(
      downloadVerified({ path: 'x', url: `${base}/missing`, sha256: sha }, join(dir, 'x')),
      /HTTP 404/,
    );
  });
});
