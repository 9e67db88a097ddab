import type { z } from 'zod';
import { MnemoError } from '../../engine/errors/mnemo-error.ts';

/**
 * A list's cursor carries the filters and order of the read that issued it, so the cursor alone goes
 * on with the same list: sent alone after `order=desc`, an engine's bare cursor went on in ascending
 * order from the last id served, which is the first page again, with no error. The engine's own
 * cursor is wrapped as it is; a bare one (as this server issued before) is still read, as it is.
 */
const tag = 'l1:';
/** The parameters that page a list rather than choose it. */
const pageParameters = new Set(['cursor', 'limit', 'since_watermark']);

type Query = { cursor?: string | undefined } & Record<string, unknown>;

const chosen = (query: Query): Record<string, unknown> =>
  Object.fromEntries(Object.entries(query).filter(([k, v]) => !pageParameters.has(k) && v !== undefined));

function opened(cursor: string): { c: string; p: Record<string, unknown> } | null {
  const raw = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!raw.startsWith(tag)) return null;
  try {
    const read = JSON.parse(raw.slice(tag.length)) as unknown;
    if (
      read !== null &&
      typeof read === 'object' &&
      typeof (read as { c?: unknown }).c === 'string' &&
      typeof (read as { p?: unknown }).p === 'object' &&
      (read as { p?: unknown }).p !== null
    )
      return read as { c: string; p: Record<string, unknown> };
  } catch {
    // Not one this server wrapped: the engine says what is wrong with it.
  }
  return null;
}

/**
 * The query a list call reads: with a cursor this server issued, the filters and order of its list for
 * each one not sent with it. One sent with it is read as sent: a cursor is a place in the list, and
 * `order` sent the other way goes back from there.
 */
export function resumedQuery<Q extends Query>(query: Q, schema: z.ZodType<Q>): Q {
  if (query.cursor === undefined) return query;
  const carried = opened(query.cursor);
  if (carried === null) return query;
  // What a cursor carries is checked as the query it stands for is: a cursor is the client's to send.
  const read = schema.safeParse({ ...query, ...chosen(carried.p), ...chosen(query), cursor: carried.c });
  if (!read.success) throw new MnemoError('invalid_request_body', 'cursor: not a cursor this server issued');
  return read.data;
}

/** The page as answered, its next_cursor carrying the list's filters and order (resumedQuery). */
export function pageGoingOn<P extends { next_cursor?: string | null | undefined }>(page: P, query: Query): P {
  if (!page.next_cursor) return page;
  const list = chosen(query);
  const next = Buffer.from(`${tag}${JSON.stringify({ c: page.next_cursor, p: list })}`).toString('base64url');
  return { ...page, next_cursor: next };
}
