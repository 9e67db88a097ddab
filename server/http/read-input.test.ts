import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, type RunningServer } from '../start-server.ts';

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

  it('valid UTF-8, with a byte order mark, is read as before', async () => {
    const bytes = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('{"id":"cafe","name":"café"}'),
    ]);
    const r = await post(bytes, { 'Content-Type': 'application/json' });
    assert.equal(r.status, 201);
    assert.equal(r.body.name, 'café');
  });
});
