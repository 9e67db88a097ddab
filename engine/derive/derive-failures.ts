import { shortened } from '../errors/shown-value.ts';
import type { DeriveFailureRepository, QueuedJob } from '../ports/index.ts';

/** A job that failed on every attempt: kept for Census (`derivation_failed`) instead of vanishing. */
export async function recordDeriveFailure(
  failures: DeriveFailureRepository,
  job: QueuedJob,
  error: unknown,
  at: string,
): Promise<void> {
  const recordId = job.job === 'derive' ? job.recordId : null;
  if (recordId !== null) await failures.clearRecord(recordId);
  await clearDeriveFailure(failures, job);
  await failures.record({
    job: job.job,
    record_id: recordId,
    memory_id: job.job === 'rederive' ? job.memoryId : null,
    error: shortened(String(error)),
    attempts: job.attempts + 1,
    failed_at: at,
  });
}

/**
 * The job's Memory re-derived after all: an earlier failure of it no longer stands. (A Record's derive
 * job runs once; a Record is derived again only by the upgrade pass, which clears its failure.)
 */
export async function clearDeriveFailure(failures: DeriveFailureRepository, job: QueuedJob): Promise<void> {
  if (job.job === 'rederive') await failures.clearMemory(job.memoryId);
}
