import type { Deriver } from '../core/derive/deriver.ts';
import { deriveContext } from './derive-context.ts';
import type { JobQueue, QueuedJob, Storage } from '../ports/index.ts';
import { clearDeriveFailure, recordDeriveFailure } from './derive-failures.ts';
import { sameStatementOf } from './admit-claims.ts';
import { runDeriveJob, type OnNamesake, type OnRestated } from './derive-jobs.ts';
import { deriverInput } from './deriver-input.ts';
import { citableClaims } from '../core/derive/citable-claims.ts';
import { WaitsForDerivation } from './waits-for-derivation.ts';
import { createDeriveWorker, type DeriveWorker, type DeriveWorkerOptions } from './derive-worker.ts';
import type { DerivationUpgrade } from './upgrade-derivation.ts';
import type { EarlyClaims } from './early-claims.ts';

/** Where derivation reports what went wrong (the engine's logger). */
export interface DerivationLog {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

export interface DerivationOptions {
  /** Units of work over the storage: each job runs in its Brain's (Storage.write). */
  write: Storage['write'];
  queue: JobQueue;
  deriver: Deriver;
  /** The same rules on the derive thread, for a batch's Records before their units (early-claims.ts). */
  early?: EarlyClaims;
  clock: () => Date;
  log: DerivationLog;
  /** The storage's own failures (busy, full, gone), after which a batch goes back whole. */
  storeFailure: (e: unknown) => boolean;
  /** A Memory's words changed in place: a storage that does not re-embed it by itself says how. */
  onRestated?: OnRestated;
  /** Pauses before a failed job's further attempts (derive-worker.ts's default otherwise). */
  jobRetryDelaysMs?: readonly number[] | undefined;
  /** The rest of the worker's options (upkeep, onCommitted, timing), as the storage needs. */
  worker?: Partial<
    Pick<DeriveWorkerOptions, 'onCommitted' | 'sliceMs' | 'batchSize' | 'gatherMs' | 'leaseMs' | 'onRetry'>
  > & {
    /** The rules' upgrade pass, which also derives again what a namesake's arrival made ambiguous. */
    upkeep?: DerivationUpgrade;
  };
}

/**
 * The derive worker over any storage: each queued job derived in a unit of work of its Brain by the
 * same rules (derive-jobs.ts), its earlier failure cleared when it succeeds, and its last failure kept
 * for Census in the unit that removes it. One per process; several processes on one PostgreSQL
 * database each run one, and the queue's leases keep a job to one of them.
 */
export function createDerivation(o: DerivationOptions): DeriveWorker {
  const nowIso = () => o.clock().toISOString();
  const upkeep = o.worker?.upkeep;
  // A namesake's first message: what named the self's first name alone before it is derived again by
  // the upkeep's pass (the rules' upgrade), in the background. Without an upkeep it stays as derived.
  const onNamesake: OnNamesake | undefined = upkeep
    ? async (uow, first, beforeSeq) => {
        if ((await upkeep.relistNaming(uow, first, beforeSeq)) > 0) worker.kick({ upkeep: true });
      }
    : undefined;
  const worker: DeriveWorker = createDeriveWorker({
    queue: o.queue,
    write: o.write,
    storeFailure: o.storeFailure,
    now: () => o.clock().getTime(),
    // Each derive job reads its Record, then looks up its claims' identical statements: the batch's
    // are read in one go each. Held, the jobs are completed with the batch's commit rather than one
    // statement each.
    prepare: async (uow, jobs) => {
      await uow.jobs.hold(jobs);
      const records = await uow.records.prefetch(
        jobs.flatMap((j) => (j.job === 'derive' ? [j.recordId] : [])),
      );
      if (records.length === 0) return;
      const inputs = records.flatMap((r) => {
        try {
          return [deriverInput(r)];
        } catch {
          return []; // That Record's own job fails on it (below).
        }
      });
      const ctx = await deriveContext(
        uow,
        inputs.map((r) => r.content),
      );
      const lookups = inputs.flatMap((r) => {
        try {
          // A lookup is a prefetch: the claims the derive thread found serve, whatever their context.
          return (o.early?.hint(r.id) ?? citableClaims(o.deriver, r, ctx)).flatMap((c) =>
            c.predicate === null ? [sameStatementOf(c)] : [],
          );
        } catch {
          // That Record's own job fails on it, alone: not the job whose unit prepares the batch.
          return [];
        }
      });
      await uow.memories.prefetchSame(lookups);
    },
    ...(o.early ? { beforeUnits: o.early.prepare } : {}),
    run: async (uow, job) => {
      await runDeriveJob(uow, o.deriver, job, nowIso, o.onRestated, onNamesake, o.early);
      await clearDeriveFailure(uow.failures, job);
      // A Memory that waited for re-derivation after a forget rests on what is left now: the pass left
      // the Records citing it listed (deferred), and reaches them at once instead of at the next start.
      if (job.job !== 'derive' && upkeep?.leftBehind() && upkeep.again()) worker.kick({ upkeep: true });
    },
    ...(o.jobRetryDelaysMs ? { jobRetryDelaysMs: o.jobRetryDelaysMs } : {}),
    onError: async (uow, job, error) => {
      await recordDeriveFailure(uow.failures, job, error, nowIso());
      o.log.error('derivation failed on every attempt; Census lists it as derivation_failed', {
        job: job.job,
        ...jobIds(job),
        attempts: job.attempts + 1,
        error: String(error),
      });
    },
    onJobRetry: (job, error, delayMs, attempt) => {
      const fields = { job: job.job, ...jobIds(job), attempt, retry_in_ms: delayMs, error: String(error) };
      if (error instanceof WaitsForDerivation)
        o.log.info('derivation waits for what the job names to be derived; it runs again', fields);
      else o.log.warn('derivation failed; it runs again', fields);
    },
    onWait: (jobs) =>
      o.log.info('derivation waits for an earlier Record of its Brain that another claim holds', {
        record_ids: jobs.map((j) => jobIds(j).record_id),
      }),
    onRetry: (error, delayMs) =>
      o.log.warn('derivation paused: the store could not take the batch; it runs again', {
        retry_in_ms: delayMs,
        error: String(error),
      }),
    ...o.worker,
  });
  return worker;
}

function jobIds(job: QueuedJob): { record_id: string | null; memory_id: string | null } {
  return job.job === 'derive'
    ? { record_id: job.recordId, memory_id: null }
    : { record_id: null, memory_id: job.memoryId };
}
