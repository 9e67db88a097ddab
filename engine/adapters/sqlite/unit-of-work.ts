import { MnemoError } from '../../errors/mnemo-error.ts';
import type { BrainSequence, BrainUnitOfWork, MemoryReads, UnitOptions } from '../../ports/index.ts';
import { sqliteIdempotency } from './idempotency-repository.ts';
import { sqliteMemories } from './memory-repository.ts';
import { sqliteObjects } from './object-repository.ts';
import { sqliteRecords } from './record-repository.ts';
import type { Store } from './store.ts';
import { sqliteTombstones } from './tombstone-repository.ts';

/**
 * What a unit of work over SQLite holds so far: the Memories' reads (their writes still run in SQL in
 * derivation and the forget cascade); jobs join as they move here.
 */
export type SqliteUnitOfWork = Pick<
  BrainUnitOfWork,
  'brainUid' | 'sequence' | 'records' | 'objects' | 'idempotency' | 'tombstones'
> & { readonly memories: MemoryReads };

/** `Storage.write` and `Storage.read` over SQLite, for the repositories above. */
export interface SqliteUnits {
  /**
   * One unit of work of one Brain: all of it commits, or none (store.unit: one at a time). It rejects
   * with brain_not_found, running nothing, when the Brain is gone by the time it starts. With `batch`
   * it shares one transaction with the batched units of its turn, in a savepoint (write-batches.ts).
   */
  write<T>(brainUid: string, work: (uow: SqliteUnitOfWork) => Promise<T>, opts?: UnitOptions): Promise<T>;
  /** One consistent snapshot of a Brain (brain_not_found when it is gone); a write inside it throws. */
  read<T>(brainUid: string, work: (uow: SqliteUnitOfWork) => Promise<T>): Promise<T>;
}

const gone = () => new MnemoError('brain_not_found', 'brain_id: the Brain was forgotten');

/**
 * Units of work over one store. Repository calls run synchronously on the store's one connection,
 * inside the unit's transaction, and resolve at once; the unit holds the store's lock from `BEGIN` to
 * `COMMIT`, so a unit's awaits never let another write in (docs/architecture.md).
 */
export function sqliteUnits(store: Store): SqliteUnits {
  const over = (brainUid: string): SqliteUnitOfWork => {
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
    };
  };
  // The Brain is checked inside the unit's transaction: an operation resolves its Brain before the
  // unit starts, and a forgetBrain queued ahead of the unit may land in between.
  const open =
    (mode: 'write' | 'read') =>
    <T>(brainUid: string, work: (uow: SqliteUnitOfWork) => Promise<T>, opts?: UnitOptions): Promise<T> =>
      store.unit(
        mode,
        async () => {
          if (!store.get('SELECT 1 FROM brains WHERE uid = ?', brainUid)) throw gone();
          return work(over(brainUid));
        },
        opts,
      );
  return { write: open('write'), read: open('read') };
}
