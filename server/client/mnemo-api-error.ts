import type { ErrorBody } from '../../engine/contract/index.ts';
import { errorCodes, isErrorCode } from '../../engine/errors/codes.ts';

/**
 * A failure answered by the /v1 API in the spec's one error shape, or a transport failure dressed in it
 * (status 0, code `network_error`) so callers branch on one class. Branch on `type`; `code` is exact.
 */
export class MnemoApiError extends Error {
  readonly status: number;
  readonly type: string;
  readonly code: string;
  readonly requestId: string | null;
  /** The whole error body, including additive fields such as `current_version`. */
  readonly body: Record<string, unknown>;
  readonly retryAfterSeconds: number | null;
  /**
   * The Idempotency-Key the failed write sent (rememberRecord, acceptObject, a createBrain given one),
   * else null. After an unknown outcome (`reached_server` not false), the same call with this key
   * replays it safely: it returns what the lost attempt wrote, or writes it once.
   */
  readonly idempotencyKey: string | null;

  constructor(
    status: number,
    body: Partial<Record<keyof ErrorBody, unknown>> & Record<string, unknown>,
    o: { idempotencyKey?: string | null } = {},
  ) {
    super(typeof body.message === 'string' ? body.message : `HTTP ${status}`);
    this.name = 'MnemoApiError';
    this.status = status;
    this.type = typeof body.type === 'string' ? body.type : status >= 500 ? 'internal' : 'invalid_request';
    this.code = typeof body.code === 'string' ? body.code : `http_${status}`;
    this.requestId = typeof body.request_id === 'string' ? body.request_id : null;
    this.body = body;
    this.retryAfterSeconds = typeof body.retry_after_seconds === 'number' ? body.retry_after_seconds : null;
    this.idempotencyKey = o.idempotencyKey ?? null;
  }
}

export function isMnemoApiError(e: unknown): e is MnemoApiError {
  return e instanceof MnemoApiError;
}

/**
 * What an error answer that is not Mnemo's says, for a person: Mnemo answers every failure in the spec's
 * one shape, so one without it came from something in front of the server (a reverse proxy's or load
 * balancer's page). A bare "HTTP 502" says none of that.
 */
function proxyAnswerMessage(status: number, statusText: string): string {
  const http = httpStatus(status, statusText);
  return (
    (status >= 500
      ? `The server could not be reached through its proxy (${http})`
      : `A proxy in front of the server refused the request (${http})`) +
    // A CLI's --url may also name another web server's port: the answer says so as well.
    ': the answer came from something other than Mnemo (a proxy in front of it, or another server at ' +
    'this address), not from Mnemo itself.'
  );
}

/** `HTTP 502 Bad Gateway`, or `HTTP 502` where the reason phrase did not come (HTTP/2). */
export function httpStatus(status: number, statusText: string): string {
  return `HTTP ${status}${statusText ? ` ${statusText}` : ''}`;
}

/** A proxy's answer's status as a person reads it: `HTTP 502 Bad Gateway`, with the reason it sent. */
export function proxyStatus(e: MnemoApiError): string {
  return httpStatus(e.status, typeof e.body.status_text === 'string' ? e.body.status_text : '');
}

/** Whether E is an answer without Mnemo's error shape (errorFromResponse): a proxy's, not the server's. */
export function isProxyAnswer(e: MnemoApiError): boolean {
  return e.body.answered_by_proxy === true;
}

/**
 * Whether a failed call may still have been applied: the request went out and no answer came
 * (`network_error`, a timeout included), the server failed on it (`internal_error`), a proxy in front
 * of it failed (a 5xx not in Mnemo's shape), or an earlier attempt of the same call was sent and
 * failed (`reached_server: null`). A write is then replayed with its `idempotencyKey`.
 */
export function isOutcomeUnknown(e: MnemoApiError): boolean {
  if (e.body.reached_server === null) return true;
  if (e.body.reached_server === false) return false;
  return e.code === 'network_error' || e.code === 'internal_error' || (isProxyAnswer(e) && e.status >= 500);
}

/** Reads an error response; a body that is not the spec's shape still yields a typed error. */
export async function errorFromResponse(res: Response): Promise<MnemoApiError> {
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(await res.text());
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      body = parsed as Record<string, unknown>;
  } catch {
    // Not JSON (a proxy page, say): keep the status, synthesize the rest.
  }
  if (typeof body.code !== 'string')
    body = {
      ...body,
      message: proxyAnswerMessage(res.status, res.statusText),
      answered_by_proxy: true,
      status_text: res.statusText,
    };
  if (body.retry_after_seconds === undefined) {
    const header = Number(res.headers.get('retry-after'));
    if (Number.isFinite(header) && header > 0) body = { ...body, retry_after_seconds: header };
  }
  return new MnemoApiError(res.status, body);
}

/** The error frame of an event stream: its status comes from the code table, as the body has none. */
export function errorFromFrame(data: unknown): MnemoApiError {
  const body =
    data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
  const code = typeof body.code === 'string' ? body.code : 'internal_error';
  return new MnemoApiError(isErrorCode(code) ? errorCodes[code].status : 500, { type: 'internal', ...body });
}
