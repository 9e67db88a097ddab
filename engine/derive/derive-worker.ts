import { AsyncResource } from 'node:async_hooks';
import { LeaseLost } from '../core/derive/queued-job.ts';
import { MnemoError } from '../errors/mnemo-error.ts';
import type { BrainUnitOfWork, ClaimedJob, JobQueue, QueuedJob, Storage } from '../ports/index.ts';
import type { DerivationUpgrade } from './upgrade-derivation.ts';

export interface DeriveWorkerOptions {
  queue: JobQueue;
  /**
   * Storage.write. Each job runs in a unit of work of its Brain, asking to batch: a batch's units are
   * submitted together, and the storage runs one Brain's in the order submitted (SQLite commits them
   * together, each in a savepoint; PostgreSQL one transaction each).
   */
  write: Storage['write'];
  /** A failure of the store rather than of a job (busy, full, failing): the batch goes back whole. */
  storeFailure: (e: unknown) => boolean;
  /**
   * Records whose derivation waits for an earlier Record of their Brain that another claim holds (a
   * process busy or dead with it), each told once: they run after it.
   */
  onWait?: (jobs: readonly QueuedJob[]) => void;
  /**
   * How long a Record waiting for an earlier one of its Brain is left unclaimed by this worker before
   * it looks again (default 250 ms); the worker takes the jobs after it meanwhile.
   */
  orderWaitMs?: number;
  /** Runs one job in its Brain's unit of work; the worker completes it there after. */
  run: (uow: BrainUnitOfWork, job: QueuedJob) => Promise<void>;
  /**
   * Called in the unit of the first job of each Brain a batch runs, before that job, with every job of
   * the batch of that Brain: to read at once what they will each read, and hold the jobs (a storage of
   * round trips).
   */
  prepare?: (uow: BrainUnitOfWork, jobs: readonly ClaimedJob[]) => Promise<void>;
  /**
   * Called with a batch's jobs once claimed, before any of their units of work: work for them that
   * needs no unit held (the rules run on the derive thread, early-claims.ts). The batch's time slice
   * starts after it.
   */
  beforeUnits?: (jobs: readonly ClaimedJob[]) => Promise<void>;
  now: () => number;
  /**
   * A job failed on its own on its last attempt and leaves the queue, so it cannot wedge it; called in a
   * unit of work of the job's Brain that also completes it, so what it writes (the failure, for Census)
   * commits with the removal.
   */
  onError: (uow: BrainUnitOfWork, job: QueuedJob, error: unknown) => Promise<void>;
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
  upkeep?: Pick<DerivationUpgrade, 'step' | 'reset'> & Partial<Pick<DerivationUpgrade, 'ahead'>>;
  /** Longest stretch of work before yielding the event loop. */
  sliceMs?: number;
  /** Most jobs committed in one transaction. */
  batchSize?: number;
  /**
   * After a batch that emptied the queue, how long the next one waits for jobs to gather. Each commit
   * costs about as much as the jobs in it (pages written to the WAL, and its fsync): while writes stream
   * in, one batch per batch of writes would commit several times per batch of writes. A write after a quiet
   * spell is derived at once.
   */
  gatherMs?: number;
  /**
   * How long a claim keeps other claimers off its jobs. A batch ends every lease it took (done, retried
   * or released) before the next claim; the lease matters only if the worker dies or stalls mid-batch.
   * A job whose lease ran out and was claimed again is refused completion (LeaseLost): its savepoint
   * rolls back and the job is left to its new holder.
   */
  leaseMs?: number;
}

export interface DeriveWorker {
  /**
   * Something was enqueued: make sure a run is scheduled. `dueNow`: what the caller enqueued is due at
   * once (a new Record's derivation), so the queue is not asked when its next job is due. `upkeep`: the
   * upkeep has work again (Records listed to be derived again after it had ended).
   */
  kick(o?: { dueNow?: boolean; upkeep?: boolean }): void;
  /** Resolves once no job is queued (delayed ones included). */
  idle(): Promise<void>;
  /** Starts nothing more; resolves once the batch under way, if any, has ended. */
  stop(): Promise<void>;
}

const retryBaseMs = 100;
export const defaultJobRetryDelaysMs: readonly number[] = [1_000, 10_000];
const retryMaxMs = 30_000;

/**
 * Drains the job queue in order, in batches of one transaction each, yielding to the event loop
 * between slices so HTTP requests keep flowing. A job that throws is rolled back alone (a savepoint)
 * and tried again after a pause (jobRetryDelaysMs); after its last attempt it leaves the queue through
 * onError, so it cannot wedge it. When the store itself failed (storeFailure), the batch is rolled
 * back and tried again later, with a growing pause, and no job is counted as failed.
 */
export function createDeriveWorker(opts: DeriveWorkerOptions): DeriveWorker {
  const sliceMs = opts.sliceMs ?? 20;
  const batchSize = opts.batchSize ?? 200;
  const gatherMs = opts.gatherMs ?? 25;
  const leaseMs = opts.leaseMs ?? 60_000;
  const orderWaitMs = opts.orderWaitMs ?? 250;
  const jobRetryDelaysMs = opts.jobRetryDelaysMs ?? defaultJobRetryDelaysMs;
  const { queue } = opts;
  // Batches run in the context the worker was made in, never in a caller's: a kick from inside a
  // unit of work would otherwise make the batch's units look nested in it (the store tells units
  // apart by async context).
  const home = new AsyncResource('mnemo.derive-worker');
  // Not home.bind: Node's bind defines two deprecated accessors on every function it makes, and the
  // worker schedules one per write.
  const atHome =
    (fn: () => void): (() => void) =>
    () =>
      home.runInAsyncScope(fn);
  let scheduled: NodeJS.Immediate | null = null;
  /** A batch is between its claim and the end of its leases: no other may start. */
  let running = false;
  /** The batch under way, if any: stop() waits for it, so its storage may close after. */
  let current: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | null = null;
  /** The timer ends a gather: a kick meanwhile has nothing to add, as the batch runs when it fires. */
  let gathering = false;
  let stopped = false;
  let waiters: (() => void)[] = [];
  /** Consecutive batches that failed on the store, and when the next may run. */
  let failures = 0;
  let pausedUntil = 0;
  let upkeepLeft = opts.upkeep !== undefined;
  /**
   * Brains whose Records waited for an earlier one another claim holds, each until when
   * (performance.now(): the clock may stand still in a test) no claim of this worker takes a job of
   * theirs: meanwhile it takes other Brains' jobs, instead of the same waiting ones, or the next of
   * that Brain's backlog, each time (they would wait too).
   */
  const parked = new Map<string, number>();
  /** When only parked jobs were due: no batch runs before the first of them is due again. */
  let orderWaitUntil = 0;
  /** When the last batch that ran jobs found none left: the next waits gatherMs from then. */
  let drainedAt = -Infinity;

  /** A unit the batch did not run (out of time, or after a store failure): its job goes back. */
  class NotRun extends Error {}
  /** A derive job whose Brain has an earlier Record still to derive outside the batch: it waits. */
  class WaitsForEarlier extends Error {}
  /** Jobs told waiting (onWait), until they run: told once however often they are put off. */
  const told = new Set<number>();
  const gone = (e: unknown) => e instanceof MnemoError && e.code === 'brain_not_found';

  /**
   * Ends the leases of jobs that failed on their own: each is retried later, or on its last attempt
   * recorded (onError) and completed, in a unit of its own. Rejects on any other failure of those units.
   */
  const settle = async (failed: [ClaimedJob, unknown][]) => {
    const outcomes = await Promise.allSettled(
      failed.map(([job, e]) => {
        const attempt = job.attempts + 1;
        const delay = jobRetryDelaysMs[attempt - 1];
        if (delay !== undefined) {
          opts.onJobRetry?.(job, e, delay, attempt);
          return opts.write(job.brainUid, (uow) => uow.jobs.retry(job, opts.now() + delay), { batch: true });
        }
        return opts.write(
          job.brainUid,
          async (uow) => {
            await opts.onError(uow, job, e);
            await uow.jobs.complete([job]);
          },
          { batch: true },
        );
      }),
    );
    for (const o of outcomes)
      if (o.status === 'rejected' && !(o.reason instanceof LeaseLost) && !gone(o.reason)) throw o.reason;
  };

  const tick = async () => {
    scheduled = null;
    if (stopped) return;
    running = true;
    let started = performance.now();
    let claimed: ClaimedJob[] = [];
    /** Jobs whose lease the batch ended (done, retried, failed or lost); the rest are released after it. */
    const ended = new Set<number>();
    let ran = 0;
    let cut = false;
    // Runs from setImmediate: a failure escaping here would be an unhandled rejection, ending the
    // process with the batch lost. It pauses the worker instead.
    try {
      const parkedNow = performance.now();
      for (const [brain, until] of parked) if (until <= parkedNow) parked.delete(brain);
      claimed = await queue.claim(batchSize, opts.now(), leaseMs, [...parked.keys()]);
      if (claimed.length === 0 && parked.size > 0) orderWaitUntil = Math.min(...parked.values());
      if (stopped) {
        running = false;
        await queue.release(claimed);
        return;
      }
      cut = claimed.length === batchSize;
      if (claimed.length > 0 && opts.beforeUnits) {
        await opts.beforeUnits(claimed);
        started = performance.now();
      }
      if (claimed.length === 0 && upkeepLeft && opts.upkeep) {
        if (opts.upkeep.ahead) {
          await opts.upkeep.ahead();
          started = performance.now();
        }
        const step = await opts.upkeep.step(() => performance.now() - started <= sliceMs);
        ran += step.changed;
        upkeepLeft = step.more;
        // The upgrade pass is a backlog of its own: its next slice runs at once, not after a gather.
        cut = upkeepLeft;
      }
      let begun = 0;
      let storeFailed = false;
      /** The jobs of each Brain not yet looked at: its first unit takes them. */
      const unprepared = new Map<string, ClaimedJob[]>();
      for (const job of claimed) {
        const same = unprepared.get(job.brainUid);
        if (same) same.push(job);
        else unprepared.set(job.brainUid, [job]);
      }
      /**
       * Each Brain's earliest Record still to derive outside the batch: its later Records wait. A
       * Record is derived against every earlier Record's Memories, as written (a call-off derived
       * before its plan would find none to call off, and the plan would stay current), whoever claimed
       * the earlier one. Read in the Brain's first unit, so after another process's unit of it ended.
       */
      const waitFrom = new Map<string, number | null>();
      const waits = (job: ClaimedJob) => {
        const from = waitFrom.get(job.brainUid) ?? null;
        return job.job === 'derive' && from !== null && job.recordSeq > from;
      };
      // Submitted together, so the store may commit them together. A unit that starts after the slice
      // (and after another began: a batch always moves) or after a store failure does nothing and
      // goes back, so no job runs after one that failed on the store.
      const settled = await Promise.allSettled(
        claimed.map((job) =>
          opts.write(
            job.brainUid,
            async (uow) => {
              if (stopped || storeFailed || (begun > 0 && performance.now() - started > sliceMs))
                throw new NotRun();
              begun++;
              try {
                const jobs = unprepared.get(job.brainUid);
                if (jobs) {
                  unprepared.delete(job.brainUid);
                  const from = await uow.jobs.earliestWaiting(
                    job.brainUid,
                    jobs.map((j) => j.n),
                  );
                  waitFrom.set(job.brainUid, from);
                  const running = jobs.filter((j) => !waits(j));
                  if (running.length > 0) await opts.prepare?.(uow, running);
                }
                if (waits(job)) throw new WaitsForEarlier();
                await opts.run(uow, job);
                // Completed last: a job whose lease was lost is refused there, and what it wrote goes too.
                await uow.jobs.complete([job]);
              } catch (e) {
                if (opts.storeFailure(e)) storeFailed = true;
                throw e;
              }
            },
            { batch: true },
          ),
        ),
      );
      const failed: [ClaimedJob, unknown][] = [];
      const waiting: ClaimedJob[] = [];
      let storeError: { e: unknown } | null = null;
      for (const [i, s] of settled.entries()) {
        const job = claimed[i]!;
        const e = s.status === 'rejected' ? (s.reason as unknown) : null;
        if (e instanceof NotRun) continue;
        if (e instanceof WaitsForEarlier) {
          waiting.push(job);
          continue;
        }
        told.delete(job.n);
        if (e !== null && opts.storeFailure(e)) {
          // Not the job's fault: dropping it would lose its Memories. It goes back, counted as nothing.
          storeError ??= { e };
          continue;
        }
        ran++;
        // A lost lease: the job is its new holder's. A Brain forgotten took its jobs with it.
        if (e !== null && !(e instanceof LeaseLost) && !gone(e)) failed.push([job, e]);
        else ended.add(job.n);
      }
      if (storeError) throw storeError.e;
      if (waiting.length > 0) {
        // Given back with the jobs not run (below), and parked: the next claim takes what comes after.
        for (const j of waiting) parked.set(j.brainUid, performance.now() + orderWaitMs);
        const fresh = waiting.filter((j) => !told.has(j.n));
        // A job another process took over is not seen here again: emptied now and then, not grown.
        if (told.size > 10_000) told.clear();
        for (const j of fresh) told.add(j.n);
        if (fresh.length > 0) opts.onWait?.(fresh);
      }
      await settle(failed);
      for (const [job] of failed) ended.add(job.n);
    } catch (e) {
      // What did not end goes back as it was before the claim.
      await queue.release(claimed.filter((j) => !ended.has(j.n))).catch(() => {});
      running = false;
      // What the upkeep did may be partly undone: it looks again from the start.
      if (opts.upkeep) {
        opts.upkeep.reset();
        upkeepLeft = true;
      }
      if (ran > 0) opts.onCommitted?.();
      pause(e);
      return;
    }
    // Jobs past the slice go back before another batch may claim, so the next takes them first. A lease
    // that could not be ended lapses by itself.
    const unrun = claimed.filter((j) => !ended.has(j.n));
    if (unrun.length > 0) {
      cut = true;
      await queue.release(unrun).catch(() => {});
    }
    running = false;
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
    gathering = false;
    timer = setTimeout(
      atHome(() => {
        timer = null;
        planSafely();
      }),
      delay,
    );
  };

  /** Plans again after delayMs, unless a timer is set already; says whether this call set one. */
  const wake = (delayMs: number, then?: () => void): boolean => {
    if (timer) return false;
    timer = setTimeout(
      atHome(() => {
        timer = null;
        gathering = false;
        then?.();
        planSafely();
      }),
      delayMs,
    );
    return true;
  };

  const endGather = () => {
    drainedAt = -Infinity;
  };

  /** plan() from a timer or an immediate: a store that fails even to be read waits like a failed batch. */
  const planSafely = (dueNow = false) => {
    plan(dueNow).catch(pause);
  };

  const plan = async (dueNow = false) => {
    if (stopped || scheduled || running) return;
    // A kick (every write) must not cut a pause short, or a busy store would be retried per request.
    if (performance.now() < pausedUntil) {
      wake(Math.max(1, pausedUntil - performance.now()));
      return;
    }
    // A write's kick does cut this wait short: its Record may be another Brain's.
    if (!dueNow && performance.now() < orderWaitUntil) {
      wake(Math.max(1, orderWaitUntil - performance.now()));
      return;
    }
    const now = opts.now();
    // A job due now may have been claimed by another process meanwhile: its claim then finds none and
    // the plan after it asks the queue.
    const due = dueNow ? now : await queue.nextDueMs(now);
    // Another plan or a batch may have started while this one asked.
    if (stopped || scheduled || running) return;
    if ((due !== null && due <= now) || upkeepLeft) {
      // A backlog (the last batch was cut) runs at once; so does the first job after a quiet spell.
      const gather = drainedAt + gatherMs - performance.now();
      if (gather > 0) {
        if (wake(gather, endGather)) gathering = true;
        return;
      }
      scheduled = setImmediate(atHome(() => void (current = tick())));
      return;
    }
    if (due !== null) {
      wake(Math.max(1, due - now));
      return;
    }
    const w = waiters;
    waiters = [];
    for (const resolve of w) resolve();
  };

  return {
    kick: (o) => {
      if (o?.upkeep === true && opts.upkeep !== undefined) upkeepLeft = true;
      // While writes stream in, each would otherwise ask the queue again only to wait out the same gather.
      if (gathering) return;
      if (timer && performance.now() >= pausedUntil) {
        clearTimeout(timer);
        timer = null;
      }
      // Called after every write: a store that cannot even be read pauses the worker, not the write.
      planSafely(o?.dueNow === true);
    },
    idle: () =>
      new Promise<void>((resolve) => {
        waiters.push(resolve);
        planSafely();
      }),
    stop: async () => {
      stopped = true;
      if (scheduled) clearImmediate(scheduled);
      if (timer) clearTimeout(timer);
      gathering = false;
      const w = waiters;
      waiters = [];
      for (const resolve of w) resolve();
      await current;
    },
  };
}
