import type { Store } from '../adapters/sqlite/store.ts';

/**
 * Group commit for the store's appends.
 *
 * With `synchronous=FULL` every commit waits for the disk, so writes that arrive together (an importer's
 * requests in flight, several agents at once) would each pay a flush of their own: 3,000 chat messages
 * imported 8 requests at a time were 3,000 commits. Writes given to `run` in one turn of the event loop
 * run together in one transaction instead, each in a savepoint of its own, and each caller hears back
 * only once that transaction has committed. The engine answers only once the commit is also on disk
 * (wal-sync.ts: the fsync runs off the event loop, so the groups that commit meanwhile share the next).
 *
 * A write that throws rolls back its own savepoint and rejects its own caller; the others commit. When
 * the commit itself fails (the disk is full, say), or a write's failure ended the whole transaction
 * (an I/O error), every write of the group rejects, and none happened: the writes after it are not run.
 */
export interface WriteGroup {
  run<R>(write: () => R): Promise<R>;
  /** Commits what is waiting now (before the store closes). */
  flush(): void;
}

/** Writes in one transaction at most: an import's burst is cut so the event loop is never held long. */
const defaultMaxGroup = 256;

interface Waiting {
  write: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

export function createWriteGroup(store: Store, maxGroup = defaultMaxGroup): WriteGroup {
  let waiting: Waiting[] = [];
  let scheduled: NodeJS.Immediate | null = null;

  const commit = (group: Waiting[]) => {
    const outcomes: Outcome[] = [];
    try {
      store.tx(() => {
        for (const w of group) {
          try {
            outcomes.push({ ok: true, value: store.tx(w.write) });
          } catch (error) {
            // The failure ended the whole transaction, not only its savepoint: SQLite rolls it back
            // itself on an I/O error, and on a full disk or memory when the statement kept no journal
            // of its own. Running the rest would commit each alone, outside the group, while the
            // group's COMMIT failed and told their callers they had not: the group ends here.
            if (!store.db.inTransaction) throw error;
            outcomes.push({ ok: false, error });
          }
        }
      });
    } catch (error) {
      // A COMMIT that failed can leave the transaction open; every later write would nest inside it.
      if (store.db.inTransaction) {
        try {
          store.db.exec('ROLLBACK');
        } catch {
          // Gone already.
        }
      }
      for (const w of group) w.reject(error);
      return;
    }
    group.forEach((w, i) => {
      const o = outcomes[i]!;
      if (o.ok) w.resolve(o.value);
      else w.reject(o.error);
    });
  };

  const commitNext = () => {
    const group = waiting.slice(0, maxGroup);
    waiting = waiting.slice(group.length);
    commit(group);
  };

  /**
   * One group per turn of the event loop, so a long burst lets other requests in between groups. The
   * group waits for a unit of work open now (store.exclusive): its transaction is the group's own.
   */
  const tick = () =>
    void store.exclusive(() => {
      scheduled = null;
      // Flushed meanwhile.
      if (waiting.length === 0) return;
      commitNext();
      if (waiting.length > 0) scheduled = setImmediate(tick);
    });

  const flush = () => {
    if (scheduled) clearImmediate(scheduled);
    scheduled = null;
    while (waiting.length > 0) commitNext();
  };

  return {
    run: <R>(write: () => R) =>
      new Promise<R>((resolve, reject) => {
        waiting.push({ write, resolve: resolve as (value: unknown) => void, reject });
        // After this turn's I/O callbacks: every request that arrived with this one is in the group.
        scheduled ??= setImmediate(tick);
      }),
    flush,
  };
}
