import { selfOf } from '../../core/shared/brain-self.ts';
import { MnemoError } from '../../errors/mnemo-error.ts';
import type { BrainRow, BrainSequence, BrainUnitOfWork, UnitOptions } from '../../ports/index.ts';
import type { PgClient, PgQueryable } from './client.ts';
import { pgCensusReads } from './census-reads.ts';
import { pgContextReads } from './context-reads.ts';
import { pgDeriveFailures } from './derive-failure-repository.ts';
import { pgIdempotency } from './idempotency-repository.ts';
import { pgJobWrites } from './job-queue.ts';
import { pgMemories } from './memory-repository.ts';
import { pgObjects } from './object-repository.ts';
import { pgRecords } from './record-repository.ts';
import { pgTombstones } from './tombstone-repository.ts';

/** A Brain's unit of work over PostgreSQL: every repository of the port. */
export type PgUnitOfWork = BrainUnitOfWork;
/** A read's repositories are the write's (without jobs): the read-only transaction refuses a write. */
export type PgReadOfWork = Omit<PgUnitOfWork, 'jobs'>;

function sequenceOf(tx: PgQueryable, brainUid: string, writable: boolean): BrainSequence {
  return {
    async next() {
      if (!writable) throw new Error('BrainSequence.next: a read takes no step of the sequence');
      // Row-locked until COMMIT: the next writer of this Brain waits here, so steps commit in order and
      // a reader that sees a step sees every step before it.
      const r = await tx.query<{ seq: number }>(
        'UPDATE brains SET seq = seq + 1 WHERE uid = $1 RETURNING seq',
        [brainUid],
      );
      return r.rows[0]!.seq;
    },
    async current() {
      const r = await tx.query<{ seq: number }>('SELECT seq FROM brains WHERE uid = $1', [brainUid]);
      return r.rows[0]!.seq;
    },
  };
}

function repositories(tx: PgQueryable, brainUid: string, writable: boolean): PgReadOfWork {
  return {
    brainUid,
    sequence: sequenceOf(tx, brainUid, writable),
    records: pgRecords(tx, brainUid),
    memories: pgMemories(tx, brainUid),
    objects: pgObjects(tx, brainUid),
    idempotency: pgIdempotency(tx, brainUid),
    tombstones: pgTombstones(tx, brainUid),
    failures: pgDeriveFailures(tx, brainUid),
    context: pgContextReads(tx, brainUid),
    async self() {
      const r = await tx.query<BrainRow>('SELECT self_type, self_name FROM brains WHERE uid = $1', [
        brainUid,
      ]);
      return selfOf(r.rows[0]);
    },
    census: pgCensusReads(tx, brainUid),
  };
}

export interface PgUnitsOfWork {
  /**
   * One database transaction of one Brain, committed when `work` resolves and rolled back when it
   * rejects. It starts by locking the Brain's row, so units of work of one Brain run one at a time
   * across every process (others wait for the COMMIT); units of work of different Brains run at once.
   * A `batch` unit is not batched: each transaction commits alone, which the port allows. In this
   * process, one Brain's units start in the order they were called, one after another: a batch of
   * them submitted together keeps its order and holds one connection, not one each waiting on the row.
   */
  write<T>(brainUid: string, work: (uow: PgUnitOfWork) => Promise<T>, opts?: UnitOptions): Promise<T>;
  /** One read-only snapshot of the database (REPEATABLE READ): a read that pages or joins sees one state. */
  read<T>(brainUid: string, work: (uow: PgReadOfWork) => Promise<T>): Promise<T>;
}

const gone = () => new MnemoError('brain_not_found', 'brain_id: the Brain was forgotten');

export function pgUnitsOfWork(client: PgClient): PgUnitsOfWork {
  /** Per Brain, the end of the last unit called: the next starts after it. */
  const tails = new Map<string, Promise<unknown>>();
  const inTurn = <T>(brainUid: string, fn: () => Promise<T>): Promise<T> => {
    const run = (tails.get(brainUid) ?? Promise.resolve()).then(fn, fn);
    const tail = run.catch(() => {});
    tails.set(brainUid, tail);
    void tail.then(() => {
      if (tails.get(brainUid) === tail) tails.delete(brainUid);
    });
    return run;
  };
  return {
    write: (brainUid, work) =>
      inTurn(brainUid, () =>
        client.transaction(async (tx) => {
          const locked = await tx.query('SELECT 1 FROM brains WHERE uid = $1 FOR UPDATE', [brainUid]);
          if (locked.rows.length === 0) throw gone();
          return work({ ...repositories(tx, brainUid, true), jobs: pgJobWrites(tx) });
        }),
      ),
    read: (brainUid, work) =>
      client.transaction(
        async (tx) => {
          const found = await tx.query('SELECT 1 FROM brains WHERE uid = $1', [brainUid]);
          if (found.rows.length === 0) throw gone();
          return work(repositories(tx, brainUid, false));
        },
        { isolation: 'repeatable read', readOnly: true },
      ),
  };
}
