import type { IdempotencyEntry, IdempotencyRepository } from '../../ports/index.ts';
import { keyAhead, type UnitTx } from './batch-tx.ts';
import type { PgQueryable } from './client.ts';

/**
 * One Brain's Idempotency-Keys over PostgreSQL. The row references what the key wrote (a Record or an
 * Object version) with ON DELETE CASCADE, so forgetting that forgets the key, as in SQLite. In a write
 * (`deferred`, BatchTx) a new key is queued with the Record it names, and a lookup reads the table
 * around the queue and the queue itself: a key used twice in one transaction is found the second time.
 * A key the batch read ahead (BatchTx.keysRead) is answered from that.
 */
export function pgIdempotency(
  q: PgQueryable,
  brainUid: string,
  deferred?: Pick<UnitTx, 'defer' | 'queued' | 'readAround' | 'keysAhead'>,
): IdempotencyRepository {
  return {
    async find(operation, key) {
      // Columns as BatchTx queues them: brain_uid, operation, key, body_hash, record_id, object_n.
      const queued =
        deferred
          ?.queued('idempotency')
          .find((v) => v[0] === brainUid && v[1] === operation && v[2] === key) ??
        deferred?.keysAhead.get(keyAhead(operation, key));
      if (queued === null) return null;
      if (queued) {
        const [, , , bodyHash, recordId, objectN] = queued as [
          string,
          string,
          string,
          string,
          string | null,
          number | null,
        ];
        return entryOf(bodyHash, recordId, objectN);
      }
      const r = await (deferred ? deferred.readAround.bind(deferred) : q.query.bind(q))<{
        body_hash: string;
        record_id: string | null;
        object_n: number | null;
      }>(
        'SELECT body_hash, record_id, object_n FROM idempotency WHERE brain_uid = $1 AND operation = $2 AND key = $3',
        [brainUid, operation, key],
      );
      const row = r.rows[0];
      return row ? entryOf(row.body_hash, row.record_id, row.object_n) : null;
    },
    async remember(operation, key, entry) {
      const values = [
        brainUid,
        operation,
        key,
        entry.bodyHash,
        'record' in entry.target ? entry.target.record : null,
        'objectN' in entry.target ? entry.target.objectN : null,
      ];
      if (deferred) deferred.defer('idempotency', values);
      else
        await q.query(
          `INSERT INTO idempotency (brain_uid, operation, key, body_hash, record_id, object_n)
           VALUES ($1, $2, $3, $4, $5, $6)`,
          values,
        );
    },
  };
}

/** A key's entry from its columns: it names a Record or an Object version. */
const entryOf = (bodyHash: string, recordId: string | null, objectN: number | null): IdempotencyEntry => ({
  bodyHash,
  target: recordId !== null ? { record: recordId } : { objectN: objectN! },
});
