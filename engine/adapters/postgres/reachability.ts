import type { PgClient } from './client.ts';
import { poolBusy, unreachable } from './store-failure.ts';

/** What the process is told when its database stops answering, and when it answers again. */
export interface ReachabilityHooks {
  lost(cause: unknown): void;
  back(downMs: number): void;
  /**
   * Calls failed because every connection of the pool stayed busy (the database answers, but not soon
   * enough for this process's load): told at most once a minute, with how many failed since.
   */
  busy?(failed: number, cause: unknown): void;
}

/** How often an operator is told, at most, that the pool stayed full. */
const busyEveryMs = 60_000;

/**
 * `client`, telling `hooks` once when its calls start failing because the database cannot be reached
 * and once when a call succeeds again. Without it an outage showed only as each worker's retries and
 * each request's internal_error, and its end not at all. Made `armed: false`, it tells nothing until
 * `arm()`: a database that cannot be used while the storage opens is the open's failure, said by its
 * caller once, not an outage.
 */
export function watchReachability(
  client: PgClient,
  hooks: ReachabilityHooks,
  { now = () => Date.now(), armed = true }: { now?: () => number; armed?: boolean } = {},
): PgClient & { arm(): void } {
  let downSince: number | null = null;
  let busyToldAt = -Infinity;
  let busySinceTold = 0;
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
      if (!armed) throw e;
      if (downSince === null && unreachable(e)) {
        downSince = now();
        hooks.lost(e);
      } else if (poolBusy(e)) {
        busySinceTold++;
        if (now() - busyToldAt >= busyEveryMs) {
          busyToldAt = now();
          hooks.busy?.(busySinceTold, e);
          busySinceTold = 0;
        }
      }
      throw e;
    }
  };
  return {
    query: (sql, params) => watched(() => client.query(sql, params)),
    exec: (sql) => watched(() => client.exec(sql)),
    transaction: (work, options) => watched(() => client.transaction(work, options)),
    ping: (ms) => watched(() => client.ping(ms)),
    close: () => client.close(),
    arm: () => {
      armed = true;
    },
  };
}
