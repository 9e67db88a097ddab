import type { Db } from './open-database.ts';

/**
 * Group commit for write units of work (store.unit with `batch`).
 *
 * With `synchronous=FULL` every commit waits for the disk, and even without it each commit writes its
 * own WAL frames, so units that arrive together (an importer's requests in flight, several agents at
 * once) would each pay a commit of their own: 3,000 chat messages imported 8 requests at a time were
 * 3,000 commits. Units that arrive in one turn of the event loop run together in one transaction
 * instead, one after the other, each in a savepoint of its own, and each caller hears back only once
 * that transaction has committed. The engine answers only once the commit is also on disk (wal-sync.ts:
 * the fsync runs off the event loop, so the batches that commit meanwhile share the next).
 *
 * A unit that rejects rolls back its own savepoint and rejects its own caller; the others commit. When
 * the commit itself fails (the disk is full, say), or a unit's failure ended the whole transaction (an
 * I/O error), every unit of the batch rejects, and none happened: the units after it are not run.
 */
export interface WriteBatches {
  run<T>(work: () => Promise<T>): Promise<T>;
  /** Runs what is waiting now and resolves once it is committed (before the store closes). */
  flush(): Promise<void>;
}

export interface BatchHooks {
  db: Db;
  /** The store's lock (store-mutex.ts): a batch takes its turn among units and exclusive sections. */
  acquire(): Promise<() => void>;
  /** Marks a write unit open (writes from outside it are refused) and says how to run work inside it. */
  open(): <T>(work: () => Promise<T>) => Promise<T>;
  close(): void;
  /** After the batch's COMMIT. */
  committed(): void;
  maxBatch?: number | undefined;
}

/** Units in one transaction at most: an import's burst is cut so the event loop is never held long. */
const defaultMaxBatch = 256;

interface Waiting {
  work: () => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

export function createWriteBatches(hooks: BatchHooks): WriteBatches {
  const { db } = hooks;
  const maxBatch = hooks.maxBatch ?? defaultMaxBatch;
  let waiting: Waiting[] = [];
  let scheduled = false;

  const commit = async (batch: Waiting[]) => {
    const outcomes: Outcome[] = [];
    try {
      db.exec('BEGIN IMMEDIATE');
      const inside = hooks.open();
      try {
        // A unit alone (the common case: one writer) needs no savepoint: its rollback is the batch's.
        if (batch.length === 1) outcomes.push({ ok: true, value: await inside(batch[0]!.work) });
        else
          for (const w of batch) {
            db.exec('SAVEPOINT mnemo_unit');
            try {
              const value = await inside(w.work);
              db.exec('RELEASE mnemo_unit');
              outcomes.push({ ok: true, value });
            } catch (error) {
              // The failure ended the whole transaction, not only its savepoint: SQLite rolls it back
              // itself on an I/O error, and on a full disk or memory when the statement kept no
              // journal of its own. Running the rest would commit each alone, outside the batch, while
              // the batch's COMMIT failed and told their callers they had not: the batch ends here.
              if (!db.inTransaction) throw error;
              db.exec('ROLLBACK TO mnemo_unit');
              db.exec('RELEASE mnemo_unit');
              outcomes.push({ ok: false, error });
            }
          }
        db.exec('COMMIT');
      } finally {
        hooks.close();
      }
    } catch (error) {
      // A COMMIT that failed can leave the transaction open; every later write would nest inside it.
      if (db.inTransaction) {
        try {
          db.exec('ROLLBACK');
        } catch {
          // Gone already.
        }
      }
      for (const w of batch) w.reject(error);
      return;
    }
    hooks.committed();
    batch.forEach((w, i) => {
      const o = outcomes[i]!;
      if (o.ok) w.resolve(o.value);
      else w.reject(o.error);
    });
  };

  /** The next batch, once the store's lock is its own: units that arrived while it waited join it. */
  const next = async () => {
    const release = await hooks.acquire();
    try {
      scheduled = false;
      const batch = waiting.slice(0, maxBatch);
      waiting = waiting.slice(batch.length);
      if (batch.length > 0) await commit(batch);
    } finally {
      release();
    }
    // One batch per turn of the event loop, so a long burst lets other requests in between batches.
    if (waiting.length > 0) schedule();
  };

  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    // After this turn's I/O callbacks: every request that arrived with this one is in the batch.
    setImmediate(() => void next());
  };

  return {
    run: <T>(work: () => Promise<T>) =>
      new Promise<T>((resolve, reject) => {
        waiting.push({ work, resolve: resolve as (value: unknown) => void, reject });
        schedule();
      }),
    async flush() {
      while (waiting.length > 0) await next();
    },
  };
}
