import type { Store } from '../adapters/sqlite/store.ts';
import { loadBatchRecords, type QueuedJob } from './derive-jobs.ts';
import type { DerivationUpgrade } from './upgrade-derivation.ts';

export interface DeriveWorkerOptions {
  store: Store;
  run: (job: QueuedJob) => void;
  now: () => number;
  /**
   * A job failed on its own on its last attempt and left the queue, so it cannot wedge it; called inside
   * the batch's transaction, so what it writes (the failure, for Census) commits with the removal.
   */
  onError: (job: QueuedJob, error: unknown) => void;
  /** A job failed on its own and runs again after `delayMs` (attempt `attempt` of 1 + retries). */
  onJobRetry?: (job: QueuedJob, error: unknown, delayMs: number, attempt: number) => void;
  /**
   * Pauses before each further attempt of a job that failed on its own (default 1 s, then 10 s): a
   * failure that passes (a resource briefly missing) heals, one that does not is given up on.
   */
  jobRetryDelaysMs?: readonly number[];
  /**
   * A batch failed for a reason that is not its jobs' (the store was busy or could not be written):
   * it was rolled back whole, nothing was dropped, and it runs again after `delayMs`.
   */
  onRetry?: (error: unknown, delayMs: number) => void;
  /** After a batch that ran jobs has committed: what it wrote is there for others to read. */
  onCommitted?: () => void;
  /**
   * Work of the lowest priority, run in the same slices when no queued job is ready: Records derived
   * by an earlier deriver are derived again. idle() waits for it too.
   */
  upkeep?: DerivationUpgrade;
  /** Longest stretch of work before yielding the event loop. */
  sliceMs?: number;
  /** Most jobs committed in one transaction. */
  batchSize?: number;
  /**
   * After a batch that emptied the queue, how long the next one waits for jobs to gather. Each commit
   * costs about as much as the jobs in it (pages written to the WAL, and its fsync): while writes stream
   * in, one batch per write group would commit several times per write group. A write after a quiet
   * spell is derived at once.
   */
  gatherMs?: number;
}

export interface DeriveWorker {
  /** Something was enqueued: make sure a run is scheduled. */
  kick(): void;
  /** Resolves once no job is queued (delayed ones included). */
  idle(): Promise<void>;
  stop(): void;
}

/**
 * Drains the persisted derive_queue in order, in batches of one transaction each, yielding to the
 * event loop between slices so HTTP requests keep flowing. A job that throws is rolled back alone
 * (a savepoint) and tried again after a pause (jobRetryDelaysMs); after its last attempt it leaves the
 * queue through onError, so it cannot wedge it. When the store itself failed (see storeFailure), the
 * batch is rolled back and tried again later, with a growing pause, and no job is counted as failed.
 */
const retryBaseMs = 100;
export const defaultJobRetryDelaysMs: readonly number[] = [1_000, 10_000];
const retryMaxMs = 30_000;

/**
 * SQLite failures of the store rather than of a job: another connection holds the write lock (or wrote
 * since this batch began reading), the disk is full or failing, memory ran out. The same job succeeds
 * once they pass.
 */
export function storeFailure(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return (
    typeof code === 'string' &&
    /^SQLITE_(BUSY|LOCKED|FULL|IOERR|NOMEM|READONLY|PROTOCOL|INTERRUPT|CANTOPEN)(_|$)/.test(code)
  );
}

export function createDeriveWorker(opts: DeriveWorkerOptions): DeriveWorker {
  const sliceMs = opts.sliceMs ?? 20;
  const batchSize = opts.batchSize ?? 200;
  const gatherMs = opts.gatherMs ?? 25;
  const jobRetryDelaysMs = opts.jobRetryDelaysMs ?? defaultJobRetryDelaysMs;
  const { store } = opts;
  let scheduled: NodeJS.Immediate | null = null;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let waiters: (() => void)[] = [];
  /** Consecutive batches that failed on the store, and when the next may run. */
  let failures = 0;
  let pausedUntil = 0;
  let upkeepLeft = opts.upkeep !== undefined;
  /** When the last batch that ran jobs found none left: the next waits gatherMs from then. */
  let drainedAt = -Infinity;

  const next = (limit: number) =>
    store.all<QueuedJob>(
      'SELECT n, brain_uid, job, record_id, memory_id, attempts FROM derive_queue WHERE not_before_ms <= ? ORDER BY n LIMIT ?',
      opts.now(),
      limit,
    );

  // The batch waits for a unit of work open now: its transaction is its own (store.exclusive).
  // `scheduled` stays set until it runs, so no second batch is planned meanwhile.
  const tick = () => void store.exclusive(batch);
  const batch = () => {
    scheduled = null;
    if (stopped) return;
    const started = performance.now();
    let ran = 0;
    let cut = false;
    // Runs from setImmediate: a failure escaping here would be an uncaught exception, ending the
    // process with the store open and the batch lost. It pauses the worker instead.
    try {
      store.tx(() => {
        const jobs = next(batchSize);
        loadBatchRecords(store, jobs);
        cut = jobs.length === batchSize;
        if (jobs.length === 0 && upkeepLeft && opts.upkeep) {
          const step = opts.upkeep.step(() => performance.now() - started <= sliceMs);
          ran += step.changed;
          upkeepLeft = step.more;
          // The upgrade pass is a backlog of its own: its next slice runs at once, not after a gather.
          cut = upkeepLeft;
        }
        for (const job of jobs) {
          ran++;
          try {
            store.tx(() => opts.run(job));
          } catch (e) {
            // Not the job's fault: dropping it would lose its Memories. The whole batch goes back.
            if (storeFailure(e)) throw e;
            const attempt = (job.attempts ?? 0) + 1;
            const delay = jobRetryDelaysMs[attempt - 1];
            if (delay !== undefined) {
              store.run(
                'UPDATE derive_queue SET attempts = ?, not_before_ms = ? WHERE n = ?',
                attempt,
                opts.now() + delay,
                job.n,
              );
              opts.onJobRetry?.(job, e, delay, attempt);
            } else {
              opts.onError(job, e);
              store.run('DELETE FROM derive_queue WHERE n = ?', job.n);
            }
          }
          if (performance.now() - started > sliceMs) {
            cut ||= jobs.at(-1) !== job;
            break;
          }
        }
      });
    } catch (e) {
      // A failed COMMIT can leave the transaction open; every later write would nest inside it and
      // never commit. (The batch holds the store's lock, so the transaction can only be its own.)
      if (store.db.inTransaction) {
        try {
          store.db.exec('ROLLBACK');
        } catch {
          // Gone already.
        }
      }
      // What the upkeep did in this batch is gone with it: it looks again from the start.
      if (opts.upkeep) {
        opts.upkeep.reset();
        upkeepLeft = true;
      }
      pause(e);
      return;
    }
    failures = 0;
    if (ran > 0 && !cut) drainedAt = performance.now();
    if (ran > 0) opts.onCommitted?.();
    planSafely();
  };

  const pause = (e: unknown) => {
    if (stopped) return;
    failures++;
    const delay = Math.min(retryBaseMs * 2 ** (failures - 1), retryMaxMs);
    pausedUntil = performance.now() + delay;
    opts.onRetry?.(e, delay);
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      planSafely();
    }, delay);
  };

  /** plan() from a timer or an immediate: a store that fails even to be read waits like a failed batch. */
  const planSafely = () => {
    try {
      plan();
    } catch (e) {
      pause(e);
    }
  };

  const plan = () => {
    if (stopped || scheduled) return;
    // A kick (every write) must not cut a pause short, or a busy store would be retried per request.
    if (performance.now() < pausedUntil) {
      if (!timer) {
        timer = setTimeout(
          () => {
            timer = null;
            planSafely();
          },
          Math.max(1, pausedUntil - performance.now()),
        );
      }
      return;
    }
    if (next(1).length > 0 || upkeepLeft) {
      // A backlog (the last batch was cut) runs at once; so does the first job after a quiet spell.
      const gather = drainedAt + gatherMs - performance.now();
      if (gather > 0) {
        if (!timer) {
          timer = setTimeout(() => {
            timer = null;
            drainedAt = -Infinity;
            planSafely();
          }, gather);
        }
        return;
      }
      scheduled = setImmediate(tick);
      return;
    }
    const later =
      store.get<{ t: number | null }>('SELECT min(not_before_ms) AS t FROM derive_queue')?.t ?? null;
    if (later !== null) {
      if (!timer) {
        timer = setTimeout(
          () => {
            timer = null;
            planSafely();
          },
          Math.max(1, later - opts.now()),
        );
      }
      return;
    }
    const w = waiters;
    waiters = [];
    for (const resolve of w) resolve();
  };

  return {
    kick: () => {
      if (timer && performance.now() >= pausedUntil) {
        clearTimeout(timer);
        timer = null;
      }
      // Called after every write: a store that cannot even be read pauses the worker, not the write.
      planSafely();
    },
    idle: () =>
      new Promise<void>((resolve) => {
        waiters.push(resolve);
        planSafely();
      }),
    stop: () => {
      stopped = true;
      if (scheduled) clearImmediate(scheduled);
      if (timer) clearTimeout(timer);
      const w = waiters;
      waiters = [];
      for (const resolve of w) resolve();
    },
  };
}
