import type { Context } from '../contract/index.ts';

/**
 * Keeps a thorough Context within its synchronous budget: when assembly takes longer than `syncMs`,
 * the caller gets `202 processing` at once while assembly finishes in the background, and the same
 * request sent again (same Brain, body and Brain-Watermark) gets the finished Context. Finished
 * results are kept briefly (`ttlMs`) and few (`maxEntries`, oldest dropped).
 *
 * One assembly has one Context id (`newId`), given to both callbacks: every 202 for it and the finished
 * Context carry the same id, so a client polling sees one Context and its Trace ends `ready`.
 */
export interface ThoroughSync {
  run(
    key: string,
    compute: (id: string) => Promise<Context>,
    processing: (id: string) => Context,
  ): Promise<Context>;
  /**
   * Drops every entry whose key starts with the prefix (a Brain's), finished or still assembling: after
   * a forget, a kept Context may cite what no longer exists and must not be served.
   */
  forget(prefix: string): void;
}

interface Entry {
  id: string;
  promise: Promise<Context>;
  done: Context | null;
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
    for (const [k, e] of entries) if (e.done && now() - e.at > ttl) entries.delete(k);
    while (entries.size > max) entries.delete(entries.keys().next().value!);
  };

  return {
    async run(key, compute, processing) {
      sweep();
      let entry = entries.get(key);
      if (entry?.done) {
        entries.delete(key);
        return entry.done;
      }
      if (!entry) {
        const id = o.newId();
        const e: Entry = { id, promise: compute(id), done: null, at: now() };
        entry = e;
        entries.set(key, e);
        e.promise.then(
          (c) => {
            e.done = c;
            e.at = now();
          },
          () => entries.delete(key),
        );
      }
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<null>((r) => {
        timer = setTimeout(() => r(null), o.syncMs);
      });
      const first = await Promise.race([entry.promise, late]);
      clearTimeout(timer);
      if (first !== null) {
        entries.delete(key);
        return first;
      }
      return processing(entry.id);
    },
    forget(prefix) {
      for (const k of [...entries.keys()]) if (k.startsWith(prefix)) entries.delete(k);
    },
  };
}
