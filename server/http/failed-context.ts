import type { ContextRequest } from '../../engine/contract/index.ts';
import { coerceError, isMnemoError, MnemoError } from '../../engine/errors/mnemo-error.ts';
import type { PrincipalEngine } from '../../engine/index.ts';

/**
 * A Context request that failed, as /v1 answers it and the hosted /mcp does: a trc_ Trace is left for
 * it and named in the error's trace_id; a fault becomes internal_error with the fault as its cause, for
 * the server's log. A Brain not found is told as it is, with no Trace (there is no Brain to keep one).
 */
export async function failedContext(
  scoped: Pick<PrincipalEngine, 'recordFailedContext'>,
  brainId: string,
  requestId: string,
  body: ContextRequest,
  e: unknown,
): Promise<never> {
  if (isMnemoError(e) && e.code === 'brain_not_found') throw e;
  const err = coerceError(e);
  const traceId = await scoped.recordFailedContext(brainId, {
    requestId,
    query: body.query,
    mode: body.mode ?? 'fast',
    request: body as Record<string, unknown>,
    error: { code: err.code, message: err.message },
  });
  if (!traceId) throw e;
  const withTrace = new MnemoError(err.code, err.message, { ...err.extra, trace_id: traceId });
  if (err !== e) withTrace.cause = e;
  throw withTrace;
}
