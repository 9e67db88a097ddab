import { MnemoError } from './mnemo-error.ts';

/**
 * `store_unavailable` for a store that cannot take requests now (`situation` says why and what mends
 * it), its cause kept for the server's log. A write that failed as it committed may have been kept,
 * on either engine, hence the advice every such answer ends with.
 */
export function storeUnavailableError(situation: string, cause: unknown): MnemoError {
  const err = new MnemoError(
    'store_unavailable',
    `${situation}. A write that failed as it committed may have been kept, so resend rememberRecord with ` +
      'the same Idempotency-Key.',
  );
  err.cause = cause;
  return err;
}
