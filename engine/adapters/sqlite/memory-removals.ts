import { shareableSql } from './memory-view.ts';
import type { Store } from './store.ts';

/** Why a Memory left the served set: the `reason` of a delta read's `removed` entry. */
export type RemovalReason = 'deleted' | 'pending_rederivation';

/**
 * Writes the tombstone a delta read reports as `removed`: Memory `memoryId` left the served set at
 * sequence step `seq`. Call it inside the transaction that deletes the Memory or marks it pending,
 * before its row or citations change (whether it was served on a hosted deployment is read from
 * them). Holds the opaque id and the step only, never text. A later removal of the same Memory
 * replaces the row (one per id); `shareable` only ever widens, so a hosted reader that was served
 * the Memory at any point is told it went.
 */
export function recordRemoval(
  store: Store,
  brainUid: string,
  memoryId: string,
  seq: number,
  reason: RemovalReason,
  /** Hosted readers are told even though the Memory is no longer shareable: it was, until this step. */
  wasShareable = false,
): void {
  store.run(
    `INSERT INTO memory_removals (memory_id, brain_uid, seq, reason, shareable)
     SELECT m.id, ?, ?, ?, ${wasShareable ? '1' : shareableSql('m')} FROM memories m WHERE m.id = ?
     ON CONFLICT (memory_id) DO UPDATE SET
       seq = excluded.seq, reason = excluded.reason, shareable = max(shareable, excluded.shareable)`,
    brainUid,
    seq,
    reason,
    memoryId,
  );
}
