import type { HttpBindings } from '@hono/node-server';
import type { Hono } from 'hono';
import { MnemoError } from '../../engine/errors/mnemo-error.ts';
import { keylessJsonField } from './keyless-json.ts';
import { identityProof } from '../server-file.ts';
import type { AppEnv } from './app-env.ts';
import { isLoopbackHost } from './loopback-guard.ts';

export const localIdentityPath = '/local/identity';

/** A nonce as clients send it: base64url, long enough not to repeat, short enough to read in one go. */
const nonceShape = /^[A-Za-z0-9_-]{22,128}$/;

/**
 * `POST /local/identity` `{"nonce": "…"}` → `{"proof": "…"}`: the server that owns a data dir proves it
 * wrote that dir's server.json (server-file.ts) before a client sends it a key. It needs no key (the
 * point is to decide whether to send one) and answers nothing but the HMAC: no pid, no path, no version.
 * The Host and Origin guards run before it as before every route. It counts against no rate limit: a
 * bucket it shared with every caller would be one that any user on this machine could fill with junk,
 * and then the owner's own clients, refused 429, would send nothing. An HMAC over at most
 * 1 KiB, read within bodyMs, costs less than the request that asks for it.
 *
 * It answers only a connection from this machine: the clients that read server.json are local, and a
 * server bound beyond loopback (`--host 0.0.0.0`) would otherwise make a proof for anyone on the
 * network who sent a loopback Host, which a relay reaching this port by another path could pass on.
 */
export function mountLocalIdentity(app: Hono<AppEnv>, secret: string, bodyMs = 10_000): void {
  app.post(localIdentityPath, async (c) => {
    c.header('Cache-Control', 'no-store');
    if (!fromThisMachine(c.env))
      throw new MnemoError('http_403', 'this server proves who it is only to clients on this machine');
    // Unauthenticated: read no more than a nonce needs, and not for long.
    const nonce = await keylessJsonField(c, 'nonce', 1024, bodyMs);
    if (typeof nonce !== 'string' || !nonceShape.test(nonce))
      throw new MnemoError('invalid_request_body', 'nonce: must be 22 to 128 base64url characters');
    // The Host guard has admitted only this server's own names with its port by now.
    return c.json({ proof: identityProof(secret, c.req.header('host') ?? '', nonce) });
  });
}

/** Whether the request's connection came from a loopback address (the socket's peer, not a header). */
function fromThisMachine(env: unknown): boolean {
  const peer = (env as Partial<HttpBindings> | undefined)?.incoming?.socket.remoteAddress;
  return peer !== undefined && isLoopbackHost(peer);
}
