import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { loopbackFetch } from './loopback-fetch.ts';

interface Seen {
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  remotePort: number;
}

let answer: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end('{}');
const seen: Seen[] = [];

function listen(host: string): Promise<{ server: Server; base: string }> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      seen.push({ url: req.url ?? '', headers: req.headers, body, remotePort: req.socket.remotePort ?? 0 });
      answer(req, res);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, host, () =>
      resolve({ server, base: `http://${host}:${(server.address() as AddressInfo).port}` }),
    ),
  );
}

let loopback: { server: Server; base: string };
before(async () => {
  loopback = await listen('127.0.0.1');
});
after(() => new Promise<void>((r) => loopback.server.close(() => r())));

test('a loopback request goes over node:http, on one kept-alive socket', async () => {
  seen.length = 0;
  answer = (_req, res) => {
    res.writeHead(201, 'Made', { 'content-type': 'application/json', 'x-n': ['1', '2'] });
    res.end(JSON.stringify({ ok: true }));
  };
  for (let i = 0; i < 2; i++) {
    const res = await loopbackFetch(new URL(`${loopback.base}/v1/x?i=${i}`), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
      body: JSON.stringify({ i }),
    });
    assert.equal(res.status, 201);
    assert.equal(res.statusText, 'Made');
    assert.equal(res.ok, true);
    assert.equal(res.headers.get('x-n'), '1, 2', 'a repeated header keeps both values');
    assert.deepEqual(await res.json(), { ok: true });
  }
  assert.deepEqual(
    seen.map((s) => [s.url, s.body, s.headers.authorization]),
    [
      ['/v1/x?i=0', '{"i":0}', 'Bearer k'],
      ['/v1/x?i=1', '{"i":1}', 'Bearer k'],
    ],
  );
  // The global fetch sends Sec-Fetch-Mode; node:http does not.
  assert.equal(seen[0]!.headers['sec-fetch-mode'], undefined);
  assert.equal(seen[1]!.remotePort, seen[0]!.remotePort, 'the second request reused the socket');
});

test('a request to any other host goes to the global fetch', async () => {
  // 127.0.0.2 is this machine too, but not one of the names a Mnemo server prints.
  const other = await listen('127.0.0.2');
  try {
    seen.length = 0;
    answer = (_req, res) => res.end('{"via":"fetch"}');
    const res = await loopbackFetch(`${other.base}/v1/y`);
    assert.deepEqual(await res.json(), { via: 'fetch' });
    assert.equal(seen[0]!.headers['sec-fetch-mode'], 'cors');
    // What is no URL at all is fetch's to refuse, as a rejection.
    await assert.rejects(loopbackFetch('no url at all'), TypeError);
  } finally {
    await new Promise<void>((r) => other.server.close(() => r()));
  }
});

test('a request that follows no redirect stays on node:http and gets the 3xx as it is', async () => {
  seen.length = 0;
  answer = (req, res) =>
    req.url === '/v1/old'
      ? res.writeHead(308, { location: '/v1/new' }).end('moved')
      : res.end('{"at":"new"}');
  const res = await loopbackFetch(`${loopback.base}/v1/old`, {
    method: 'POST',
    body: '{}',
    redirect: 'manual',
  });
  assert.equal(res.status, 308);
  assert.equal(res.headers.get('location'), '/v1/new');
  assert.equal(await res.text(), 'moved');
  assert.deepEqual(
    seen.map((s) => [s.url, s.headers['sec-fetch-mode']]),
    [['/v1/old', undefined]],
  );
  // One that follows them goes to fetch, which does.
  const followed = await loopbackFetch(`${loopback.base}/v1/old`, {
    method: 'POST',
    body: '{}',
    redirect: 'follow',
  });
  assert.deepEqual(await followed.json(), { at: 'new' });
});

test('a 204 and a HEAD answer have no body', async () => {
  answer = (_req, res) => {
    res.writeHead(204);
    res.end();
  };
  const none = await loopbackFetch(`${loopback.base}/v1/none`, { method: 'DELETE' });
  assert.equal(none.status, 204);
  assert.equal(none.body, null);
  answer = (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '2' });
    res.end();
  };
  const head = await loopbackFetch(`${loopback.base}/v1/head`, { method: 'HEAD' });
  assert.equal(head.status, 200);
  assert.equal(await head.text(), '');
});

test('an event stream is read as it arrives, and an abort ends it with the signal’s reason', async () => {
  let closed!: () => void;
  const serverSawClose = new Promise<void>((r) => (closed = r));
  answer = (req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('event: stage\ndata: {"stage":"retrieve"}\n\n');
    req.socket.once('close', closed);
  };
  const ac = new AbortController();
  const res = await loopbackFetch(`${loopback.base}/v1/stream`, { signal: ac.signal });
  const reader = res.body!.getReader();
  const first = await reader.read();
  assert.match(new TextDecoder().decode(first.value), /"retrieve"/, 'the first frame before the end');
  const reason = new Error('the caller went away');
  ac.abort(reason);
  await assert.rejects(reader.read(), (e) => e === reason);
  await serverSawClose;
});

test('an abort before the answer rejects with the signal’s reason', async () => {
  answer = (_req, res) => setTimeout(() => res.end('{}'), 300);
  const ac = new AbortController();
  const pending = loopbackFetch(`${loopback.base}/v1/slow`, { signal: ac.signal });
  setTimeout(() => ac.abort(), 20);
  await assert.rejects(pending, (e: unknown) => e instanceof Error && e.name === 'AbortError');
  const aborted = AbortSignal.abort(new Error('already'));
  await assert.rejects(loopbackFetch(`${loopback.base}/v1/x`, { signal: aborted }), /already/);
});

test('a refused connection and a cut answer fail as fetch fails, with the system error as cause', async () => {
  const probe = await listen('127.0.0.1');
  await new Promise<void>((r) => probe.server.close(() => r()));
  await assert.rejects(
    loopbackFetch(`${probe.base}/v1/x`),
    (e: unknown) =>
      e instanceof TypeError && (e.cause as NodeJS.ErrnoException | undefined)?.code === 'ECONNREFUSED',
  );
  answer = (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
    res.write('{"partial":');
    setTimeout(() => res.socket?.destroy(), 10);
  };
  await assert.rejects(loopbackFetch(`${loopback.base}/v1/cut`), (e: unknown) => e instanceof TypeError);
});

test('a request after the server closed the idle socket goes out on a new one', async () => {
  const short = await listen('127.0.0.1');
  short.server.keepAliveTimeout = 50;
  try {
    seen.length = 0;
    answer = (_req, res) => res.end('{}');
    assert.equal((await loopbackFetch(`${short.base}/v1/a`)).status, 200);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal((await loopbackFetch(`${short.base}/v1/b`)).status, 200);
    assert.notEqual(seen[1]!.remotePort, seen[0]!.remotePort);
  } finally {
    await new Promise<void>((r) => short.server.close(() => r()));
  }
});
