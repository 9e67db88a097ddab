import { isMnemoError, MnemoError } from '../../engine/errors/mnemo-error.ts';
import { MnemoApiError } from '../client/index.ts';

/** One of Mnemo's errors: the engine's, or the server's through the client. */
export const isToldError = (e: unknown): e is MnemoError | MnemoApiError =>
  isMnemoError(e) || e instanceof MnemoApiError;

/**
 * The same error in other words (a field renamed for the tool's caller, the message it stopped at, a
 * setting named): a /v1 error keeps its request id, docs_url and additive fields, so the call can still
 * be found in the server's log.
 */
export function reworded<E extends MnemoError | MnemoApiError>(e: E, message: string): E {
  return (
    e instanceof MnemoApiError
      ? new MnemoApiError(e.status, { ...e.body, message })
      : new MnemoError(e.code, message, e.extra)
  ) as E;
}
