import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createMnemoClient, MnemoApiError } from './index.ts';
import { limitedFetch, type FetchLimits } from './limited-fetch.ts';
import { createLoopbackFetch } from './loopback-fetch.ts';

let answer: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end('{}');
let requests = 0;
/** Bytes the server managed to hand to its socket for the last answer written with `flood`. */
let flooded = 0;

function listen(host: string): Promise<{ server: Server; base: string }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests += 1;
      answer(req, res);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, host, () =>
      resolve({ server, base: `http://${host}:${(server.address() as AddressInfo).port}` }),
    ),
  );
}

/** Writes 1 MiB chunks for as long as the client reads them. */
function flood(res: ServerResponse, headers: Record<string, string> = {}) {
  flooded = 0;
  res.writeHead(200, { 'content-type': 'application/json', ...headers });
  const chunk = Buffer.alloc(1024 * 1024, 0x20);
  const more = () => {
    while (!res.destroyed && flooded < 400 * 1024 * 1024) {
      flooded += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', more);
    }
    res.end();
  };
  more();
}

const limits: FetchLimits = {
  idleMs: 300,
  sendBytesPerSecond: 1024 * 1024,
  totalMs: 5_000,
  maxResponseBytes: 1024 * 1024,
};
const bounded = limitedFetch(createLoopbackFetch({ maxResponseBytes: limits.maxResponseBytes }), limits);
// The size limit's cases wait for the first bytes as long as a loaded machine may take to send them:
// they are about the size, and the idle limit has cases of its own.
const sizeBounded = limitedFetch(createLoopbackFetch({ maxResponseBytes: limits.maxResponseBytes }), {
  ...limits,
  idleMs: 5_000,
});

const limitOf = async (p: Promise<unknown>): Promise<string> => {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof MnemoApiError, `not a MnemoApiError: ${String(e)}`);
    return `${e.code}: ${e.message}`;
  }
  assert.fail('resolved');
};

let servers: { server: Server; base: string }[] = [];
before(async () => {
  // 127.0.0.1 goes over node:http; 127.0.0.2 (this machine too) over the global fetch.
  servers = await Promise.all([listen('127.0.0.1'), listen('127.0.0.2')]);
});
after(async () => {
  for (const { server } of servers) {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
});

for (const [path, index] of [
  ['node:http', 0],
  ['the global fetch', 1],
] as const) {
  describe(`a bounded request over ${path}`, () => {
    const base = () => servers[index]!.base;

    it('is cut when the server accepts it and never answers', async () => {
      answer = () => {};
      const started = Date.now();
      const failure = await limitOf(bounded(`${base()}/v1/brains/ana`));
      assert.match(failure, /^remote_timeout: GET \/v1\/brains\/ana: no answer for 0\.3 s/);
      assert.ok(Date.now() - started < 3_000, `${Date.now() - started} ms`);
    });

    it('is cut when the answer stops in the middle of its body', async () => {
      answer = (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"data":[');
      };
      const failure = await limitOf(bounded(`${base()}/v1/x`).then((res) => res.text()));
      assert.match(failure, /^remote_timeout: GET \/v1\/x: no answer for 0\.3 s/);
    });

    it('is cut when its answer takes longer in all than the limit, however steadily it comes', async () => {
      answer = (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        const drip = setInterval(() => (res.destroyed ? clearInterval(drip) : res.write(' ')), 100);
      };
      const dripping = limitedFetch(createLoopbackFetch({ maxResponseBytes: 1024 }), {
        ...limits,
        idleMs: 5_000,
        totalMs: 800,
      });
      const failure = await limitOf(dripping(`${base()}/v1/x`).then((res) => res.text()));
      assert.match(failure, /^remote_timeout: GET \/v1\/x: not done within 0\.8 s/);
    });

    it('stops reading an answer larger than the limit, and closes the connection', async () => {
      answer = (_req, res) => flood(res);
      const failure = await limitOf(sizeBounded(`${base()}/v1/feed`).then((res) => res.text()));
      assert.match(failure, /^response_too_large: GET \/v1\/feed: the answer is larger than 1 MiB/);
      // The server could hand its socket what the socket buffers held, not the 400 MiB it had.
      await new Promise((r) => setTimeout(r, 100));
      assert.ok(flooded < 64 * 1024 * 1024, `${flooded} bytes written`);
    });

    it('refuses an answer whose declared length is over the limit before reading it', async () => {
      answer = (_req, res) => flood(res, { 'content-length': String(400 * 1024 * 1024) });
      const failure = await limitOf(sizeBounded(`${base()}/v1/feed`).then((res) => res.text()));
      assert.match(failure, /^response_too_large: /);
    });

    it('waits longer for the answer to a larger request, which takes longer to send', async () => {
      answer = (_req, res) => setTimeout(() => res.end('{"ok":true}'), 600);
      const slowUplink = limitedFetch(createLoopbackFetch({ maxResponseBytes: 1024 }), {
        ...limits,
        sendBytesPerSecond: 1000,
      });
      const res = await slowUplink(`${base()}/v1/x`, { method: 'POST', body: 'x'.repeat(1000) });
      assert.deepEqual(await res.json(), { ok: true });
    });

    it('answers as fetch does within the limits, and still ends on its caller’s signal', async () => {
      answer = (_req, res) => res.writeHead(201, { 'content-type': 'application/json' }).end('{"ok":1}');
      const res = await bounded(`${base()}/v1/x`, { method: 'POST', body: '{}' });
      assert.equal(res.status, 201);
      assert.deepEqual(await res.json(), { ok: 1 });

      answer = () => {};
      const mine = new AbortController();
      const reason = new Error('the caller went away');
      setTimeout(() => mine.abort(reason), 50);
      await assert.rejects(bounded(`${base()}/v1/x`, { signal: mine.signal }), (e) => e === reason);
    });

    it('follows no redirect: a 3xx is refused naming where it points, and nothing is sent there', async () => {
      const elsewhere = `${servers[1 - index]!.base}/v1/brains/ana/sync/records`;
      answer = (_req, res) => res.writeHead(307, { location: elsewhere }).end();
      const before = requests;
      const client = createMnemoClient({
        baseUrl: `${base()}/v1`,
        apiKey: 'k',
        fetch: bounded,
        retry: { maxInternalRetries: 1, baseDelayMs: 10 },
      });
      const e = await client.replicateRecords('ana', []).then(
        () => assert.fail('resolved'),
        (err: unknown) => err,
      );
      assert.ok(e instanceof MnemoApiError, String(e));
      assert.deepEqual([e.status, e.code, e.body.location], [0, 'remote_redirected', elsewhere]);
      assert.equal(
        e.message,
        `POST /v1/brains/ana/sync/records: the remote answered 307 and points to ${elsewhere}; ` +
          'requests to a sync remote follow no redirect',
      );
      assert.equal(requests - before, 1, 'one request, to the remote only, not retried');

      // A relative Location is named in full, without a user name or password it may carry.
      answer = (_req, res) => res.writeHead(301, { location: '//bob:hunter2@other.example/v1/x' }).end();
      const moved = await limitOf(bounded(`${base()}/v1/x`));
      assert.equal(
        moved,
        'remote_redirected: GET /v1/x: the remote answered 301 and points to http://other.example/v1/x; ' +
          'requests to a sync remote follow no redirect',
      );
    });

    it('reaches the client’s caller as it is, not retried', async () => {
      answer = () => {};
      const client = createMnemoClient({
        baseUrl: `${base()}/v1`,
        apiKey: 'k',
        fetch: bounded,
        retry: { maxInternalRetries: 1, baseDelayMs: 10 },
      });
      const before = requests;
      await assert.rejects(
        client.getBrain('ana'),
        (e) => e instanceof MnemoApiError && e.code === 'remote_timeout' && e.status === 0,
      );
      assert.equal(requests - before, 1);
    });
  });
}
