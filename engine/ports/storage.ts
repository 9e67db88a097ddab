import type { LexicalIndex, SlotIndex, ThreadIndex, VectorIndex } from './indexes.ts';
import type { JobQueue } from './job-queue.ts';
import type { BrainRepository } from './repositories.ts';
import type { WatermarkSecretSource } from './sequence.ts';
import type { BrainReadOfWork, BrainUnitOfWork } from './unit-of-work.ts';

/**
 * A storage backend as the engine's rules see it: units of work per Brain, the Brains themselves, the
 * search indexes and the job queue. The SQLite adapter is the first (engine/adapters/sqlite/ today, to move to
 * engine/adapters/sqlite/); every method is async even there, so a networked backend fits the same
 * shape.
 */
export interface Storage extends WatermarkSecretSource {
  readonly brains: BrainRepository;
  readonly lexical: LexicalIndex;
  readonly slots: SlotIndex;
  readonly vectors: VectorIndex;
  readonly threads: ThreadIndex;
  readonly jobs: JobQueue;
  /**
   * Runs `work` as one unit of work of one Brain: its changes commit together when it resolves and
   * none of them when it rejects. Units of work of one Brain run one at a time. The Brain is checked
   * inside the unit: one removed before it starts rejects it with brain_not_found, running nothing.
   *
   * What a caller may rely on, with or without `batch`: the promise resolves only once the unit's
   * changes are committed, and when it rejects none of them persist; a unit sees every change of the
   * units that ran before it and never another's half. A backend may commit batched units together
   * (SQLite folds those arriving in one turn of the event loop into one transaction, each in a
   * savepoint; PostgreSQL gives each its own transaction), so a batched unit may also be rejected by a
   * failure of the shared commit, its own work having succeeded, and may wait for the end of the turn.
   */
  write<T>(brainUid: string, work: (uow: BrainUnitOfWork) => Promise<T>, opts?: UnitOptions): Promise<T>;
  /**
   * Runs `work` on one consistent snapshot of a Brain (a read that pages or joins sees one state);
   * brain_not_found, as `write`, when the Brain is gone.
   */
  read<T>(brainUid: string, work: (uow: BrainReadOfWork) => Promise<T>): Promise<T>;
  /** Flushes and releases everything (the data dir's lock, for SQLite). */
  close(): Promise<void>;
}

export interface UnitOptions {
  /**
   * The unit may share its commit with others that arrive with it (group commit): for short appends
   * that arrive many at a time, whose callers gain more from fewer commits than they lose by waiting
   * for the end of the turn. Without it a unit starts as soon as the Brain is free.
   */
  batch?: boolean;
  /**
   * The Idempotency-Key the unit looks up first (`idempotency.find`): a storage of round trips reads
   * the keys of a batch's units in one statement before they run.
   */
  idempotencyKey?: { operation: string; key: string } | undefined;
}
