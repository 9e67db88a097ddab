import type { Store } from '../store/store.ts';
import type { QueuedJob } from './derive-jobs.ts';

export interface DeriveWorkerOptions {
  store: Store;
  run: (job: QueuedJob) => void;
  now: () => number;
  onError: (job: QueuedJob, error: unknown) => void;
  /** After a batch that ran jobs has committed: what it wrote is there for others to read. */
  onCommitted?: () => void;
  /** Longest stretch of work before yielding the event loop. */
  sliceMs?: number;
  /** Most jobs committed in one transaction. */
  batchSize?: number;
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
 * (a savepoint), logged and dropped so it cannot wedge the queue.
 */
export function createDeriveWorker(opts: DeriveWorkerOptions): DeriveWorker {
  const sliceMs = opts.sliceMs ?? 20;
  const batchSize = opts.batchSize ?? 200;
  const { store } = opts;
  let scheduled: NodeJS.Immediate | null = null;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let waiters: (() => void)[] = [];

  const next = (limit: number) =>
    store.all<QueuedJob>(
      'SELECT n, brain_uid, job, record_id, memory_id FROM derive_queue WHERE not_before_ms <= ? ORDER BY n LIMIT ?',
      opts.now(),
      limit,
    );

  const tick = () => {
    scheduled = null;
    if (stopped) return;
    const started = performance.now();
    let ran = 0;
    store.tx(() => {
      for (const job of next(batchSize)) {
        ran++;
        try {
          store.tx(() => opts.run(job));
        } catch (e) {
          opts.onError(job, e);
          store.run('DELETE FROM derive_queue WHERE n = ?', job.n);
        }
        if (performance.now() - started > sliceMs) break;
      }
    });
    if (ran > 0) opts.onCommitted?.();
    plan();
  };

  const plan = () => {
    if (stopped || scheduled) return;
    if (next(1).length > 0) {
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
            plan();
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
      if (timer) {
        clearTimeout(timer);
        timer = null;
      }
      plan();
    },
    idle: () =>
      new Promise<void>((resolve) => {
        waiters.push(resolve);
        plan();
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
