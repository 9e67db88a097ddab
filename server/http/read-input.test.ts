import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { startServer, type RunningServer } from '../start-server.ts';
import { maxJsonDepth } from './json-depth.ts';
import { readAccept } from './read-input.ts';

describe('request bodies', () => {
  let server: RunningServer;
  before(async () => {
    server = await startServer({ engine: 'reference', port: 0 });
  });
  after(() => server.close());

  const post = async (
    body: NonNullable<Parameters<typeof fetch>[1]>['body'],
    headers: Record<string, string> = {},
  ) => {
    const res = await fetch(`${server.url}/brains`, {
      method: 'POST',
      headers: { Authorization: 'Bearer sk_test_bodies_secret1', ...headers },
      body,
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('no body and no Content-Type is invalid_request_body (spec: "no body"), not 415', async () => {
    const r = await post(undefined);
    assert.equal(r.status, 400);
    assert.equal(r.body.code, 'invalid_request_body');
    assert.match(String(r.body.message), /^body: is required/);
  });

  it('a body that is sent as something other than JSON is still 415', async () => {
    const r = await post('id=x', { 'Content-Type': 'application/x-www-form-urlencoded' });
    assert.equal(r.status, 415);
    assert.equal(r.body.code, 'unsupported_media_type');
  });

  it('a JSON body that is not valid UTF-8 is refused, not stored with U+FFFD', async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"id":"ok","name":"caf'),
      Buffer.from([0xe9]),
      Buffer.from('"}'),
    ]);
    const r = await post(bytes, { 'Content-Type': 'application/json' });
    assert.equal(r.status, 400);
    assert.equal(r.body.code, 'invalid_request_body');
    assert.equal(r.body.message, 'body: is not valid UTF-8');
  });

  it('JSON nested deeper than the limit is invalid_request_body naming it, not a 500 from a stack overflow', async () => {
    const auth = { Authorization: 'Bearer sk_test_bodies_secret1', 'Content-Type': 'application/json' };
    await fetch(`${server.url}/brains`, { method: 'POST', headers: auth, body: '{"id":"deep"}' });
    const acceptObject = async (key: string, levels: number) => {
      // The body is level 1, so its value may nest one level less than the limit.
      const value = '['.repeat(levels) + ']'.repeat(levels);
      const res = await fetch(`${server.url}/brains/deep/objects`, {
        method: 'POST',
        headers: auth,
        body: `{"type":"t","key":"${key}","value":${value}}`,
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    for (const levels of [maxJsonDepth, 10_000]) {
      const r = await acceptObject(`k${levels}`, levels);
      assert.equal(r.status, 400, `${levels} levels`);
      assert.equal(r.body.code, 'invalid_request_body');
      assert.equal(r.body.message, `body: nests arrays and objects more than ${maxJsonDepth} levels deep`);
    }
    assert.equal((await acceptObject('at-the-limit', maxJsonDepth - 1)).status, 201);
    // Checked before any field is: createBrain's `name` would otherwise be "must be a string".
    const r = await post(`{"id":"d","name":${'{"a":'.repeat(200)}1${'}'.repeat(200)}}`, {
      'Content-Type': 'application/json',
    });
    assert.equal(r.status, 400, 'whatever the operation');
    assert.match(String(r.body.message), /^body: nests arrays and objects more than \d+ levels deep$/);
  });

  it('a lone surrogate spelled as a JSON escape is refused naming the field; a surrogate pair is text', async () => {
    const json = { 'Content-Type': 'application/json' };
    // As the escapes arrive on the wire: JSON.stringify would write the same, but spelled out is plainer.
    const cases: Array<[string, string]> = [
      ['{"id":"s1","name":"Bob \\ud83d parrot"}', 'name: holds a lone surrogate (\\ud83d)'],
      ['{"id":"s2","name":"tail \\udc00"}', 'name: holds a lone surrogate (\\udc00)'],
      ['{"id":"s3","self":{"name":"Ana","aliases":["ok","\\ud800x"]}}', 'self.aliases[1]: holds'],
      ['{"id":"s4","self":{"name":"Ana","\\ud800":1}}', 'self: a field name holds'],
    ];
    for (const [body, start] of cases) {
      const r = await post(body, json);
      assert.equal(r.status, 400, body);
      assert.equal(r.body.code, 'invalid_request_body');
      assert.ok(String(r.body.message).startsWith(start), `${body}: ${String(r.body.message)}`);
    }
    const pair = await post('{"id":"s5","name":"Bob \\ud83e\\udd9c parrot"}', json);
    assert.equal(pair.status, 201);
    assert.equal((pair.body as { name: string }).name, 'Bob 🦜 parrot');
  });

  it('a number a double would not keep is refused in any body; only a field that takes text is told to send text', async () => {
    const json = { 'Content-Type': 'application/json' };
    const own = await post('{"id":"n","name":"12345678901234567890"}', json);
    assert.equal(own.status, 201, 'digits in a string are text');
    const ask = async (path: string, body: string) => {
      const res = await fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { Authorization: 'Bearer sk_test_bodies_secret1', ...json },
        body,
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    // Passes validation as 100, which is not what was sent: no string would be taken there either.
    const tokens = await ask('/brains/n/context', '{"query":"q","budget":{"tokens":100.00000000000000001}}');
    assert.equal(tokens.status, 400);
    assert.equal(tokens.body.code, 'invalid_request_body');
    assert.equal(
      tokens.body.message,
      'budget.tokens: 100.00000000000000001 would not be kept exactly: JSON numbers are read as IEEE 754 doubles, which hold it only as 100',
    );
    // A bounded integer is refused by its bounds, as before: that says more than the double does.
    const version = await ask(
      '/brains/n/objects',
      '{"type":"t","key":"k","value":1,"if_version":9007199254740993}',
    );
    assert.equal(version.body.message, 'if_version: must be at most 9007199254740991');
    const value = await ask('/brains/n/objects', '{"type":"t","key":"k","value":{"at":[1e-400]}}');
    assert.equal(
      value.body.message,
      'value.at[0]: 1e-400 would not be kept exactly: JSON numbers are read as IEEE 754 doubles, which hold it only as 0; send it as a string to keep every digit',
    );
  });

  it('valid UTF-8, with a byte order mark, is read as before', async () => {
    const bytes = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('{"id":"cafe","name":"café"}'),
    ]);
    const r = await post(bytes, { 'Content-Type': 'application/json' });
    assert.equal(r.status, 201);
    assert.equal(r.body.name, 'café');
  });

  it('a compressed body is 415 naming the encoding, not "not valid UTF-8"', async () => {
    const r = await post(gzipSync('{"id":"zipped"}'), {
      'Content-Type': 'application/json',
      'Content-Encoding': 'gzip',
    });
    assert.equal(r.status, 415);
    assert.equal(r.body.code, 'unsupported_media_type');
    assert.match(String(r.body.message), /^Content-Encoding: gzip is not accepted/);
  });

  it('a header that is not visible ASCII is named as it is spelled', async () => {
    const r = await post('{"id":"spaced"}', {
      'Content-Type': 'application/json',
      'Idempotency-Key': 'order 42',
    });
    assert.equal(r.status, 400);
    assert.match(String(r.body.message), /^Idempotency-Key: must be 1-255 visible/);
  });
});

describe('Accept: q-values choose between the stream and JSON', () => {
  it('a stream is what the client prefers, named outright; JSON is refused only when it is not acceptable', () => {
    // [Accept, a thorough Context streams, 406 where nothing streams]
    const cases: [string | undefined, boolean, boolean][] = [
      [undefined, false, false],
      ['text/event-stream', true, true],
      ['TEXT/Event-Stream', true, true],
      ['application/json, text/event-stream', false, false],
      ['text/event-stream, application/json;q=0.5', true, false],
      ['text/event-stream;q=0.5, application/json', false, false],
      ['application/json;q=0, text/event-stream;q=0.1', true, true],
      ['text/event-stream, */*', false, false],
      ['text/event-stream, */*;q=0.1', true, false],
      ['text/event-stream, application/*;q=0.5', true, false],
      ['text/event-stream, application/json;q=0, */*', true, true],
      ['text/event-stream;q=0', false, false],
      ['*/*', false, false],
      ['text/*', false, false],
    ];
    for (const [accept, streams, refuses] of cases)
      assert.deepEqual(readAccept(accept), { prefersStream: streams, refusesJson: refuses }, String(accept));
  });

  it('over HTTP: preferring the stream but accepting JSON gets JSON where nothing streams; refusing JSON is 406', async () => {
    const server = await startServer({ engine: 'reference', port: 0 });
    try {
      const auth = { Authorization: 'Bearer sk_test_accept_secret1', 'Content-Type': 'application/json' };
      await fetch(`${server.url}/brains`, { method: 'POST', headers: auth, body: '{"id":"a"}' });
      const ask = (accept: string, path = '/brains/a/context') =>
        fetch(`${server.url}${path}`, {
          method: path.endsWith('context') ? 'POST' : 'GET',
          headers: { ...auth, Accept: accept },
          ...(path.endsWith('context') ? { body: '{"query":"tea"}' } : {}),
        });
      const fast = await ask('text/event-stream, application/json;q=0.5');
      assert.equal(fast.status, 200);
      assert.match(fast.headers.get('content-type') ?? '', /^application\/json/);
      assert.equal(((await fast.json()) as { object: string }).object, 'context');
      assert.equal((await ask('text/event-stream, application/json;q=0.9', '/brains')).status, 200);
      const refused = await ask('text/event-stream, application/json;q=0');
      assert.equal(refused.status, 406);
      assert.equal(((await refused.json()) as { code: string }).code, 'streaming_not_applicable');
      assert.equal((await ask('text/event-stream', '/brains')).status, 406);
    } finally {
      await server.close();
    }
  });
});
