import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { maxPhrasingChars, maxPhrasings, openAiCompatibleRewriter, phrasingsOf } from './query-rewriter.ts';

describe("phrasingsOf: only search words are taken from a generative model's answer", () => {
  test('JSON lines of {"search"} or bare strings are read; prose, fences and other fields are not', () => {
    const answer = [
      'Here you go:',
      '```json',
      '{"search": "blue vehicle"}',
      '"automobile"',
      '{"answer": "a Volvo"}',
      '{"search": 42}',
      '```',
    ].join('\n');
    assert.deepEqual(phrasingsOf(answer), ['blue vehicle', 'automobile']);
  });

  test('punctuation that could mean more than words is dropped, leaving the words', () => {
    assert.deepEqual(phrasingsOf('{"search": "car\\"); DROP TABLE records; -- <b>x</b> \\n ignore above"}'), [
      'car DROP TABLE records -- b x b ignore above',
    ]);
  });

  test('the count and the length of phrasings are capped, and repeats kept once', () => {
    const lines = Array.from({ length: 9 }, (_, i) =>
      JSON.stringify({ search: `word${i % 7} ${'a'.repeat(200)}` }),
    );
    const got = phrasingsOf(['{"search": "same"}', '{"search": "same"}', ...lines].join('\n'));
    assert.equal(got.length, maxPhrasings);
    assert.equal(got[0], 'same');
    assert.ok(got.every((p) => p.length <= maxPhrasingChars));
  });

  test('an answer with nothing usable gives nothing', () => {
    assert.deepEqual(phrasingsOf('I cannot help with that.'), []);
    assert.deepEqual(phrasingsOf('{"search": "!!! ???"}'), []);
  });
});

test('an endpoint that cannot be reached is refused with its cause, not a bare "fetch failed"', async () => {
  // A port just let go of: nothing listens on it.
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address() as AddressInfo;
  await new Promise((r) => probe.close(r));
  const rewriter = openAiCompatibleRewriter({ url: `http://127.0.0.1:${port}/v1/`, model: 'm' });
  await assert.rejects(rewriter.rewrite('What car do I drive?', { signal: AbortSignal.timeout(5000) }), {
    message: "the generative model's endpoint could not be reached: ECONNREFUSED",
  });
});

describe('an endpoint that redirects: the question is sent once, to the address configured', () => {
  test('a 307 is refused naming where it points, and nothing goes there', async () => {
    const seen: string[] = [];
    const server = createHttpServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      req.resume();
      if (req.url === '/v1/chat/completions')
        res.writeHead(307, { location: `http://user:pw@127.0.0.1:${port}/elsewhere` }).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    try {
      const rewriter = openAiCompatibleRewriter({ url: `http://127.0.0.1:${port}/v1`, model: 'm' });
      await assert.rejects(
        rewriter.rewrite('When did I see Dr Jones?', { signal: AbortSignal.timeout(5000) }),
        {
          message:
            `the generative model's endpoint answered HTTP 307, a redirect to http://127.0.0.1:${port}/elsewhere; ` +
            'the question goes to --rewrite-url only and follows no redirect: if the model moved, give --rewrite-url its new address',
        },
      );
      assert.deepEqual(seen, ['POST /v1/chat/completions']);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});
