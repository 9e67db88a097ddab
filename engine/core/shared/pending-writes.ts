/**
 * The writes an engine has accepted and not yet answered. An engine's close() waits for them before it
 * closes the storage under them: a write accepted just before close() may still be reading or counting
 * tokens, not yet in the batch or transaction a close would commit or drain.
 */
export interface PendingWrites {
  /** Counts `write` as pending until it settles, and returns it. */
  track<T>(write: Promise<T>): Promise<T>;
  /** Resolves once every write tracked so far has settled, whichever way. */
  settled(): Promise<void>;
}

export function pendingWrites(): PendingWrites {
  const pending = new Set<Promise<unknown>>();
  return {
    track(write) {
      pending.add(write);
      const done = () => void pending.delete(write);
      write.then(done, done);
      return write;
    },
    settled: async () => {
      await Promise.allSettled(pending);
    },
  };
}

/** An engine's operation wrapper: refuses once closed, and answers once what it did may be answered. */
export type Op = <A extends unknown[], R>(fn: (...args: A) => R) => (...args: A) => Promise<Awaited<R>>;

/**
 * Operations as writes: each counted among `writing` until it settles, then, whichever way it settled,
 * `after` (the engine starts the background work a write may have queued).
 */
export function writeOps(op: Op, writing: PendingWrites, after: () => void): Op {
  return <A extends unknown[], R>(fn: (...args: A) => R) => {
    const run = op(fn);
    return async (...args: A): Promise<Awaited<R>> => {
      try {
        return await writing.track(run(...args));
      } finally {
        after();
      }
    };
  };
}
