/** A derivation job: derive a new Record, or derive again a Memory that lost some support. */
export type DeriveJob =
  | { job: 'derive'; brainUid: string; recordId: string; recordSeq: number }
  | { job: 'rederive'; brainUid: string; memoryId: string; recordSeq: number; notBeforeMs: number };

/** A job as the queue holds it: `n` is its place, which completing it names. */
export type QueuedJob = DeriveJob & { n: number };

/**
 * The queue of derivation jobs. Enqueued in the unit of work of the write that makes the job (so a
 * Record is never committed without its job); claimed by one worker at a time. Today's SQLite adapter
 * guarantees one worker by the data dir's lock (one process); another adapter must claim with a lease.
 */
export interface JobQueue {
  enqueue(job: DeriveJob): Promise<void>;
  /** Up to `limit` jobs due at `nowMs`, oldest first, not handed to another claim meanwhile. */
  claim(limit: number, nowMs: number): Promise<QueuedJob[]>;
  /** Removes jobs done (in the unit of work that wrote their result). */
  complete(ns: readonly number[]): Promise<void>;
  /** The earliest time a job not yet due becomes due, or null. */
  nextDueMs(): Promise<number | null>;
  /** The step of the oldest Record still waiting for derivation in a Brain (a watermark waits for it). */
  oldestPendingSeq(brainUid: string): Promise<number | null>;
}
