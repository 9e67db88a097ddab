import { LeaseLost, queuedJob, type JobRow } from '../../core/derive/queued-job.ts';
import type { DeriveJob, JobClaim, JobQueue } from '../../ports/index.ts';
import type { Store } from './store.ts';

const columns = 'n, brain_uid, job, record_id, memory_id, record_seq, not_before_ms, attempts';

/**
 * Does `work` now and hands back its settled result: a failure throws from the call itself, not as a
 * rejection, so a call made inside a store.tx is part of that transaction and its failure rolls it back.
 */
const atOnce = <T>(work: () => T): Promise<T> => Promise.resolve(work());

/**
 * The job queue over `derive_queue` (the JobQueue port). Every method runs its statements when called
 * (atOnce), on the store's one connection: called in a unit of work (`jobs` of sqliteUnits), that is
 * the unit's transaction, and a failure throws there and rolls the unit back.
 *
 * Leases are kept in memory, not in the table: the data dir's lock admits one process, so no other
 * claimer could see them, and a process that dies takes its leases with it (its jobs are claimable as
 * soon as the store is opened again, which is when a lease column would have let them go anyway).
 *
 * A lease stays recorded after it ends, until another claim replaces it or the job is completed,
 * retried, released or gone, as PostgreSQL's `leased_until_ms` does: a late worker whose job nobody
 * claimed meanwhile still completes it. A lease names its row by what the job is, not by `n` alone:
 * without AUTOINCREMENT, SQLite gives a new row the `n` of a deleted last one, and that row is
 * another job. `complete` ends the lease when it succeeds, so the worker calls it last in the job's
 * savepoint: a rollback after it leaves the job due at once, as a release would.
 */
export function sqliteJobQueue(store: Store): JobQueue {
  /** Job -> when the lease of its last claim ends (past ends included), and which job the row was. */
  const leases = new Map<number, { until: number; job: string }>();
  const jobOf = (r: Pick<JobRow, 'job' | 'record_id' | 'memory_id' | 'record_seq'>) =>
    JSON.stringify([r.job, r.record_id, r.memory_id, r.record_seq]);
  const rowJob = (n: number) => {
    const r = store.get<JobRow>(`SELECT ${columns} FROM derive_queue WHERE n = ?`, n);
    return r ? jobOf(r) : null;
  };
  /** The claim still holds its job: its lease is the last one recorded, on the same job's row. */
  const holds = (c: JobClaim) => {
    const lease = leases.get(c.n);
    return lease !== undefined && lease.until === c.lease && rowJob(c.n) === lease.job;
  };
  /** The jobs leased at `nowMs` as a JSON array for json_each, or null when none is. */
  const leased = (nowMs: number): string | null => {
    if (leases.size > 0) {
      // Leases of rows gone (their Record forgotten) or now another job's are forgotten.
      const rows = store.all<JobRow>(
        `SELECT ${columns} FROM derive_queue WHERE n IN (SELECT value FROM json_each(?))`,
        JSON.stringify([...leases.keys()]),
      );
      const live = new Map(rows.map((r) => [r.n, jobOf(r)]));
      for (const [n, lease] of leases) if (live.get(n) !== lease.job) leases.delete(n);
    }
    const active = [...leases].filter(([, lease]) => lease.until > nowMs).map(([n]) => n);
    return active.length === 0 ? null : JSON.stringify(active);
  };

  return {
    enqueue: (job: DeriveJob) =>
      atOnce(() => {
        if (job.job === 'derive')
          store.run(
            "INSERT INTO derive_queue (brain_uid, job, record_id, record_seq) VALUES (?, 'derive', ?, ?)",
            job.brainUid,
            job.recordId,
            job.recordSeq,
          );
        else
          store.run(
            "INSERT INTO derive_queue (brain_uid, job, memory_id, record_seq, not_before_ms) VALUES (?, 'rederive', ?, ?, ?)",
            job.brainUid,
            job.memoryId,
            job.recordSeq,
            job.notBeforeMs,
          );
      }),

    claim: (limit, nowMs, leaseMs, besides = []) =>
      atOnce(() => {
        if (!(leaseMs > 0)) throw new RangeError(`claim: leaseMs must be more than 0, not ${leaseMs}`);
        const taken = leased(nowMs);
        const brains = besides.length === 0 ? '' : 'AND brain_uid NOT IN (SELECT value FROM json_each(?))';
        const rows = store.all<JobRow>(
          `SELECT ${columns} FROM derive_queue
           WHERE not_before_ms <= ? ${taken === null ? '' : 'AND n NOT IN (SELECT value FROM json_each(?))'} ${brains}
           ORDER BY n LIMIT ?`,
          nowMs,
          ...(taken === null ? [] : [taken]),
          ...(besides.length === 0 ? [] : [JSON.stringify(besides)]),
          limit,
        );
        const until = nowMs + leaseMs;
        for (const r of rows) leases.set(r.n, { until, job: jobOf(r) });
        return rows.map((r) => ({ ...queuedJob(r), lease: until }));
      }),

    complete: (claims) =>
      atOnce(() => {
        const once = [...new Map(claims.map((c) => [c.n, c])).values()];
        const lost = once.filter((c) => !holds(c));
        if (lost.length > 0) throw new LeaseLost(lost);
        for (const c of once) {
          store.run('DELETE FROM derive_queue WHERE n = ?', c.n);
          leases.delete(c.n);
        }
      }),

    // Completing takes effect when called, and one process holds the leases: nothing to keep.
    hold: async () => {},

    retry: (claim, dueMs) =>
      atOnce(() => {
        if (!holds(claim)) return;
        store.run(
          'UPDATE derive_queue SET attempts = attempts + 1, not_before_ms = ? WHERE n = ?',
          dueMs,
          claim.n,
        );
        leases.delete(claim.n);
      }),

    // A job claimed was due, and not running leaves it so: ending its lease is all there is to do.
    release: (claims) =>
      atOnce(() => {
        for (const c of claims) if (leases.get(c.n)?.until === c.lease) leases.delete(c.n);
      }),

    earliestWaiting: (brainUid, besides) =>
      atOnce(
        () =>
          store.get<{ s: number }>(
            `SELECT record_seq AS s FROM derive_queue
             WHERE brain_uid = ? AND job = 'derive' AND attempts = 0 AND n NOT IN (SELECT value FROM json_each(?))
             ORDER BY record_seq LIMIT 1`,
            brainUid,
            JSON.stringify(besides),
          )?.s ?? null,
      ),

    nextDueMs: (nowMs) =>
      atOnce(() => {
        const taken = leased(nowMs);
        if (taken === null) {
          // Due now: the first in order will do (it stops at the first row), as the claim reads them.
          const due = store.get<{ t: number }>(
            'SELECT not_before_ms AS t FROM derive_queue WHERE not_before_ms <= ? ORDER BY n LIMIT 1',
            nowMs,
          );
          if (due) return due.t;
          return (
            store.get<{ t: number | null }>('SELECT min(not_before_ms) AS t FROM derive_queue')?.t ?? null
          );
        }
        const free = store.get<{ t: number | null }>(
          'SELECT min(not_before_ms) AS t FROM derive_queue WHERE n NOT IN (SELECT value FROM json_each(?))',
          taken,
        )?.t;
        // leased() kept only the leases of rows still there: a job forgotten meanwhile waits for nothing.
        const ends = (JSON.parse(taken) as number[]).map((n) => leases.get(n)!.until);
        const times = [...(free === null || free === undefined ? [] : [free]), ...ends];
        return times.length === 0 ? null : Math.min(...times);
      }),

    oldestPendingSeq: (brainUid) =>
      atOnce(
        () =>
          store.get<{ s: number | null }>(
            "SELECT min(record_seq) AS s FROM derive_queue WHERE brain_uid = ? AND job = 'derive'",
            brainUid,
          )?.s ?? null,
      ),
  };
}
