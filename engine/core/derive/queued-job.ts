import type { JobClaim, QueuedJob } from '../../ports/index.ts';

/** A derivation job as every adapter's table holds it (SQLite's derive_queue, PostgreSQL's derive_jobs). */
export interface JobRow {
  n: number;
  brain_uid: string;
  job: 'derive' | 'rederive';
  record_id: string | null;
  /** A rederive job's Memory (its row goes with the Memory). */
  memory_id: string | null;
  record_seq: number;
  not_before_ms: number;
  attempts: number;
}

export function queuedJob(r: JobRow): QueuedJob {
  return r.job === 'derive'
    ? {
        job: 'derive',
        brainUid: r.brain_uid,
        recordId: r.record_id!,
        recordSeq: r.record_seq,
        n: r.n,
        attempts: r.attempts,
      }
    : {
        job: 'rederive',
        brainUid: r.brain_uid,
        memoryId: r.memory_id!,
        recordSeq: r.record_seq,
        notBeforeMs: r.not_before_ms,
        n: r.n,
        attempts: r.attempts,
      };
}

/**
 * A job's completion was refused: the claim named no longer holds it (its lease ended and another
 * claim took it, or it is gone). Thrown inside the unit of work that wrote the job's result, so that
 * result rolls back; the worker then leaves the job to its holder.
 */
export class LeaseLost extends Error {
  override readonly name = 'LeaseLost';
  constructor(readonly claims: readonly JobClaim[]) {
    super(`job ${claims.map((c) => c.n).join(', ')}: no longer held by this claim (its lease ended)`);
  }
}
