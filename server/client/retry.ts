import { limitCodes } from './limited-fetch.ts';
import { MnemoApiError } from './mnemo-api-error.ts';

export interface RetryOptions {
  /** Attempts after the first on `rate_limit` (default 5). */
  maxRateLimitRetries?: number;
  /** Attempts after the first on `internal` and on network failures (default 1; the spec says once). */
  maxInternalRetries?: number;
  /** First backoff step in ms (default 250); doubles per attempt. */
  baseDelayMs?: number;
  /** Upper bound of one wait in ms (default 60,000). */
  maxDelayMs?: number;
  /** Replaceable for tests. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * Codes the spec says never to retry even though their type is `internal`, and the limits a bounded
 * fetch enforces (limited-fetch.ts), which the same request would meet again.
 */
const neverRetry = new Set(['not_implemented', 'memory_without_lineage', ...limitCodes]);

export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Runs `attempt` under the spec's retry guidance: exponential backoff on `rate_limit` (never shorter than
 * `retry_after_seconds`), one retry on `internal` and on a dropped connection, nothing else retried.
 * The caller makes `attempt` safe to repeat (rememberRecord resends the same Idempotency-Key).
 */
export async function withRetry<T>(
  attempt: () => Promise<T>,
  options: RetryOptions | false | undefined,
  signal?: AbortSignal,
): Promise<T> {
  if (options === false) return attempt();
  const maxRate = options?.maxRateLimitRetries ?? 5;
  const maxInternal = options?.maxInternalRetries ?? 1;
  const base = options?.baseDelayMs ?? 250;
  const cap = options?.maxDelayMs ?? 60_000;
  const sleep = options?.sleep ?? abortableSleep;
  let rateRetries = 0;
  let internalRetries = 0;
  for (;;) {
    try {
      return await attempt();
    } catch (e) {
      if (!(e instanceof MnemoApiError) || signal?.aborted) throw e;
      if (e.type === 'rate_limit' && rateRetries < maxRate) {
        const backoff = base * 2 ** rateRetries;
        const floor = (e.retryAfterSeconds ?? 0) * 1000;
        rateRetries += 1;
        await sleep(Math.min(cap, Math.max(backoff, floor)), signal);
        continue;
      }
      if (e.type === 'internal' && !neverRetry.has(e.code) && internalRetries < maxInternal) {
        internalRetries += 1;
        await sleep(Math.min(cap, base), signal);
        continue;
      }
      throw e;
    }
  }
}
