import { queuedJob, type JobRow } from '../../core/derive/queued-job.ts';
import type { DeriveJob, JobQueue } from '../../ports/index.ts';
import type { Store } from './store.ts';

const columns = 'n, brain_uid, job, record_id, memory_id, record_seq, not_before_ms, attempts';

/**
 * Does `work` now and hands back its settled result: a failure throws from the call itself, not as a
 * rejection, so a call made inside a store.tx is part of that transaction and its failure rolls it back.
 */
const atOnce = <T>(work: () => T): Promise<T> => Promise.resolve(work());

/**
 * The job queue over `derive_queue` (the JobQueue port). Every method runs its statements when called
 * (atOnce): the derive worker's batch is one synchronous transaction (better-sqlite3's) and makes its
 * calls inside it, until units of work are asynchronous (docs/architecture.md).
 *
 * Leases are kept in memory, not in the table: the data dir's lock admits one process, so no other
 * claimer could see them, and a process that dies takes its leases with it (its jobs are claimable as
 * soon as the store is opened again, which is when a lease column would have let them go anyway).
 */
export function sqliteJobQueue(store: Store): JobQueue {
  /** Leased job -> when its lease ends. */
  const leases = new Map<number, number>();
  /** The jobs leased at `nowMs` as a JSON array for json_each, or null when none is. */
  const leased = (nowMs: number): string | null => {
    for (const [n, until] of leases) if (until <= nowMs) leases.delete(n);
    return leases.size === 0 ? null : JSON.stringify([...leases.keys()]);
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

    claim: (limit, nowMs, leaseMs) =>
      atOnce(() => {
        const held = leased(nowMs);
        const rows =
          held === null
            ? store.all<JobRow>(
                `SELECT ${columns} FROM derive_queue WHERE not_before_ms <= ? ORDER BY n LIMIT ?`,
                nowMs,
                limit,
              )
            : store.all<JobRow>(
                `SELECT ${columns} FROM derive_queue
                 WHERE not_before_ms <= ? AND n NOT IN (SELECT value FROM json_each(?)) ORDER BY n LIMIT ?`,
                nowMs,
                held,
                limit,
              );
        for (const r of rows) leases.set(r.n, nowMs + leaseMs);
        return rows.map(queuedJob);
      }),

    complete: (ns) =>
      atOnce(() => {
        for (const n of ns) {
          store.run('DELETE FROM derive_queue WHERE n = ?', n);
          leases.delete(n);
        }
      }),

    retry: (n, dueMs) =>
      atOnce(() => {
        store.run('UPDATE derive_queue SET attempts = attempts + 1, not_before_ms = ? WHERE n = ?', dueMs, n);
        leases.delete(n);
      }),

    // A job claimed was due, and not running leaves it so: ending its lease is all there is to do.
    release: (ns) =>
      atOnce(() => {
        for (const n of ns) leases.delete(n);
      }),

    nextDueMs: (nowMs) =>
      atOnce(() => {
        const held = leased(nowMs);
        if (held === null) {
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
          held,
        )?.t;
        // A leased job whose row is gone (its Record forgotten meanwhile) waits for nothing.
        const live = store.all<{ n: number }>(
          'SELECT n FROM derive_queue WHERE n IN (SELECT value FROM json_each(?))',
          held,
        );
        const ends = live.map(({ n }) => leases.get(n)!);
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
