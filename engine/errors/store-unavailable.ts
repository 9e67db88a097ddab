import { MnemoError } from './mnemo-error.ts';

/** What a store_unavailable answer that a write may have survived ends with: advice to a writer of /v1. */
export const writeKeptAdvice =
  'A write that failed as it committed may have been kept, so resend rememberRecord with the same Idempotency-Key.';

/**
 * `store_unavailable` for a store that cannot take requests now (`situation` says why and what mends
 * it), its cause kept for the server's log. A write that failed as it committed may have been kept,
 * on either engine, hence the advice such an answer ends with; `writeKept: false` leaves it out where
 * no write can have been (a damaged file fails a read, never a commit), as it only hides the way back.
 */
export function storeUnavailableError(
  situation: string,
  cause: unknown,
  { writeKept = true }: { writeKept?: boolean } = {},
): MnemoError {
  const err = new MnemoError(
    'store_unavailable',
    writeKept ? `${situation}. ${writeKeptAdvice}` : `${situation}.`,
  );
  err.cause = cause;
  return err;
}

/**
 * `message` without the advice to resend a write, for an answer to a request that writes nothing (a
 * GET, a read-only tool): there it only misleads.
 */
export function withoutWriteAdvice(message: string): string {
  return message.endsWith(` ${writeKeptAdvice}`) ? message.slice(0, -writeKeptAdvice.length - 1) : message;
}
