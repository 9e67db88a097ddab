// The banner over data a failed read left on screen (renderer/api/stale-reads.ts), under Node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MnemoApiError } from '../../server/client/index.ts';
import { leavesDataStanding, staleBanner, staleReads } from '../../renderer/api/stale-reads.ts';

const network = new MnemoApiError(0, { type: 'internal', code: 'network_error', message: 'Failed to fetch' });
const proxy502 = new MnemoApiError(502, {
  message: 'The server could not be reached through its proxy (HTTP 502 Bad Gateway): …',
  answered_by_proxy: true,
  status_text: 'Bad Gateway',
});
const full = new MnemoApiError(503, {
  type: 'internal',
  code: 'store_unavailable',
  message: 'The disk holding this Mnemo store is full: free some space there, then retry.',
});
const slowDown = new MnemoApiError(429, {
  type: 'rate_limit',
  code: 'too_many_requests',
  message: 'Too many requests for this key: retry after 2 seconds.',
});
const gone = new MnemoApiError(404, { type: 'not_found', code: 'brain_not_found', message: 'brain_id: …' });

test('a lost connection, any 5xx and a 429 leave loaded data standing; an answer about the data does not', () => {
  assert.deepEqual([network, proxy502, full, slowDown, gone].map(leavesDataStanding), [
    true,
    true,
    true,
    true,
    false,
  ]);
});

test("the banner says which failure, in the proxy's status or Mnemo's own words", () => {
  assert.equal(
    staleBanner(network),
    'Mnemo cannot be reached: what you see was loaded before and may be out of date.',
  );
  assert.equal(
    staleBanner(proxy502),
    "The server could not be reached through its proxy, which answered HTTP 502 Bad Gateway in Mnemo's " +
      'place: what you see was loaded before and may be out of date.',
  );
  assert.equal(
    staleBanner(full),
    'Mnemo could not answer just now (The disk holding this Mnemo store is full: free some space there, ' +
      'then retry): what you see was loaded before and may be out of date.',
  );
});

test('the banner stays while one read still fails, whatever other reads do, and goes with it', () => {
  const shown: unknown[] = [];
  const reads = staleReads((e) => shown.push(e));
  const list = { queryHash: 'list', state: { data: { rows: 1 } } };
  const poll = { queryHash: 'poll', state: { data: 'wm_1' } };
  const first = { queryHash: 'first', state: { data: undefined } };
  reads.failed(full, first);
  assert.deepEqual(shown, [], 'a first read shows its own error where its rows would be');
  reads.failed(proxy502, list);
  reads.succeeded(poll);
  assert.equal(shown.at(-1), proxy502, "another read's success does not hide the list's failure");
  reads.failed(network, poll);
  assert.equal(shown.at(-1), network, 'cannot be reached comes first');
  reads.succeeded(first);
  assert.equal(shown.at(-1), proxy502, 'any answer ends "cannot be reached"');
  reads.succeeded(list);
  assert.equal(shown.at(-1), null);
  reads.failed(full, list);
  reads.dropped(list);
  assert.equal(shown.at(-1), null, 'a read no longer on screen stands for nothing');
  reads.failed(gone, list);
  assert.equal(shown.at(-1), null, 'a 4xx replaces the data instead');
});

test('no request goes out on a key after its own revoke succeeded; after a failed one they all go', async () => {
  const { createServer } = await import('node:http');
  const { lastRequest, makeClient } = await import('../../renderer/api/request-gate.ts');
  const seen: string[] = [];
  let answerRevoke!: (status: number) => void;
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const reply = (status: number, body: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.method === 'DELETE')
      answerRevoke = (status) =>
        status === 200
          ? reply(200, { id: 'key_1', revoked_at: '2026-01-01T00:00:00Z' })
          : reply(500, {
              type: 'internal',
              code: 'internal_error',
              message: 'x',
              request_id: 'req_1',
              docs_url: 'http://x/docs/errors/internal_error',
            });
    else reply(200, { data: [], has_more: false, next_cursor: null });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
  const until = async (done: () => boolean) => {
    while (!done()) await new Promise((r) => setTimeout(r, 5));
  };
  try {
    for (const revoked of [false, true]) {
      seen.length = 0;
      const client = makeClient({ baseUrl, apiKey: 'mnemo_test_x' });
      const revoke = lastRequest(client, (c) => c.revokeKey('key_1')).catch(() => 'failed');
      await until(() => seen.length === 1);
      // A poll while the revoke is on its way: held. Held for ever once the revoke succeeded, it fails
      // at the client's timeout, 30 s on: in a process that outlives the test, not the test's failure.
      let polled = false;
      void client.listBrains().then(
        () => (polled = true),
        () => undefined,
      );
      await new Promise((r) => setTimeout(r, 50));
      assert.deepEqual(seen, ['DELETE /v1/keys/key_1']);
      answerRevoke(revoked ? 200 : 500);
      await revoke;
      await new Promise((r) => setTimeout(r, 50));
      if (revoked) assert.deepEqual([seen, polled], [['DELETE /v1/keys/key_1'], false], 'never sent');
      else {
        await until(() => polled);
        assert.deepEqual(seen, ['DELETE /v1/keys/key_1', 'GET /v1/brains'], 'sent once the revoke failed');
      }
    }
  } finally {
    server.closeAllConnections();
    server.close();
  }
});
