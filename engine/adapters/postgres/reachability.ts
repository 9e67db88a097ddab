import type { PgClient } from './client.ts';
import { unreachable } from './store-failure.ts';

/** What the process is told when its database stops answering, and when it answers again. */
export interface ReachabilityHooks {
  lost(cause: unknown): void;
  back(downMs: number): void;
}

/**
 * `client`, telling `hooks` once when its calls start failing because the database cannot be reached
 * and once when a call succeeds again. Without it an outage showed only as each worker's retries and
 * each request's internal_error, and its end not at all.
 */
export function watchReachability(
  client: PgClient,
  hooks: ReachabilityHooks,
  now = () => Date.now(),
): PgClient {
  let downSince: number | null = null;
  const watched = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      const out = await call();
      if (downSince !== null) {
        const downMs = now() - downSince;
        downSince = null;
        hooks.back(downMs);
      }
      return out;
    } catch (e) {
      if (downSince === null && unreachable(e)) {
        downSince = now();
        hooks.lost(e);
      }
      throw e;
    }
  };
  return {
    query: (sql, params) => watched(() => client.query(sql, params)),
    exec: (sql) => watched(() => client.exec(sql)),
    transaction: (work, options) => watched(() => client.transaction(work, options)),
    close: () => client.close(),
  };
}
