import type { IdempotencyEntry, IdempotencyRepository } from '../../ports/index.ts';
import type { Store } from './store.ts';

/**
 * One Brain's Idempotency-Keys over SQLite. The row references what the key wrote (a Record or an
 * Object version) with ON DELETE CASCADE, so forgetting that forgets the key.
 */
export function sqliteIdempotency(store: Store, brainUid: string): IdempotencyRepository {
  return {
    async find(operation, key) {
      const row = store.get<{ body_hash: string; record_id: string | null; object_n: number | null }>(
        'SELECT body_hash, record_id, object_n FROM idempotency WHERE brain_uid = ? AND operation = ? AND key = ?',
        brainUid,
        operation,
        key,
      );
      if (!row) return null;
      const target: IdempotencyEntry['target'] =
        row.record_id !== null ? { record: row.record_id } : { objectN: row.object_n! };
      return { bodyHash: row.body_hash, target };
    },
    async remember(operation, key, entry) {
      store.run(
        'INSERT INTO idempotency (brain_uid, operation, key, body_hash, record_id, object_n) VALUES (?, ?, ?, ?, ?, ?)',
        brainUid,
        operation,
        key,
        entry.bodyHash,
        'record' in entry.target ? entry.target.record : null,
        'objectN' in entry.target ? entry.target.objectN : null,
      );
    },
  };
}
