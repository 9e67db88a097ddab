import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, test } from 'node:test';
import { MnemoApiError, createMnemoClient, isOutcomeUnknown, isProxyAnswer } from './index.ts';
import { loopbackFetch } from './loopback-fetch.ts';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

type Handler = (req: Seen, res: ServerResponse) => void;

// A tiny real HTTP server whose next answers each test scripts.
let handlers: Handler[] = [];
let seen: Seen[] = [];
let baseUrl = '';
const server = createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString('utf8')));
  req.on('end', () => {
    const s: Seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
    seen.push(s);
    const h = handlers.shift();
    if (h) h(s, res);
    else
      sendJson(res, 500, {
        type: 'internal',
        code: 'internal_error',
        message: 'no handler',
        request_id: 'req_x',
      });
  });
});

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}
const err = (code: string, type: string, extra: Record<string, unknown> = {}) => ({
  type,
  code,
  message: `${code} happened`,
  request_id: 'req_1',
  docs_url: `http://docs/errors/${code}`,
  ...extra,
});

before(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/`;
});
after(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  handlers = [];
  seen = [];
});

// Every case runs over Node's global fetch and over loopbackFetch, which Node's own commands use.
const transports: [string, { fetch?: typeof fetch }][] = [
  ['the global fetch', {}],
  ['loopbackFetch', { fetch: loopbackFetch }],
];
for (const [transportName, transport] of transports) {
  const delays: number[] = [];
  const client = () =>
    createMnemoClient({
      ...transport,
      baseUrl,
      apiKey: 'sk_test_proj_secret',
      retry: {
        sleep: async (ms) => {
          delays.push(ms);
        },
      },
    });

  describe(`typed client over ${transportName}`, () => {
    test('rememberRecord sends the key and an Idempotency-Key, returns the watermark', async () => {
      handlers.push((_req, res) =>
        sendJson(res, 202, { id: 'rec_1', object: 'record' }, { 'brain-watermark': 'wm_9' }),
      );
      const out = await client().rememberRecord('b 1', { content: 'hello' });
      assert.equal(out.record.id, 'rec_1');
      assert.equal(out.watermark, 'wm_9');
      assert.equal(out.replayed, null, 'a server that does not send Idempotent-Replayed');
      const req = seen[0]!;
      assert.equal(req.method, 'POST');
      assert.equal(req.url, '/v1/brains/b%201/records');
      assert.equal(req.headers.authorization, 'Bearer sk_test_proj_secret');
      assert.match(String(req.headers['idempotency-key']), /^idem_/);
      assert.deepEqual(JSON.parse(req.body), { content: 'hello' });
    });

    test('replayed is the server’s Idempotent-Replayed when no attempt of the call failed', async () => {
      handlers.push((_r, res) => sendJson(res, 202, { id: 'rec_3' }, { 'idempotent-replayed': 'true' }));
      handlers.push((_r, res) => sendJson(res, 202, { id: 'rec_4' }, { 'idempotent-replayed': 'false' }));
      const c = client();
      assert.equal((await c.rememberRecord('b', { content: 'x' }, { idempotencyKey: 'k-3' })).replayed, true);
      assert.equal((await c.rememberRecord('b', { content: 'y' })).replayed, false);
    });

    test('one retry on internal resends the same Idempotency-Key', async () => {
      handlers.push((_r, res) => sendJson(res, 500, err('internal_error', 'internal')));
      handlers.push((_r, res) =>
        sendJson(res, 202, { id: 'rec_2' }, { 'brain-watermark': 'wm_1', 'idempotent-replayed': 'true' }),
      );
      const out = await client().rememberRecord('b', { content: 'x' }, { idempotencyKey: 'k-1' });
      assert.equal(out.record.id, 'rec_2');
      assert.equal(out.replayed, null, 'the failed attempt may have written what the retry replays');
      assert.equal(seen.length, 2);
      assert.equal(seen[0]!.headers['idempotency-key'], 'k-1');
      assert.equal(seen[1]!.headers['idempotency-key'], 'k-1');
    });

    test('a generated Idempotency-Key is reused on the retry too', async () => {
      handlers.push((_r, res) => sendJson(res, 500, err('internal_error', 'internal')));
      handlers.push((_r, res) => sendJson(res, 202, { id: 'rec_3' }));
      await client().rememberRecord('b', { content: 'x' });
      assert.equal(seen[0]!.headers['idempotency-key'], seen[1]!.headers['idempotency-key']);
    });

    test('internal is retried only once', async () => {
      handlers.push((_r, res) => sendJson(res, 500, err('internal_error', 'internal')));
      handlers.push((_r, res) => sendJson(res, 500, err('internal_error', 'internal')));
      await assert.rejects(
        client().getBrain('b'),
        (e: unknown) => e instanceof MnemoApiError && e.code === 'internal_error',
      );
      assert.equal(seen.length, 2);
    });

    test('not_implemented and memory_without_lineage are never retried', async () => {
      for (const code of ['not_implemented', 'memory_without_lineage']) {
        seen = [];
        handlers.push((_r, res) =>
          sendJson(res, code === 'not_implemented' ? 501 : 500, err(code, 'internal')),
        );
        await assert.rejects(
          client().getMemory('b', 'mem_1'),
          (e: unknown) => e instanceof MnemoApiError && e.code === code,
        );
        assert.equal(seen.length, 1, code);
      }
    });

    test('rate_limit backs off exponentially, never shorter than retry_after_seconds', async () => {
      delays.length = 0;
      handlers.push((_r, res) =>
        sendJson(res, 429, err('too_many_requests', 'rate_limit', { retry_after_seconds: 2 })),
      );
      handlers.push((_r, res) => sendJson(res, 429, err('too_many_requests', 'rate_limit')));
      handlers.push((_r, res) => sendJson(res, 429, err('too_many_requests', 'rate_limit')));
      handlers.push((_r, res) => sendJson(res, 200, { data: [], has_more: false, next_cursor: null }));
      const page = await client().listBrains();
      assert.deepEqual(page.data, []);
      assert.deepEqual(delays, [2000, 500, 1000]);
    });

    test('errors carry status, type, code, request id, body and retry-after', async () => {
      handlers.push((_r, res) =>
        sendJson(res, 409, err('stale_version', 'conflict', { current_version: 3 })),
      );
      const e = await client()
        .acceptObject('b', { type: 't', key: 'k', value: 1, if_version: 1 })
        .catch((x: unknown) => x);
      assert.ok(e instanceof MnemoApiError);
      assert.equal(e.status, 409);
      assert.equal(e.type, 'conflict');
      assert.equal(e.code, 'stale_version');
      assert.equal(e.requestId, 'req_1');
      assert.equal(e.body.current_version, 3);
      assert.equal(e.message, 'stale_version happened');
      assert.equal(seen.length, 1, 'conflict is not retried automatically');
    });

    test('a non-JSON error body still becomes a typed error, said to come from a proxy', async () => {
      const badGateway: Handler = (_r, res) => {
        res.writeHead(502, { 'content-type': 'text/html' });
        res.end('<h1>bad gateway</h1>');
      };
      handlers.push(badGateway, badGateway);
      const e = await client()
        .getCensus('b', {})
        .catch((x: unknown) => x);
      assert.ok(e instanceof MnemoApiError);
      assert.equal(e.status, 502);
      assert.equal(e.type, 'internal');
      assert.equal(e.code, 'http_502');
      assert.ok(isProxyAnswer(e));
      assert.equal(
        e.message,
        'The server could not be reached through its proxy (HTTP 502 Bad Gateway): the answer came from ' +
          'something other than Mnemo (a proxy in front of it, or another server at this address), not ' +
          'from Mnemo itself.',
      );
      assert.equal(seen.length, 2, 'a 5xx counts as internal: retried once');
    });

    test("any error answer without Mnemo's shape is a proxy's, a 4xx too; Mnemo's own is not", async () => {
      handlers.push((_r, res) => {
        res.writeHead(413, { 'content-type': 'text/html' });
        res.end('<h1>413 Request Entity Too Large</h1>');
      });
      const e = await client()
        .getCensus('b', {})
        .catch((x: unknown) => x);
      assert.ok(e instanceof MnemoApiError && isProxyAnswer(e));
      assert.equal(e.code, 'http_413');
      assert.match(
        e.message,
        /^A proxy in front of the server refused the request \(HTTP 413 Payload Too Large\)/,
      );
      handlers.push((_r, res) => sendJson(res, 404, err('brain_not_found', 'not_found')));
      const own = await client()
        .getCensus('b', {})
        .catch((x: unknown) => x);
      assert.ok(own instanceof MnemoApiError && !isProxyAnswer(own));
      assert.equal(own.message, 'brain_not_found happened');
    });

    test('query parameters and Brain-Watermark; 202 Context is reported as such', async () => {
      handlers.push((_r, res) => sendJson(res, 200, { data: [], has_more: false, next_cursor: null }));
      await client().listMemories('b', { subject: 'record', limit: 5, cursor: undefined });
      assert.equal(seen[0]!.url, '/v1/brains/b/memories?subject=record&limit=5');
      handlers.push((_r, res) => sendJson(res, 202, { id: 'ctx_1', status: 'processing' }));
      const out = await client().createContext('b', { query: 'q' }, { watermark: 'wm_5' });
      assert.equal(out.status, 202);
      assert.equal(out.context.status, 'processing');
      assert.equal(seen[1]!.headers['brain-watermark'], 'wm_5');
    });

    test('streamContext yields stage frames then the context frame', async () => {
      handlers.push((req, res) => {
        assert.equal(req.headers.accept, 'text/event-stream');
        assert.equal(JSON.parse(req.body).mode, 'thorough');
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(': keep-alive\r\n\r\nevent: stage\r\ndata: {"stage":"retrieve"}\r\n\r\n');
        res.write('event: stage\ndata: {"stage":');
        setTimeout(() => res.end('"fuse"}\n\nevent: context\ndata: {"id":"ctx_2"}\n\n'), 10);
      });
      const frames = [];
      for await (const f of client().streamContext('b', { query: 'q' })) frames.push(f);
      assert.deepEqual(frames, [
        { event: 'stage', data: { stage: 'retrieve' } },
        { event: 'stage', data: { stage: 'fuse' } },
        { event: 'context', data: { id: 'ctx_2' } },
      ]);
    });

    test('an error frame in the stream throws a typed error', async () => {
      handlers.push((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(
          'event: stage\ndata: {"stage":"retrieve"}\n\nevent: error\ndata: ' +
            JSON.stringify(err('brain_not_found', 'not_found')) +
            '\n\n',
        );
      });
      const frames: unknown[] = [];
      await assert.rejects(
        (async () => {
          for await (const f of client().streamContext('b', { query: 'q' })) frames.push(f);
        })(),
        (e: unknown) => e instanceof MnemoApiError && e.code === 'brain_not_found' && e.status === 404,
      );
      assert.equal(frames.length, 1);
    });

    test('a stream the server stops mid-way is a network_error, not a TypeError or a silent end', async () => {
      // The server crashed (its socket reset) or ended the stream before the frame that answers it:
      // fetch rejected with its own TypeError ("terminated"), node:http with "aborted", and a Context
      // stream that just ended gave its caller no Context and no error.
      const stages = 'event: stage\ndata: {"stage":"retrieve"}\n\n';
      const cutOff = (res: ServerResponse) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(stages, () => setTimeout(() => res.socket?.destroy(), 20));
      };
      const frames: unknown[] = [];
      const drain = async (it: AsyncGenerator<unknown>) => {
        for await (const f of it) frames.push(f);
      };
      handlers.push((_r, res) => cutOff(res));
      await assert.rejects(
        drain(client().streamContext('b', { query: 'q' })),
        (e: unknown) =>
          e instanceof MnemoApiError &&
          e.code === 'network_error' &&
          /^the Context stream from \S+ broke off \(.+\); ask again$/.test(e.message),
      );
      assert.equal(frames.length, 1, 'the frames before the cut were yielded');
      handlers.push((_r, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(stages);
      });
      await assert.rejects(
        drain(client().streamContext('b', { query: 'q' })),
        (e: unknown) =>
          e instanceof MnemoApiError &&
          e.code === 'network_error' &&
          /ended without the context frame/.test(e.message),
      );
      handlers.push((_r, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('event: progress\ndata: {"object":"import_progress"}\n\n', () =>
          setTimeout(() => res.socket?.destroy(), 20),
        );
      });
      await assert.rejects(
        client().importFilesWithProgress('b', { files: [{ name: 'a.md', content_base64: 'eA==' }] }),
        (e: unknown) =>
          e instanceof MnemoApiError &&
          e.code === 'network_error' &&
          /^the import stream from \S+ broke off \(.+\); what was written stays: import the same files again to finish it$/.test(
            e.message,
          ),
      );
    });

    test('streamContext throws the typed error of a refused stream', async () => {
      handlers.push((_r, res) => sendJson(res, 406, err('streaming_not_applicable', 'invalid_request')));
      const it = client().streamContext('b', { query: 'q' });
      await assert.rejects(it.next(), (e: unknown) => e instanceof MnemoApiError && e.status === 406);
    });

    test('an aborted signal rejects without retrying', async () => {
      const ac = new AbortController();
      // Aborted once the server has the request: a timer could fire before it arrives on a busy machine.
      handlers.push((_r, res) => {
        ac.abort();
        setTimeout(() => sendJson(res, 200, {}), 500);
      });
      const p = client().getBrain('b', { signal: ac.signal });
      await assert.rejects(p, (e: unknown) => !(e instanceof MnemoApiError));
      assert.equal(seen.length, 1);
    });

    test('an unreachable server is a network_error after one retry', async () => {
      const c = createMnemoClient({
        ...transport,
        baseUrl: 'http://127.0.0.1:1/v1',
        apiKey: 'k',
        retry: { sleep: async () => {} },
      });
      await assert.rejects(
        c.listKeys(),
        (e: unknown) => e instanceof MnemoApiError && e.code === 'network_error' && e.status === 0,
      );
    });

    test('retry: false turns retries off', async () => {
      handlers.push((_r, res) => sendJson(res, 500, err('internal_error', 'internal')));
      const c = createMnemoClient({
        ...transport,
        baseUrl,
        apiKey: 'k',
        retry: false,
      });
      await assert.rejects(c.getTrace('b', 'ctx_1'));
      assert.equal(seen.length, 1);
    });
  });

  describe(`a server that takes the call and never answers, over ${transportName}`, () => {
    // Held until the test ends: the server took the request and says nothing.
    let held: ServerResponse[] = [];
    const silent: Handler = (_r, res) => held.push(res);
    beforeEach(() => (held = []));
    const release = () => held.forEach((res) => res.socket?.destroy());
    const client = (o: { timeoutMs?: number | false } = {}) =>
      createMnemoClient({
        ...transport,
        baseUrl,
        apiKey: 'k',
        retry: { sleep: async () => {} },
        ...o,
      });
    const isTimeout = (ms: number, message: RegExp) => (e: unknown) =>
      e instanceof MnemoApiError &&
      e.status === 0 &&
      e.type === 'internal' &&
      e.code === 'network_error' &&
      e.body.reached_server === null &&
      e.body.timeout_ms === ms &&
      message.test(e.message);

    test(
      'a write times out as network_error whose outcome is unknown, and names the key it sent',
      { timeout: 20_000 },
      async () => {
        handlers.push(silent, silent);
        try {
          const e = await client({ timeoutMs: 100 })
            .rememberRecord('b', { content: 'x' })
            .catch((x: unknown) => x);
          assert.ok(
            isTimeout(
              100,
              /^no answer in 0\.1 s from \S+: Mnemo took the connection but did not answer .*; whether the call was applied is unknown$/,
            )(e),
            String(e),
          );
          assert.ok(e instanceof MnemoApiError && isOutcomeUnknown(e));
          assert.equal(seen.length, 2, 'retried once, as a dropped connection is');
          const sent = seen.map((s) => s.headers['idempotency-key']);
          assert.match(String(sent[0]), /^idem_/);
          assert.equal(sent[1], sent[0], 'the retry resent the generated key');
          assert.equal(e.idempotencyKey, sent[0], 'the error names the key to replay the write with');
        } finally {
          release();
        }
      },
    );

    test('a read times out too, without a word of anything applied', { timeout: 20_000 }, async () => {
      handlers.push(silent, silent);
      try {
        await assert.rejects(
          client({ timeoutMs: 100 }).getBrain('b'),
          isTimeout(100, /did not answer \(stopped, suspended or overloaded\)$/),
        );
      } finally {
        release();
      }
    });

    test(
      "a call's own timeoutMs overrides the client's, and false waits for the answer",
      { timeout: 20_000 },
      async () => {
        handlers.push(silent, silent);
        try {
          await assert.rejects(
            client({ timeoutMs: false }).listBrains({ timeoutMs: 100 }),
            isTimeout(100, /no answer in 0\.1 s/),
          );
        } finally {
          release();
        }
        // Answered well after the client's own timeout would have cut the call.
        handlers.push((_r, res) =>
          setTimeout(() => sendJson(res, 200, { data: [], has_more: false, next_cursor: null }), 300),
        );
        const page = await client({ timeoutMs: 50 }).listBrains({ timeoutMs: false });
        assert.deepEqual(page.data, []);
      },
    );

    test(
      'a stream counts silence, not its whole length: a reader slow between frames is not cut',
      { timeout: 20_000 },
      async () => {
        handlers.push((_r, res) => {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.end(
            'event: stage\ndata: {"stage":"retrieve"}\n\nevent: stage\ndata: {"stage":"fuse"}\n\n' +
              'event: context\ndata: {"id":"ctx_1"}\n\n',
          );
        });
        const frames: unknown[] = [];
        for await (const f of client({ timeoutMs: 100 }).streamContext('b', { query: 'q' })) {
          frames.push(f);
          await new Promise((r) => setTimeout(r, 250));
        }
        assert.equal(frames.length, 3);
      },
    );

    test('a stream that falls silent is cut and said to have broken off', { timeout: 20_000 }, async () => {
      const onceThenSilent =
        (frame: string): Handler =>
        (_r, res) => {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.write(frame);
          held.push(res);
        };
      handlers.push(onceThenSilent('event: stage\ndata: {"stage":"retrieve"}\n\n'));
      // Timeouts long enough that a loaded machine's late first frame is not the silence measured.
      const frames: unknown[] = [];
      try {
        await assert.rejects(
          (async () => {
            for await (const f of client({ timeoutMs: 600 }).streamContext('b', { query: 'q' }))
              frames.push(f);
          })(),
          isTimeout(600, /^the Context stream from \S+ broke off \(nothing came for 0\.6 s\); ask again$/),
        );
        assert.equal(frames.length, 1);
        handlers.push(onceThenSilent('event: progress\ndata: {"object":"import_progress"}\n\n'));
        await assert.rejects(
          client().importFilesWithProgress(
            'b',
            { files: [{ name: 'a.md', content_base64: 'eA==' }] },
            { timeoutMs: 600 },
          ),
          isTimeout(
            600,
            /^the import stream from \S+ broke off \(nothing came for 0\.6 s\); what was written stays/,
          ),
        );
        // A stream whose answer never starts is cut as any call is.
        handlers.push(silent, silent);
        await assert.rejects(
          client({ timeoutMs: 400 }).streamContext('b', { query: 'q' }).next(),
          isTimeout(400, /^no answer in 0\.4 s .*overloaded\)$/),
        );
      } finally {
        release();
      }
    });

    test('a timeout that is not a positive number of ms is refused before anything is sent', () => {
      for (const timeoutMs of [0, -1, Number.NaN])
        assert.throws(
          () => createMnemoClient({ baseUrl, apiKey: 'k', timeoutMs }),
          (e: unknown) =>
            e instanceof MnemoApiError &&
            e.code === 'invalid_request_body' &&
            /^createMnemoClient: timeoutMs: \S+ is not a timeout/.test(e.message),
        );
      return assert
        .rejects(
          client().getBrain('b', { timeoutMs: 0 }),
          (e: unknown) => e instanceof MnemoApiError && e.body.reached_server === false,
        )
        .then(() => assert.equal(seen.length, 0));
    });
  });

  describe(`a failed write names the key to replay it with, over ${transportName}`, () => {
    const client = () =>
      createMnemoClient({ ...transport, baseUrl, apiKey: 'k', retry: { sleep: async () => {} } });

    test('a write dropped after it was sent, its retry answered store_unavailable, is unknown, with its key', async () => {
      // The store's refusal of the retry says nothing of the first attempt, which the server may have applied.
      handlers.push((_r, res) => res.socket?.destroy());
      handlers.push((_r, res) => sendJson(res, 503, err('store_unavailable', 'internal')));
      const e = await client()
        .rememberRecord('b', { content: 'x' })
        .catch((x: unknown) => x);
      assert.ok(e instanceof MnemoApiError && e.code === 'store_unavailable', String(e));
      assert.equal(e.body.reached_server, null);
      assert.ok(isOutcomeUnknown(e));
      assert.match(
        e.message,
        /an earlier attempt of this call was sent and failed .*whether the call was applied is unknown/,
      );
      assert.equal(e.idempotencyKey, seen[0]!.headers['idempotency-key']);
    });

    test('every failed write carries its key; a refusal before any write is not unknown', async () => {
      handlers.push((_r, res) => sendJson(res, 409, err('stale_version', 'conflict')));
      const e = await client()
        .acceptObject('b', { type: 't', key: 'k', value: 1, if_version: 1 }, { idempotencyKey: 'k-obj' })
        .catch((x: unknown) => x);
      assert.ok(e instanceof MnemoApiError);
      assert.equal(e.idempotencyKey, 'k-obj');
      assert.equal(isOutcomeUnknown(e), false);
      handlers.push((_r, res) => sendJson(res, 404, err('brain_not_found', 'not_found')));
      const read = await client()
        .getBrain('b')
        .catch((x: unknown) => x);
      assert.ok(read instanceof MnemoApiError && read.idempotencyKey === null);
    });
  });

  describe(`answers a caller could misread, over ${transportName}`, () => {
    const client = () =>
      createMnemoClient({
        ...transport,
        baseUrl,
        apiKey: 'k',
        retry: { sleep: async () => {} },
      });

    test('a success body that is not JSON is a MnemoApiError, not a SyntaxError, and is not retried', async () => {
      handlers.push((_r, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html>captive portal</html>');
      });
      await assert.rejects(
        client().getBrain('b'),
        (e: unknown) =>
          e instanceof MnemoApiError &&
          e.code === 'internal_error' &&
          e.status === 200 &&
          /not JSON/.test(e.message),
      );
      assert.equal(seen.length, 1);
    });

    test('a forget whose answer was lost and whose retry finds it gone says so, not that it never existed', async () => {
      // The first attempt is applied and its connection dropped before the answer; the retry finds it gone.
      handlers.push((_r, res) => res.socket?.destroy());
      handlers.push((_r, res) => sendJson(res, 404, err('record_not_found', 'not_found')));
      await assert.rejects(
        client().forgetRecord('b', 'rec_1'),
        (e: unknown) =>
          e instanceof MnemoApiError &&
          e.code === 'network_error' &&
          /retried, the server answered record_not_found: the first attempt most likely forgot it/.test(
            e.message,
          ),
      );
      assert.deepEqual(
        seen.map((s) => s.method),
        ['DELETE', 'DELETE'],
      );
      // Asked once, a Record that is not there is still record_not_found.
      handlers.push((_r, res) => sendJson(res, 404, err('record_not_found', 'not_found')));
      await assert.rejects(
        client().forgetRecord('b', 'rec_2'),
        (e: unknown) => e instanceof MnemoApiError && e.code === 'record_not_found',
      );
    });

    test('an id or name "." or ".." or empty is never sent: the URL would name another resource', async () => {
      // A source may be named ".." (listSources lists it); fetch resolved /brains/b/sources/.. to
      // /brains/b, so forgetSource('b', '..') forgot the whole Brain.
      for (const call of [
        () => client().forgetSource('b', '..'),
        () => client().forgetSource('b', '.'),
        () => client().forgetRecord('b', '..'),
        () => client().getRecord('b', '..'),
        () => client().forgetBrain('..'),
        () => client().forgetSourceChat('b', 'whatsapp', ''),
        () => client().forgetSource('b', ''),
        () => client().forgetBrain(''),
      ])
        await assert.rejects(
          call(),
          (e: unknown) =>
            e instanceof MnemoApiError &&
            e.code === 'invalid_request_body' &&
            e.type === 'invalid_request' &&
            /"\." or "\.\." or empty cannot be sent/.test(e.message),
        );
      assert.equal(seen.length, 0, 'nothing reached the server');
      // Names that only hold dots among other characters are sent, encoded as they are.
      handlers.push((_r, res) => sendJson(res, 404, err('source_not_found', 'not_found')));
      await assert.rejects(
        client().forgetSource('b', '...'),
        (e: unknown) => e instanceof MnemoApiError && e.code === 'source_not_found',
      );
      assert.equal(seen[0]!.url, '/v1/brains/b/sources/...');
    });

    /** A client whose first attempt is refused (nothing listens), with `answer` listening before the retry. */
    async function refusedFirst(answer: (res: ServerResponse) => void) {
      const probe = createServer();
      await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
      const port = (probe.address() as AddressInfo).port;
      await new Promise<void>((r) => probe.close(() => r()));
      const late = createServer((_req, res) => answer(res));
      after(() => new Promise<void>((r) => late.close(() => r())));
      return createMnemoClient({
        ...transport,
        baseUrl: `http://127.0.0.1:${port}/v1`,
        apiKey: 'k',
        retry: { sleep: () => new Promise<void>((r) => late.listen(port, '127.0.0.1', r)) },
      });
    }

    test('a forget refused before it reached the server, then not found on the retry, is not found', async () => {
      const c = await refusedFirst((res) => sendJson(res, 404, err('record_not_found', 'not_found')));
      await assert.rejects(
        c.forgetRecord('b', 'rec_1'),
        (e: unknown) => e instanceof MnemoApiError && e.code === 'record_not_found',
      );
    });

    /** A client whose first attempt is read and its connection dropped, the server gone before the retry. */
    async function droppedThenRefused() {
      const dying = createServer((req, res) => {
        req.resume();
        req.on('end', () => res.socket?.destroy());
      });
      await new Promise<void>((r) => dying.listen(0, '127.0.0.1', r));
      const stop = () =>
        new Promise<void>((r) => {
          dying.closeAllConnections();
          dying.close(() => r());
        });
      after(() => (dying.listening ? stop() : undefined));
      return createMnemoClient({
        ...transport,
        baseUrl: `http://127.0.0.1:${(dying.address() as AddressInfo).port}/v1`,
        apiKey: 'k',
        retry: { sleep: stop },
      });
    }

    test('a write dropped after it was sent, its retry refused, is not said to have sent nothing', async () => {
      // The server read the write and stopped before answering: it may have applied it, so the refused
      // retry must not say reached_server false ("nothing was sent, so nothing was applied").
      const c = await droppedThenRefused();
      await assert.rejects(
        c.rememberRecord('b', { content: 'x' }, { idempotencyKey: 'k-7' }),
        (e: unknown) =>
          e instanceof MnemoApiError &&
          e.code === 'network_error' &&
          e.body.reached_server === null &&
          /ECONNREFUSED.*an earlier attempt of this call was sent and failed .*whether the call was applied is unknown/.test(
            e.message,
          ),
      );
    });

    test('a write refused before it reached the server, then replayed on the retry, was written earlier', async () => {
      // The refused attempt sent nothing, so the replay is of an earlier call's write: replayed, not unknown.
      const c = await refusedFirst((res) =>
        sendJson(res, 202, { id: 'rec_9' }, { 'idempotent-replayed': 'true' }),
      );
      assert.equal((await c.rememberRecord('b', { content: 'x' }, { idempotencyKey: 'k-9' })).replayed, true);
    });
  });
}

test('a port the global fetch blocks is named as the reason, and nothing was sent', async () => {
  // fetch refuses ports such as X11's 6000 before connecting, as "fetch failed" with no code: a server
  // started with --port 6000 was unreachable for no reason the caller was told.
  const c = createMnemoClient({
    baseUrl: 'http://127.0.0.1:6000/v1',
    apiKey: 'k',
    retry: { sleep: async () => {} },
  });
  await assert.rejects(
    c.listBrains(),
    (e: unknown) =>
      e instanceof MnemoApiError &&
      e.code === 'network_error' &&
      e.message === 'cannot reach http://127.0.0.1:6000/v1: fetch failed (bad port)' &&
      e.body.reached_server === false,
  );
});

test("a base without /v1 (the server's root) is the server's /v1, not an http_404 on every call", async () => {
  const root = baseUrl.replace(/\/v1\/$/, '');
  for (const base of [root, `${root}/`, `${root}/v1`, `${root}/v1/`]) {
    seen = [];
    handlers.push((_r, res) => sendJson(res, 200, { data: [], has_more: false, next_cursor: null }));
    const c = createMnemoClient({ baseUrl: base, apiKey: 'k' });
    assert.equal(c.baseUrl, `${root}/v1`, base);
    await c.listBrains();
    assert.equal(seen[0]!.url, '/v1/brains', base);
  }
});
