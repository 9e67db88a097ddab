import type { Context } from '../../contract/index.ts';

/**
 * Keeps a thorough Context within its synchronous budget: when assembly takes longer than `syncMs`,
 * the caller gets `202 processing` at once while assembly finishes in the background, and the same
 * request sent again (same Brain, body and Brain-Watermark) gets the finished Context, unless the
 * caller finds it stale (then it is assembled afresh, under a new id). Finished results are kept briefly
 * (`ttlMs`) and few (`maxEntries`, oldest dropped).
 *
 * One assembly has one Context id (`newId`), given to both callbacks: every 202 for it and the finished
 * Context carry the same id, so a client polling sees one Context and its Trace ends `ready`.
 */
export interface ThoroughSync {
  run(
    key: string,
    compute: (id: string) => Promise<Context>,
    processing: (id: string) => Context | Promise<Context>,
    /** The assembly a 202 announced has failed, and nobody awaits it: leave word of it (its Trace). */
    failedAfter202?: (id: string, error: unknown) => void | Promise<void>,
    /**
     * A finished Context that no longer answers the request (the Brain changed since it was assembled,
     * and the request asks for the freshest data): it is dropped and the request assembled afresh, once.
     * The fresh one is served when it finishes, stale or not: a Brain that changes all the time (an import
     * running) would otherwise keep a polling client at 202 for ever.
     */
    stale?: (done: Context) => boolean,
  ): Promise<Context>;
  /**
   * Drops every entry whose key starts with the prefix (a Brain's), finished or still assembling: after
   * a forget, a kept Context may cite what no longer exists and must not be served.
   */
  forget(prefix: string): void | Promise<void>;
}

interface Entry {
  id: string;
  promise: Promise<Context>;
  done: Context | null;
  /** How the assembly failed after a 202 announced it: the retry is told, once. */
  failed: { error: unknown } | null;
  /** A 202 named this assembly's id, so nobody is waiting on its promise any more. */
  announced: boolean;
  /** Assembled again because the kept one was stale: served when finished, whatever has changed. */
  refresh: boolean;
  at: number;
}

export function createThoroughSync(o: {
  syncMs: number;
  newId: () => string;
  ttlMs?: number;
  maxEntries?: number;
  now?: () => number;
}): ThoroughSync {
  const ttl = o.ttlMs ?? 10 * 60_000;
  const max = o.maxEntries ?? 100;
  const now = o.now ?? Date.now;
  const entries = new Map<string, Entry>();

  const sweep = () => {
    for (const [k, e] of entries) if ((e.done || e.failed) && now() - e.at > ttl) entries.delete(k);
    while (entries.size > max) entries.delete(entries.keys().next().value!);
  };

  return {
    async run(key, compute, processing, failedAfter202, stale) {
      sweep();
      let entry = entries.get(key);
      let refresh = false;
      if (entry?.done || entry?.failed) {
        entries.delete(key);
        if (entry.failed) throw entry.failed.error;
        if (entry.refresh || !stale?.(entry.done!)) return entry.done!;
        entry = undefined;
        refresh = true;
      }
      if (!entry) {
        const id = o.newId();
        const e: Entry = {
          id,
          promise: compute(id),
          done: null,
          failed: null,
          announced: false,
          refresh,
          at: now(),
        };
        entry = e;
        entries.set(key, e);
        e.promise.then(
          (c) => {
            e.done = c;
            e.at = now();
          },
          (error: unknown) => {
            if (!e.announced) {
              // Its caller is still waiting and hears of the failure itself. (Only its own entry: after a
              // forget or an eviction, a newer assembly may sit under the same key.)
              if (entries.get(key) === e) entries.delete(key);
              return;
            }
            const left = failedAfter202?.(e.id, error);
            e.failed = { error };
            e.at = now();
            // Nobody awaits this chain: a failure to leave word surfaces as the process's unhandled
            // rejection, as a throw here would.
            return left;
          },
        );
      }
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<null>((r) => {
        timer = setTimeout(() => r(null), o.syncMs);
      });
      const first = await Promise.race([entry.promise, late]);
      clearTimeout(timer);
      if (first !== null) {
        if (entries.get(key) === entry) entries.delete(key);
        return first;
      }
      entry.announced = true;
      return processing(entry.id);
    },
    forget(prefix) {
      for (const k of [...entries.keys()]) if (k.startsWith(prefix)) entries.delete(k);
    },
  };
}
