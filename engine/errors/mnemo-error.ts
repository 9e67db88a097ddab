import { errorCodes, type ErrorCode, type ErrorType } from './codes.ts';
import { boundedMessage } from './shown-value.ts';

/** Additive fields an error body may carry besides the five fixed ones. */
export interface ErrorExtra {
  current_version?: number;
  retry_after_seconds?: number;
  trace_id?: string;
  [key: string]: unknown;
}

/**
 * The one error the engine and the HTTP adapter throw. The adapter turns it into the spec's flat body
 * `{type, code, message, request_id, docs_url, ...extra}`; anything else thrown becomes `internal_error`.
 */
export class MnemoError extends Error {
  readonly code: ErrorCode;
  readonly extra: ErrorExtra;

  constructor(code: ErrorCode, message: string, extra: ErrorExtra = {}) {
    super(boundedMessage(message));
    this.name = 'MnemoError';
    this.code = code;
    this.extra = extra;
  }

  get status(): number {
    return errorCodes[this.code].status;
  }

  get type(): ErrorType {
    return errorCodes[this.code].type;
  }
}

export function isMnemoError(e: unknown): e is MnemoError {
  return e instanceof MnemoError;
}

/** Anything thrown becomes a MnemoError; what is not one already is an unhandled failure. */
export function coerceError(e: unknown): MnemoError {
  if (isMnemoError(e)) return e;
  return new MnemoError('internal_error', 'An unhandled failure occurred; it was logged on the server.');
}
