import type { HttpBindings } from '@hono/node-server';
import type { Context } from 'hono';
import { MnemoError } from '../../engine/errors/mnemo-error.ts';
import { readLimitedWithin } from './read-limited.ts';

/**
 * FIELD of the small JSON object an endpoint that asks no key is sent ({"token": …}, {"nonce": …}):
 * JSON by its media type (`application/json`, `application/*+json`), at most `maxBytes` read within
 * `withinMs` (a body trickled in would hold the connection before any key is asked for). Throws the
 * spec's errors otherwise; what FIELD must hold is the caller's to check.
 */
export async function keylessJsonField(
  c: Context,
  field: string,
  maxBytes: number,
  withinMs: number,
): Promise<unknown> {
  const type = c.req.header('content-type') ?? '';
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(type))
    throw new MnemoError('unsupported_media_type', `Send the ${field} as JSON: {"${field}": "..."}.`);
  const incoming = (c.env as Partial<HttpBindings> | undefined)?.incoming;
  const bytes = await readLimitedWithin(c.req.raw, maxBytes, withinMs, incoming);
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new MnemoError('invalid_request_body', 'body: must be a JSON object');
  }
  return body && typeof body === 'object' ? (body as Record<string, unknown>)[field] : undefined;
}
