import type { BrainSequence, BrainUnitOfWork } from '../../ports/index.ts';
import { sqliteIdempotency } from './idempotency-repository.ts';
import { sqliteObjects } from './object-repository.ts';
import type { Store } from './store.ts';
import { sqliteTombstones } from './tombstone-repository.ts';

/** What a unit of work over SQLite holds so far; records, memories and jobs join as they move here. */
export type SqliteUnitOfWork = Pick<
  BrainUnitOfWork,
  'brainUid' | 'sequence' | 'objects' | 'idempotency' | 'tombstones'
>;

/** `Storage.write` and `Storage.read` over SQLite, for the repositories above. */
export interface SqliteUnits {
  /** One unit of work of one Brain: all of it commits, or none (store.unit: one at a time). */
  write<T>(brainUid: string, work: (uow: SqliteUnitOfWork) => Promise<T>): Promise<T>;
  /** One consistent snapshot of a Brain; a write inside it throws. */
  read<T>(brainUid: string, work: (uow: SqliteUnitOfWork) => Promise<T>): Promise<T>;
}

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
      objects: sqliteObjects(store, brainUid),
      idempotency: sqliteIdempotency(store, brainUid),
      tombstones: sqliteTombstones(store, brainUid),
    };
  };
  return {
    write: (brainUid, work) => store.unit('write', () => work(over(brainUid))),
    read: (brainUid, work) => store.unit('read', () => work(over(brainUid))),
  };
}
