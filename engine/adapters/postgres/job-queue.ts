import { LeaseLost, queuedJob, type JobRow } from '../../core/derive/queued-job.ts';
import type { DeriveJob, JobClaim, JobQueue } from '../../ports/index.ts';
import type { UnitTx } from './batch-tx.ts';
import type { PgQueryable } from './client.ts';

/**
 * What a unit of work does to the queue: its jobs commit with it, and a lost lease rolls it back. In a
 * write (`deferred`, BatchTx) a new job is queued and written with the others of its transaction, and
 * a held job's removal too.
 */
export function pgJobWrites(
  q: PgQueryable,
  deferred?: Pick<UnitTx, 'defer' | 'readAround' | 'held' | 'deferDone'>,
  /** The process queuing the jobs (JobAffinity.writer); null: any process's to claim at once. */
  writer: string | null = null,
): Pick<JobQueue, 'enqueue' | 'complete' | 'retry' | 'hold' | 'earliestWaiting'> {
  const completeNow = async (claims: readonly JobClaim[]) => {
    if (claims.length === 0) return;
    const r = await q.query<{ n: number }>(
      `DELETE FROM derive_jobs j USING unnest($1::bigint[], $2::bigint[]) AS c(n, lease)
       WHERE j.n = c.n AND j.leased_until_ms = c.lease RETURNING j.n`,
      [claims.map((c) => c.n), claims.map((c) => c.lease)],
    );
    const done = new Set(r.rows.map((row) => row.n));
    const lost = claims.filter((c) => !done.has(c.n));
    if (lost.length > 0) throw new LeaseLost(lost);
  };
  return {
    async enqueue(job: DeriveJob) {
      const values =
        job.job === 'derive'
          ? [job.brainUid, 'derive', job.recordId, null, job.recordSeq, 0, writer]
          : [job.brainUid, 'rederive', null, job.memoryId, job.recordSeq, job.notBeforeMs, writer];
      if (deferred) deferred.defer('derive_jobs', values);
      else
        await q.query(
          `INSERT INTO derive_jobs (brain_uid, job, record_id, memory_id, record_seq, not_before_ms, writer)
           VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          values,
        );
    },
    // Deletes only rows whose lease is still the claim's. Against a claim taking the row at once: the
    // DELETE's row lock makes that claim's SKIP LOCKED pass the row by, and a DELETE that waits for a
    // claim's lock reads the row again after it commits, finding the new lease and leaving it. A held
    // job's lease was read under the transaction's lock, which keeps it: its removal is queued.
    async complete(claims) {
      if (!deferred || !claims.every((c) => deferred.held.has(c.n))) return completeNow(claims);
      const lost = claims.filter((c) => deferred.held.get(c.n) !== c.lease);
      if (lost.length > 0) throw new LeaseLost(lost);
      for (const c of claims) deferred.deferDone(c);
    },
    // Locked outside any unit's savepoint (readAround): a unit rolled back would release its row locks.
    async hold(claims) {
      if (!deferred || claims.length === 0) return;
      const r = await deferred.readAround<{ n: number; leased_until_ms: number | null }>(
        `SELECT n, leased_until_ms FROM derive_jobs WHERE n = ANY($1::bigint[]) FOR UPDATE`,
        [claims.map((c) => c.n)],
      );
      const leases = new Map(r.rows.map((row) => [row.n, row.leased_until_ms]));
      for (const c of claims) deferred.held.set(c.n, leases.get(c.n) === c.lease ? c.lease : null);
    },
    async retry(claim, dueMs) {
      await q.query(
        `UPDATE derive_jobs SET leased_until_ms = NULL, not_before_ms = $3, attempts = attempts + 1
         WHERE n = $1 AND leased_until_ms = $2`,
        [claim.n, claim.lease, dueMs],
      );
    },
    // Read in the unit, after its Brain's row lock: a job another process derived under that lock is
    // gone once its transaction committed, and one it holds still is here.
    async earliestWaiting(brainUid, besides) {
      const r = await q.query<{ s: number }>(
        `SELECT record_seq AS s FROM derive_jobs
         WHERE brain_uid = $1 AND job = 'derive' AND attempts = 0 AND n <> ALL($2::bigint[])
         ORDER BY record_seq LIMIT 1`,
        [brainUid, [...besides]],
      );
      const s = r.rows[0]?.s;
      return s === undefined ? null : Number(s);
    },
  };
}

/**
 * Whose a queued job is first. A process's writes wake its own derive worker, so without this every
 * process claims every due job, and a process deriving another's Brain takes turns on that Brain's row
 * with the process writing it: processes a proxy gives different Brains would still contend on each
 * one. A job is its writer's alone for `othersAfterMs` after it was queued (by the database's clock),
 * then anyone's: a writer that died or fell behind leaves its jobs to the others, and one that stops
 * hands them over at once (`handOver`). Leases still keep a claimed job to one process.
 */
export interface JobAffinity {
  /** This process, as derive_jobs.writer names it. */
  writer: string;
  /** How long another process leaves a job to its writer. */
  othersAfterMs: number;
}

/**
 * Claimable by this process: due, not leased, and its own, nobody's, or waited for long enough (a
 * queue with no affinity, $4 null, claims any).
 */
const mayClaim = `not_before_ms <= $1 AND (leased_until_ms IS NULL OR leased_until_ms <= $1)
  AND ($4::text IS NULL OR writer IS NULL OR writer = $4
       OR queued_at + make_interval(secs => $5 / 1000.0) <= now())`;

/**
 * The derivation queue over PostgreSQL, shared by every process on the database. A claim locks the
 * due rows it takes with FOR UPDATE SKIP LOCKED (a concurrent claim passes them by instead of waiting,
 * and cannot take them) and leases them in the same statement: until `leased_until_ms`, no claim
 * anywhere takes them again; after it, any claim may (their worker died or stalled).
 */
export function pgJobQueue(
  q: PgQueryable,
  affinity: JobAffinity | null = null,
): JobQueue & { handOver(): Promise<void> } {
  const writer = affinity?.writer ?? null;
  const othersAfterMs = affinity?.othersAfterMs ?? 0;
  return {
    ...pgJobWrites(q, undefined, writer),
    async claim(limit, nowMs, leaseMs, besides = []) {
      if (!(leaseMs > 0)) throw new RangeError(`claim: leaseMs must be more than 0, not ${leaseMs}`);
      const r = await q.query<JobRow & { leased_until_ms: number }>(
        `WITH due AS (
           SELECT brain_uid, n FROM derive_jobs
           WHERE ${mayClaim} AND brain_uid <> ALL($6::text[])
           ORDER BY n LIMIT $2
           FOR UPDATE SKIP LOCKED)
         UPDATE derive_jobs j SET leased_until_ms = $1::bigint + $3::bigint
         FROM due WHERE j.brain_uid = due.brain_uid AND j.n = due.n
         RETURNING j.n, j.brain_uid, j.job, j.record_id, j.memory_id, j.record_seq, j.not_before_ms, j.attempts,
                   j.leased_until_ms`,
        [nowMs, limit, leaseMs, writer, othersAfterMs, [...besides]],
      );
      return r.rows
        .sort((a, b) => a.n - b.n)
        .map((row) => ({ ...queuedJob(row), lease: row.leased_until_ms }));
    },
    async release(claims) {
      if (claims.length > 0)
        await q.query(
          `UPDATE derive_jobs j SET leased_until_ms = NULL FROM unnest($1::bigint[], $2::bigint[]) AS c(n, lease)
           WHERE j.n = c.n AND j.leased_until_ms = c.lease`,
          [claims.map((c) => c.n), claims.map((c) => c.lease)],
        );
    },
    async nextDueMs(nowMs) {
      const r = await q.query<{ t: number | null }>(
        // Due jobs count too: the answer is then at or before nowMs, which tells the worker to claim now.
        // Another writer's job counts from when `mayClaim` lets this process take it: the wait left on
        // the database's clock, added to the worker's (a claim at that time finds it, not a busy loop).
        `SELECT min(greatest(not_before_ms, coalesce(leased_until_ms, 0),
           CASE WHEN $1::text IS NULL OR writer IS NULL OR writer = $1 THEN 0
                ELSE $3::bigint + greatest(0, ceil(extract(epoch FROM
                       queued_at + make_interval(secs => $2 / 1000.0) - now()) * 1000))::bigint END)) AS t
         FROM derive_jobs`,
        [writer, othersAfterMs, Math.round(nowMs)],
      );
      return r.rows[0]?.t ?? null;
    },
    /** Before this process stops: the jobs it queued and has not claimed are anyone's at once. */
    async handOver() {
      if (writer !== null) await q.query('UPDATE derive_jobs SET writer = NULL WHERE writer = $1', [writer]);
    },
    async oldestPendingSeq(brainUid) {
      const r = await q.query<{ s: number | null }>(
        "SELECT min(record_seq) AS s FROM derive_jobs WHERE brain_uid = $1 AND job = 'derive'",
        [brainUid],
      );
      return r.rows[0]?.s ?? null;
    },
  };
}
