import type { DeriveFailureRepository } from '../../ports/index.ts';
import type { Store } from './store.ts';

/**
 * One Brain's failed derivation jobs over SQLite (derive_failures); a failure goes with its Record or
 * Memory by foreign key.
 */
export function sqliteDeriveFailures(store: Store, brainUid: string): DeriveFailureRepository {
  return {
    async record(f) {
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
    async clearRecord(recordId) {
      store.run('DELETE FROM derive_failures WHERE record_id = ? AND brain_uid = ?', recordId, brainUid);
    },
    async clearMemory(memoryId) {
      store.run('DELETE FROM derive_failures WHERE memory_id = ? AND brain_uid = ?', memoryId, brainUid);
    },
  };
}
