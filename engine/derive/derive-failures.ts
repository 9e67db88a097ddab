import { shortened } from '../errors/shown-value.ts';
import type { Store } from '../adapters/sqlite/store.ts';
import type { QueuedJob } from '../ports/index.ts';

/** A job that failed on every attempt: kept for Census (`derivation_failed`) instead of vanishing. */
export function recordDeriveFailure(store: Store, job: QueuedJob, error: unknown, at: string): void {
  const recordId = job.job === 'derive' ? job.recordId : null;
  if (recordId !== null) clearRecordFailure(store, recordId);
  clearDeriveFailure(store, job);
  store.run(
    `INSERT INTO derive_failures (brain_uid, job, record_id, memory_id, error, attempts, failed_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
    job.brainUid,
    job.job,
    recordId,
    job.job === 'rederive' ? job.memoryId : null,
    shortened(String(error)),
    job.attempts + 1,
    at,
  );
}

/**
 * The job's Memory re-derived after all: an earlier failure of it no longer stands. (A Record's derive
 * job runs once; a Record is derived again only by the upgrade pass, which clears its failure.)
 */
export function clearDeriveFailure(store: Store, job: QueuedJob): void {
  if (job.job === 'rederive') store.run('DELETE FROM derive_failures WHERE memory_id = ?', job.memoryId);
}

/** The Record derived again by newer rules: a failure of its first derivation no longer stands. */
export function clearRecordFailure(store: Store, recordId: string): void {
  store.run('DELETE FROM derive_failures WHERE record_id = ?', recordId);
}
