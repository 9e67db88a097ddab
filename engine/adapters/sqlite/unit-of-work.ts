import { speakersByFirstName, type SpeakersByFirstName } from '../../core/derive/speakers-by-first-name.ts';
import { selfOf } from '../../core/shared/brain-self.ts';
import { MnemoError } from '../../errors/mnemo-error.ts';
import type { BrainRow, BrainSequence, BrainUnitOfWork, JobQueue, UnitOptions } from '../../ports/index.ts';
import { sqliteCensusReads } from './census-reads.ts';
import { sqliteCorrectionOutcomes } from './correction-outcomes.ts';
import { sqliteContextReads } from './context-reads.ts';
import { sqliteDeriveFailures } from './derive-failure-repository.ts';
import { sqliteIdempotency } from './idempotency-repository.ts';
import { sqliteJobQueue } from './job-queue.ts';
import { messageSpeakersSince } from './message-speakers.ts';
import { sqliteMemories } from './memory-repository.ts';
import { sqliteObjects } from './object-repository.ts';
import { sqliteRecords } from './record-repository.ts';
import type { Store } from './store.ts';
import { sqliteTombstones } from './tombstone-repository.ts';

/** A write unit of work over SQLite: the whole port, jobs included. */
export type SqliteUnitOfWork = BrainUnitOfWork;
/** A read's repositories are the write's without jobs: a read unit refuses a write. */
export type SqliteReadOfWork = Omit<BrainUnitOfWork, 'jobs' | 'setBrain'>;

/** `Storage.write` and `Storage.read` over SQLite, for the repositories above. */
export interface SqliteUnits {
  /**
   * One unit of work of one Brain: all of it commits, or none (store.unit: one at a time). It rejects
   * with brain_not_found, running nothing, when the Brain is gone by the time it starts. With `batch`
   * it shares one transaction with the batched units of its turn, in a savepoint (write-batches.ts).
   */
  write<T>(brainUid: string, work: (uow: SqliteUnitOfWork) => Promise<T>, opts?: UnitOptions): Promise<T>;
  /** One consistent snapshot of a Brain (brain_not_found when it is gone); a write inside it throws. */
  read<T>(brainUid: string, work: (uow: SqliteReadOfWork) => Promise<T>): Promise<T>;
}

const gone = () => new MnemoError('brain_not_found', 'brain_id: the Brain was forgotten');

/**
 * Units of work over one store. Repository calls run synchronously on the store's one connection,
 * inside the unit's transaction, and resolve at once; the unit holds the store's lock from `BEGIN` to
 * `COMMIT`, so a unit's awaits never let another write in (docs/architecture.md).
 *
 * `queue` is the one that claims (its leases are in memory): a unit's `jobs.complete` matches the
 * claim's token against them, so a job whose lease was lost rolls back the unit that completes it.
 * Without it the units get a queue of their own, which is enough for enqueueing only. `speakers`: the
 * store's speakers by first name, shared with the thread index (local-storage.ts), so a Brain's messages
 * are read whole once per process, not once by derivation and again by the entity lane.
 */
export function sqliteUnits(
  store: Store,
  queue: JobQueue = sqliteJobQueue(store),
  speakers: SpeakersByFirstName = speakersByFirstName(),
): SqliteUnits {
  const jobs: BrainUnitOfWork['jobs'] = {
    enqueue: (job) => queue.enqueue(job),
    complete: (claims) => queue.complete(claims),
    retry: (claim, dueMs) => queue.retry(claim, dueMs),
    hold: (claims) => queue.hold(claims),
    earliestWaiting: (brainUid, besides) => queue.earliestWaiting(brainUid, besides),
  };
  const over = (brainUid: string): SqliteReadOfWork => {
    const sequence: BrainSequence = {
      next: async () => store.nextSeq(brainUid),
      current: async () => store.currentSeq(brainUid),
    };
    return {
      brainUid,
      sequence,
      records: sqliteRecords(store, brainUid),
      memories: sqliteMemories(store, brainUid),
      objects: sqliteObjects(store, brainUid),
      idempotency: sqliteIdempotency(store, brainUid),
      tombstones: sqliteTombstones(store, brainUid),
      failures: sqliteDeriveFailures(store, brainUid),
      corrections: sqliteCorrectionOutcomes(store, brainUid),
      context: sqliteContextReads(store, brainUid),
      self: async () =>
        selfOf(store.get<BrainRow>('SELECT self_type, self_name FROM brains WHERE uid = ?', brainUid)),
      speakersFirstNamed: (first, before) =>
        speakers(brainUid, first, messageSpeakersSince(store, brainUid), before),
      census: sqliteCensusReads(store, brainUid),
    };
  };
  // The Brain is checked inside the unit's transaction: an operation resolves its Brain before the
  // unit starts, and a forgetBrain queued ahead of the unit may land in between.
  const open = <T>(
    mode: 'write' | 'read',
    brainUid: string,
    work: () => Promise<T>,
    opts?: UnitOptions,
  ): Promise<T> =>
    store.unit(
      mode,
      async () => {
        if (!store.get('SELECT 1 FROM brains WHERE uid = ?', brainUid)) throw gone();
        return work();
      },
      opts,
    );
  const setBrain =
    (brainUid: string): BrainUnitOfWork['setBrain'] =>
    async ({ name, self }) => {
      if (name !== undefined) store.run('UPDATE brains SET name = ? WHERE uid = ?', name, brainUid);
      if (self !== undefined)
        store.run(
          'UPDATE brains SET self_type = ?, self_name = ? WHERE uid = ?',
          self.type,
          self.name,
          brainUid,
        );
    };
  return {
    write: (brainUid, work, opts) =>
      open('write', brainUid, () => work({ ...over(brainUid), jobs, setBrain: setBrain(brainUid) }), opts),
    read: (brainUid, work) => open('read', brainUid, () => work(over(brainUid))),
  };
}
