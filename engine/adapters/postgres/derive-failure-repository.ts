import type { DeriveFailureRepository } from '../../ports/index.ts';
import type { PgQueryable } from './client.ts';

/**
 * One Brain's failed derivation jobs over PostgreSQL (derive_failures), as the SQLite adapter's; a
 * failure goes with its Record or Memory by foreign key.
 */
export function pgDeriveFailures(q: PgQueryable, brainUid: string): DeriveFailureRepository {
  return {
    async record(f) {
      await q.query(
        `INSERT INTO derive_failures (brain_uid, job, record_id, memory_id, error, attempts, failed_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [brainUid, f.job, f.record_id, f.memory_id, f.error, f.attempts, f.failed_at],
      );
    },
    async clearRecord(recordId) {
      await q.query('DELETE FROM derive_failures WHERE brain_uid = $1 AND record_id = $2', [
        brainUid,
        recordId,
      ]);
    },
    async clearMemory(memoryId) {
      await q.query('DELETE FROM derive_failures WHERE brain_uid = $1 AND memory_id = $2', [
        brainUid,
        memoryId,
      ]);
    },
  };
}
