import { parseAccept } from 'hono/utils/accept';
import type { HttpBindings } from '@hono/node-server';
import type { Context as HonoContext } from 'hono';
import type * as z from 'zod';
import type { Operation } from '../../engine/contract/operations.ts';
import type { ErrorCode } from '../../engine/errors/codes.ts';
import { MnemoError } from '../../engine/errors/mnemo-error.ts';
import { quoted, shortened } from '../../engine/errors/shown-value.ts';
import type { Engine } from '../../engine/types.ts';
import type { AppEnv } from './app-env.ts';
import type { CallInput } from './handlers.ts';
import { duplicateKeyMessage, duplicateKeys } from './duplicate-keys.ts';
import { inexactNumberMessage, inexactNumbers, takesAString, type InexactNumber } from './exact-numbers.ts';
import { walkJson, type JsonPath } from './json-walk.ts';
import { nestedDeeperThan, tooDeepMessage } from './json-depth.ts';
import {
  holdsRefusedText,
  illFormedTextProblem,
  refusedTextReason,
  spellsRefusedText,
} from './well-formed-text.ts';
import { readLimited } from './read-limited.ts';
import { parseWith } from './validate.ts';

const maxBodyBytes = 4 * 1024 * 1024;

function isJsonMediaType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || /^[a-z0-9.+-]+\/[a-z0-9.+-]+\+json$/.test(type);
}

/** What `Accept` asks of an operation that can answer with JSON and, for one, with an event stream. */
export interface AcceptReading {
  /** Where the operation streams: text/event-stream named outright, with a q above 0 and above JSON's. */
  prefersStream: boolean;
  /** The stream is named and JSON is not acceptable (q=0, or not matched): 406 where nothing streams. */
  refusesJson: boolean;
}

/**
 * Reads Accept by its q-values (RFC 9110 12.5.1). JSON's q is set by the most specific range that
 * matches it (`application/json`, else `application/*`, else `*\/*`: `application/json;q=0, *\/*`
 * refuses JSON). Only a stream named outright is asked for: `*\/*` alone is the plain JSON answer, and
 * a tie is JSON. A client that prefers the stream but accepts JSON gets JSON wherever nothing streams.
 */
export function readAccept(accept: string | undefined): AcceptReading {
  if (!accept) return { prefersStream: false, refusesJson: false };
  const ranges = parseAccept(accept).map(({ type, q }) => ({ type: type.toLowerCase(), q }));
  const qOf = (...mostSpecificFirst: string[]) => {
    for (const type of mostSpecificFirst) {
      const named = ranges.filter((r) => r.type === type);
      if (named.length) return Math.max(...named.map((r) => r.q));
    }
    return 0;
  };
  const stream = qOf('text/event-stream');
  const json = qOf('application/json', 'application/*', '*/*');
  return { prefersStream: stream > 0 && stream > json, refusesJson: stream > 0 && json === 0 };
}

function readQuery(c: HonoContext<AppEnv>, op: Operation): Record<string, unknown> {
  const all = c.req.queries();
  const declared = op.query ? Object.keys(op.query.shape) : [];
  const unknown = Object.keys(all).filter((k) => !declared.includes(k));
  if (unknown.length > 0) {
    throw new MnemoError(
      'unknown_query_parameter',
      `Unknown query parameter(s): ${unknown.map(shortened).join(', ')}${declared.length ? `; declared: ${declared.join(', ')}` : ''}`,
    );
  }
  const flat: Record<string, string> = {};
  for (const [k, v] of Object.entries(all)) {
    if (v.length > 1) throw new MnemoError('invalid_request_body', `${shortened(k)}: must be given once`);
    if (holdsRefusedText(v[0]!))
      throw new MnemoError('invalid_request_body', `${shortened(k)}: ${refusedTextReason(v[0]!)}`);
    flat[k] = v[0]!;
  }
  if (!op.query) return {};
  for (const [k, v] of Object.entries(flat)) plusReadAsSpace(op.query.shape[k] as z.ZodType, k, v);
  return parseWith(op.query, flat, 'query');
}

/**
 * A query value refused as sent that would be taken with its space as '+': a date-time's offset
 * (`as_of=2026-01-01T00:00:00+01:00`) sent unencoded, whose '+' the URL query read as a space. Only
 * the client can tell, so it is told how to send it, not only that it is no date-time.
 */
function plusReadAsSpace(schema: z.ZodType, name: string, value: string): void {
  if (!/^\S+ \d\d:\d\d$/.test(value) || schema.safeParse(value).success) return;
  const meant = value.replace(' ', '+');
  if (!schema.safeParse(meant).success) return;
  throw new MnemoError(
    'invalid_request_body',
    `${shortened(name)}: must be an RFC 3339 date-time with an offset, and ${quoted(value)} has a space where ` +
      `its offset's '+' would be: a URL query reads an unencoded '+' as a space, so encode it as %2B ` +
      `(${shortened(name)}=${meant.replace('+', '%2B')})`,
  );
}

/** Nothing was sent: no length, or a zero one, and no chunked body. */
function hasNoBody(c: HonoContext<AppEnv>): boolean {
  const length = c.req.header('content-length');
  return !c.req.header('transfer-encoding') && (length === undefined || Number(length) === 0);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Largest body read from an operation that takes none, to say what is wrong with it. */
const unwantedBodyBytes = 64 * 1024;

/**
 * An operation that takes no body (a GET, a DELETE) given one: nothing, whitespace or `{}` is accepted
 * as no body; fields are refused as unknown, as on every operation with a body (docs/decisions.md,
 * "Unknown body fields"). A `DELETE` sent `{"cascade": false}` must not forget anyway.
 */
async function refuseUnwantedBody(c: HonoContext<AppEnv>): Promise<undefined> {
  if (hasNoBody(c)) return undefined;
  const bytes = await readLimited(
    c.req.raw,
    unwantedBodyBytes,
    (c.env as Partial<HttpBindings> | undefined)?.incoming,
  );
  const raw = new TextDecoder().decode(bytes);
  if (raw.trim() === '') return undefined;
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(raw);
  } catch {
    // Not JSON: said below, as any body that is not an empty object.
  }
  if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
    const fields = Object.keys(parsed);
    if (fields.length === 0) return undefined;
    throw new MnemoError(
      'invalid_request_body',
      `${fields.map(shortened).join(', ')}: unknown field${fields.length > 1 ? 's' : ''} (this operation takes no body)`,
    );
  }
  throw new MnemoError('invalid_request_body', 'body: this operation takes no body');
}

async function readBody(c: HonoContext<AppEnv>, op: Operation, engine: Engine): Promise<unknown> {
  if (!op.body) return refuseUnwantedBody(c);
  // Spec: "no body" is invalid_request_body; the media type only matters for a body that was sent.
  if (!isJsonMediaType(c.req.header('content-type'))) {
    if (hasNoBody(c)) throw new MnemoError('invalid_request_body', 'body: is required (a JSON object)');
    throw new MnemoError(
      'unsupported_media_type',
      'Content-Type: send the body as application/json (any +json type is accepted)',
    );
  }
  // A compressed body would otherwise be reported as JSON that is not UTF-8 (RFC 9110 15.5.16: 415).
  const coding = c.req.header('content-encoding')?.trim().toLowerCase();
  if (coding && coding !== 'identity') {
    throw new MnemoError(
      'unsupported_media_type',
      `Content-Encoding: ${coding} is not accepted; send the body uncompressed`,
    );
  }
  const limit = op.maxBodyBytes ?? maxBodyBytes;
  const bytes = await readLimited(c.req.raw, limit, (c.env as Partial<HttpBindings> | undefined)?.incoming);
  let raw: string;
  try {
    // Fatal: a lenient decoder would turn bad bytes into U+FFFD and store text nobody sent.
    raw = utf8.decode(bytes);
  } catch {
    throw new MnemoError('invalid_request_body', 'body: is not valid UTF-8');
  }
  if (raw.trim() === '') throw new MnemoError('invalid_request_body', 'body: is required (a JSON object)');
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (e) {
    throw new MnemoError(
      'invalid_request_body',
      `body: is not valid JSON (${shortened((e as Error).message)})`,
    );
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new MnemoError('invalid_request_body', 'body: must be a JSON object');
  }
  // Before validation, which would overflow the stack on it (JSON.parse itself does not).
  if (nestedDeeperThan(parsed)) throw new MnemoError('invalid_request_body', tooDeepMessage('body'));
  // One walk of the text for what the parsed value no longer tells: a name given twice (refused before
  // validation, which sees only the value JSON.parse kept, the last) and the first number a double does
  // not keep (after it).
  const first: { twice: JsonPath | null; inexact: InexactNumber | null } = { twice: null, inexact: null };
  walkJson(raw, {
    ...duplicateKeys(
      () => first.twice === null,
      (p) => ((first.twice = p), first.inexact === null),
    ),
    ...inexactNumbers(
      () => first.inexact === null,
      (n) => ((first.inexact = n), first.twice === null),
    ),
  });
  const { twice, inexact } = first;
  if (twice) throw new MnemoError('invalid_request_body', duplicateKeyMessage(twice));
  const illFormed = spellsRefusedText(raw) ? illFormedTextProblem(parsed, 'body') : null;
  if (illFormed) throw new MnemoError('invalid_request_body', illFormed);
  if (op.id === 'rememberRecord') checkKind(engine, (parsed as Record<string, unknown>).content);
  const body = parseWith(op.body, parsed);
  // After validation, so a field that takes only a bounded integer says its bounds; what passes it and
  // reached JSON.parse as a number a double cannot hold would be stored as another number.
  if (inexact)
    throw new MnemoError(
      'invalid_request_body',
      inexactNumberMessage(inexact, 'body', takesAString(op.body, inexact.path, parsed)),
    );
  return body;
}

/**
 * Kinds differ by engine, and so does the code for an unaccepted one (spec: Typed content): checked
 * before the rest of a Record is read, here and by the hosted /mcp endpoint.
 */
export function checkKind(engine: Engine, content: unknown): void {
  if (content === null || typeof content !== 'object' || Array.isArray(content)) return;
  const kind = (content as Record<string, unknown>).kind;
  if (kind === undefined)
    throw new MnemoError(
      'invalid_request_body',
      `content.kind: is required (one of ${engine.info.kinds.join(', ')})`,
    );
  if (typeof kind === 'string' && (engine.info.kinds as readonly string[]).includes(kind)) return;
  const message = `content.kind: must be one of ${engine.info.kinds.join(', ')}; got ${quoted(kind)}`;
  throw new MnemoError(engine.info.unknownKindCode, message);
}

function readHeader(c: HonoContext<AppEnv>, name: string): string | undefined {
  const v = c.req.header(name);
  if (v === undefined) return undefined;
  if (v.length < 1 || v.length > 255 || !/^[\x21-\x7e]+$/.test(v)) {
    throw new MnemoError('invalid_request_body', `${name}: must be 1-255 visible ASCII characters`);
  }
  return v;
}

/** A Brain-Watermark header that cannot be a watermark (empty, too long) is one the engine cannot read. */
function readWatermarkHeader(c: HonoContext<AppEnv>): string | undefined {
  try {
    return readHeader(c, 'Brain-Watermark');
  } catch {
    throw new MnemoError(
      'invalid_watermark',
      'Brain-Watermark: not a watermark issued by this Brain (one of another Brain, of an earlier Brain of this id, or from before its store was restored): leave it out and read afresh',
    );
  }
}

/** The code for a path segment that names nothing of its kind. */
const notFoundBy: Record<string, ErrorCode> = {
  brain_id: 'brain_not_found',
  record_id: 'record_not_found',
  memory_id: 'memory_not_found',
  trace_id: 'trace_not_found',
  object_type: 'object_not_found',
  object_key: 'object_not_found',
  source_name: 'source_not_found',
  chat: 'source_not_found',
  key_id: 'http_404',
};

/**
 * A path segment that holds text no store keeps (U+0000, a lone surrogate) names nothing: it is not
 * found, as an id that never existed is, on every engine (PostgreSQL would fail on it as a parameter).
 */
function namesSomething(params: Record<string, string>): void {
  for (const [name, value] of Object.entries(params)) {
    const code = notFoundBy[name];
    if (code && holdsRefusedText(value))
      throw new MnemoError(code, `${name}: nothing is named so (${refusedTextReason(value)})`);
  }
}

/** Everything a handler needs, validated against the contract; throws the spec's 4xx codes. */
export async function readInput(c: HonoContext<AppEnv>, op: Operation, engine: Engine): Promise<CallInput> {
  const accept = readAccept(c.req.header('accept'));
  if (accept.refusesJson && !op.eventStream) {
    throw new MnemoError(
      'streaming_not_applicable',
      `Accept: ${op.id} does not stream; only a thorough createContext and importFiles do`,
    );
  }
  const params = c.req.param() as Record<string, string>;
  namesSomething(params);
  const query = readQuery(c, op);
  const body = await readBody(c, op, engine);
  return {
    principal: c.get('principal'),
    params,
    query,
    body,
    idempotencyKey: op.headers?.includes('Idempotency-Key') ? readHeader(c, 'Idempotency-Key') : undefined,
    watermark: op.headers?.includes('Brain-Watermark') ? readWatermarkHeader(c) : undefined,
    wantsStream: accept.prefersStream,
    refusesJson: accept.refusesJson,
  };
}
