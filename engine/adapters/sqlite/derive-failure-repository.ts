import type { DeriveFailureRepository } from '../../ports/index.ts';
import type { Store } from './store.ts';

type Failure = Parameters<DeriveFailureRepository['record']>[0];

/** The repository as synchronous calls, for the derive worker inside its batch's transaction. */
export interface SqliteDeriveFailuresSync {
  record(failure: Failure): void;
  clearRecord(recordId: string): void;
  clearMemory(memoryId: string): void;
}

/**
 * One Brain's failed derivation jobs over SQLite (derive_failures); a failure goes with its Record or
 * Memory by foreign key.
 */
export function sqliteDeriveFailures(
  store: Store,
  brainUid: string,
): DeriveFailureRepository & { readonly sync: SqliteDeriveFailuresSync } {
  const sync: SqliteDeriveFailuresSync = {
    record(f) {
      store.run(
        `INSERT INTO derive_failures (brain_uid, job, record_id, memory_id, error, attempts, failed_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
        brainUid,
        f.job,
        f.record_id,
        f.memory_id,
        f.error,
        f.attempts,
        f.failed_at,
      );
    },
    clearRecord(recordId) {
      store.run('DELETE FROM derive_failures WHERE record_id = ? AND brain_uid = ?', recordId, brainUid);
    },
    clearMemory(memoryId) {
      store.run('DELETE FROM derive_failures WHERE memory_id = ? AND brain_uid = ?', memoryId, brainUid);
    },
  };
  return {
    sync,
    record: async (f) => sync.record(f),
    clearRecord: async (recordId) => sync.clearRecord(recordId),
    clearMemory: async (memoryId) => sync.clearMemory(memoryId),
  };
}
