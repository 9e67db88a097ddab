import type { Context } from 'hono';
import { errorCodes, type ErrorCode } from '../../engine/errors/codes.ts';
import { coerceError, MnemoError } from '../../engine/errors/mnemo-error.ts';
import { newId } from '../../engine/index.ts';
import { withoutWriteAdvice } from '../../engine/errors/store-unavailable.ts';
import type { AppEnv } from './app-env.ts';

/**
 * The client closed its connection before its request arrived in full: Node fails the body's stream
 * with "aborted". Nothing went wrong here, and no one is left to read an answer.
 */
export function isClientAbort(e: unknown): boolean {
  return e instanceof Error && (e as NodeJS.ErrnoException).code === 'ECONNRESET' && e.message === 'aborted';
}

/** The error a failure is answered with: an abort is the client's doing, anything unplanned internal. */
export function answeredError(e: unknown): MnemoError {
  if (isClientAbort(e)) return new MnemoError('http_400', 'The request did not arrive in full.');
  return coerceError(e);
}

/**
 * The log line of an unhandled fault (null for a MnemoError the engine meant): its stack, or that of
 * its cause when it was wrapped to carry a trace_id.
 */
export function faultReport(e: unknown, requestId: string): string | null {
  if (isClientAbort(e))
    return `aborted ${requestId}: the connection closed before its request arrived in full`;
  if (coerceError(e).code !== 'internal_error') return null;
  const fault = e instanceof MnemoError && e.cause !== undefined ? e.cause : e;
  return `internal_error ${requestId}: ${(fault as Error).stack ?? String(fault)}`;
}

export function errorBody(c: Context<AppEnv>, e: MnemoError): Record<string, unknown> {
  const body = errorBodyFor(e, c.get('requestId'), c.get('docsUrlBase')?.() ?? '');
  // A read wrote nothing to resend.
  if (c.req.method === 'GET' || c.req.method === 'HEAD') body['message'] = withoutWriteAdvice(e.message);
  return body;
}

/** The one error body, for failures met outside the app, where there is no Hono context. */
export function errorBodyFor(e: MnemoError, requestId: string, docsUrlBase: string): Record<string, unknown> {
  return {
    type: e.type,
    code: e.code,
    message: e.message,
    request_id: requestId,
    docs_url: `${docsUrlBase.replace(/\/$/, '')}/errors/${e.code}`,
    ...e.extra,
  };
}

/** Headers every response carries besides X-Request-Id (the app's first middleware sets the same). */
export const standardHeaders = { 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store' };

/** A whole error response (status, headers, body) for writers outside the app. */
export function frameworkError(
  e: MnemoError,
  docsUrlBase: string,
): { status: number; headers: Record<string, string>; body: string } {
  const requestId = newId('req');
  const body = JSON.stringify(errorBodyFor(e, requestId, docsUrlBase));
  return {
    status: errorCodes[e.code].status,
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': String(Buffer.byteLength(body)),
      'X-Request-Id': requestId,
      ...standardHeaders,
    },
    body,
  };
}

/** Writes the one error shape; the status comes from the code table, never from the thrower. */
export function errorResponse(
  c: Context<AppEnv>,
  e: MnemoError,
  headers: Record<string, string> = {},
): Response {
  if (e.code === 'too_many_requests' && typeof e.extra.retry_after_seconds === 'number') {
    headers['Retry-After'] = String(e.extra.retry_after_seconds);
  }
  return c.json(errorBody(c, e), errorCodes[e.code].status as 400, headers);
}

export function fail(code: ErrorCode, message: string): never {
  throw new MnemoError(code, message);
}
