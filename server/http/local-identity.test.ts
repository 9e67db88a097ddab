import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, test } from 'node:test';
import { Hono } from 'hono';
import { proofHolds } from '../server-file.ts';
import type { AppEnv } from './app-env.ts';
import { answeredError, errorResponse } from './error-response.ts';
import { localIdentityPath, mountLocalIdentity } from './local-identity.ts';

const secret = 'c2VjcmV0LW9mLXRoaXMtc2VydmVyLWluLWEtdGVzdA';
const nonce = 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

/** Asks the route as a connection from `peer` would, its body on the socket as Node's server gives it. */
async function askFrom(peer: string) {
  const app = new Hono<AppEnv>();
  app.use(async (c, next) => {
    c.set('requestId', 'req_test');
    await next();
  });
  app.onError((e, c) => errorResponse(c, answeredError(e)));
  mountLocalIdentity(app, secret);
  const body = JSON.stringify({ nonce });
  const incoming = Object.assign(Readable.from([Buffer.from(body)]), { socket: { remoteAddress: peer } });
  const res = await app.request(
    localIdentityPath,
    { method: 'POST', body, headers: { host: '127.0.0.1:7821', 'content-type': 'application/json' } },
    { incoming },
  );
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

describe('POST /local/identity', () => {
  for (const peer of ['127.0.0.1', '::1', '::ffff:127.0.0.1'])
    test(`proves the server to a connection from this machine (${peer})`, async () => {
      const { status, json } = await askFrom(peer);
      assert.equal(status, 200);
      assert.ok(proofHolds(secret, '127.0.0.1:7821', nonce, String(json['proof'])));
    });

  for (const peer of ['192.0.2.2', '::ffff:192.0.2.2', '2001:db8::2'])
    test(`refuses a connection from another machine though its Host is loopback (${peer})`, async () => {
      const { status, json } = await askFrom(peer);
      assert.equal(status, 403);
      assert.equal(json['code'], 'http_403');
      assert.equal(json['proof'], undefined);
    });
});
