/** A derivation job: derive a new Record, or derive again a Memory that lost some support. */
export type DeriveJob =
  | { job: 'derive'; brainUid: string; recordId: string; recordSeq: number }
  | { job: 'rederive'; brainUid: string; memoryId: string; recordSeq: number; notBeforeMs: number };

/** A job as the queue holds it: `n` is its place, which completing it names; `attempts` failed tries so far. */
export type QueuedJob = DeriveJob & { n: number; attempts: number };

/**
 * A job as a claim hands it out. `lease` is the claim's token: when its lease ends (milliseconds), as
 * the queue recorded it. A claim made after this lease ended records a later end (leases are longer
 * than 0), so the token tells a late worker's claim from the one that took the job over. It is not
 * unique across a `release`: the same worker may claim the job again within the millisecond with the
 * same token, which is harmless, as a worker that released a job no longer acts on that claim.
 */
export type ClaimedJob = QueuedJob & { lease: number };

/** What completing, retrying or releasing a job names: the job and the claim that holds it. */
export type JobClaim = Pick<ClaimedJob, 'n' | 'lease'>;

/**
 * The queue of derivation jobs. Enqueued in the unit of work of the write that makes the job (so a
 * Record is never committed without its job). A claim leases jobs: until the lease ends, no other
 * claim (in this process or another) gets them; a worker that dies mid-job leaves its jobs to the next
 * claim after the lease. The SQLite adapter has one process by the data dir's lock and may hand out
 * leases in memory; a server adapter claims with `FOR UPDATE SKIP LOCKED` and a lease column.
 */
export interface JobQueue {
  enqueue(job: DeriveJob): Promise<void>;
  /**
   * Up to `limit` jobs due at `nowMs` and not leased, oldest first, leased for `leaseMs` (> 0); none of
   * the Brains `besides` (Brains the worker put off a moment: their Records wait for an earlier one
   * another claim holds).
   */
  claim(limit: number, nowMs: number, leaseMs: number, besides?: readonly string[]): Promise<ClaimedJob[]>;
  /**
   * Removes jobs done, in the unit of work that wrote their result. Rejects with `LeaseLost`
   * (core/derive/queued-job.ts) when any of them is no longer held by the claim named (its lease
   * ended and another claim took it, or it is gone): the unit of work then rolls back, so a worker
   * whose lease ran out mid-job commits nothing and the job's new holder's result stands. An
   * adapter whose calls take effect when made (SQLite's) throws from the call itself.
   */
  complete(claims: readonly JobClaim[]): Promise<void>;
  /**
   * In a unit of work, before the jobs of a batch run: keeps these claimed jobs to this unit's
   * transaction until it ends, so that none is taken over meanwhile and completing them may wait to
   * the end of the transaction (a storage of round trips removes them in one statement). A job already
   * taken over is refused by `complete` as before. A storage whose calls take effect when made does
   * nothing.
   */
  hold(claims: readonly JobClaim[]): Promise<void>;
  /**
   * A job that failed: its lease ends and it is due again at `dueMs`, with one more attempt counted.
   * A job another claim holds now is left as it is.
   */
  retry(claim: JobClaim, dueMs: number): Promise<void>;
  /**
   * Ends the leases of jobs claimed but not run (a worker stopping), due again at once. Jobs another
   * claim holds now are left as they are.
   */
  release(claims: readonly JobClaim[]): Promise<void>;
  /**
   * In a unit of work of the Brain: the step of its earliest Record still waiting for its derivation,
   * besides the jobs `besides` (a batch's own), or null. A Record whose derivation failed (`attempts`
   * over 0: tried again later, or never) is left out. The derive worker derives no later Record of the
   * Brain before it, whichever claim holds it (derive-worker.ts).
   */
  earliestWaiting(brainUid: string, besides: readonly number[]): Promise<number | null>;
  /**
   * The earliest time a job becomes claimable, or null when none waits: at or before `nowMs` when one
   * is due and not leased (a worker asks this to know whether to claim now or set a timer).
   */
  nextDueMs(nowMs: number): Promise<number | null>;
  /** The step of the oldest Record still waiting for derivation in a Brain (a watermark waits for it). */
  oldestPendingSeq(brainUid: string): Promise<number | null>;
}
