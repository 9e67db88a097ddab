/**
 * The store's one lock, first come first served: a unit of work holds it from its BEGIN to its COMMIT
 * across its awaits (a batch of write units, write-batches.ts, from its BEGIN to its COMMIT), a
 * synchronous section (the derive worker, the indexer) while it runs. A holder hands it straight to the next waiter, so nothing slips in between.
 */
export interface StoreMutex {
  /** Resolves once the lock is this caller's, with the function that gives it back (call it once). */
  acquire(): Promise<() => void>;
  /** Runs `fn` holding the lock: at once when it is free, else after everything queued before it. */
  runSync<T>(fn: () => T): Promise<T>;
}

export function createStoreMutex(): StoreMutex {
  let held = false;
  const queue: (() => void)[] = [];
  const release = () => {
    const next = queue.shift();
    if (next) next();
    else held = false;
  };
  const acquire = (): Promise<() => void> => {
    if (!held) {
      held = true;
      return Promise.resolve(once(release));
    }
    return new Promise((resolve) => queue.push(() => resolve(once(release))));
  };
  return {
    acquire,
    runSync<T>(fn: () => T): Promise<T> {
      if (!held) {
        // Synchronous code cannot be interleaved: taking and giving back the lock around it only keeps
        // a unit of work from starting in the middle (one started by fn itself waits for its end).
        held = true;
        try {
          return Promise.resolve(fn());
        } catch (e) {
          return Promise.reject(e);
        } finally {
          release();
        }
      }
      return acquire().then((give) => {
        try {
          return fn();
        } finally {
          give();
        }
      });
    },
  };
}

/** A release that runs once: a second call would hand the lock to a waiter while another holds it. */
function once(release: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    release();
  };
}
