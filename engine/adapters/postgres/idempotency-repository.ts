import type { IdempotencyEntry, IdempotencyRepository } from '../../ports/index.ts';
import type { PgQueryable } from './client.ts';

/**
 * One Brain's Idempotency-Keys over PostgreSQL. The row references what the key wrote (a Record or an
 * Object version) with ON DELETE CASCADE, so forgetting that forgets the key, as in SQLite.
 */
export function pgIdempotency(q: PgQueryable, brainUid: string): IdempotencyRepository {
  return {
    async find(operation, key) {
      const r = await q.query<{ body_hash: string; record_id: string | null; object_n: number | null }>(
        'SELECT body_hash, record_id, object_n FROM idempotency WHERE brain_uid = $1 AND operation = $2 AND key = $3',
        [brainUid, operation, key],
      );
      const row = r.rows[0];
      if (!row) return null;
      const target: IdempotencyEntry['target'] =
        row.record_id !== null ? { record: row.record_id } : { objectN: row.object_n! };
      return { bodyHash: row.body_hash, target };
    },
    async remember(operation, key, entry) {
      await q.query(
        `INSERT INTO idempotency (brain_uid, operation, key, body_hash, record_id, object_n)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [
          brainUid,
          operation,
          key,
          entry.bodyHash,
          'record' in entry.target ? entry.target.record : null,
          'objectN' in entry.target ? entry.target.objectN : null,
        ],
      );
    },
  };
}
