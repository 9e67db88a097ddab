import type { RemovalReason, TombstoneRepository } from '../../ports/index.ts';
import type { PgQueryable } from './client.ts';

/**
 * One Brain's tombstones over PostgreSQL (memory_removals: one row per Memory, opaque id and step
 * only, never text), as the SQLite adapter's: a later removal moves the row, `shareable` only widens,
 * and a read after a boundary is ordered by step, then id bytewise.
 */
export function pgTombstones(q: PgQueryable, brainUid: string): TombstoneRepository {
  return {
    async record(memoryId, seq, reason, shareable) {
      await q.query(
        `INSERT INTO memory_removals AS m (brain_uid, memory_id, seq, reason, shareable) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (brain_uid, memory_id) DO UPDATE SET
           seq = excluded.seq, reason = excluded.reason, shareable = m.shareable OR excluded.shareable`,
        [brainUid, memoryId, seq, reason, shareable],
      );
    },
    async clear(memoryId) {
      await q.query('DELETE FROM memory_removals WHERE brain_uid = $1 AND memory_id = $2', [
        brainUid,
        memoryId,
      ]);
    },
    since: async (afterSeq, limit, opts) =>
      // LIMIT NULL is no limit. memory_id is COLLATE "C" (migration 003), so the row comparison is
      // bytewise, as the order.
      (
        await q.query<{ memory_id: string; seq: number; reason: RemovalReason }>(
          `SELECT memory_id, seq, reason FROM memory_removals
           WHERE brain_uid = $1 AND ${opts.afterId !== undefined ? '(seq, memory_id) > ($2, $4)' : 'seq > $2'}
             ${opts.shareableOnly ? ' AND shareable' : ''}
           ORDER BY seq, memory_id COLLATE "C" LIMIT $3`,
          [brainUid, afterSeq, limit ?? null, ...(opts.afterId !== undefined ? [opts.afterId] : [])],
        )
      ).rows,
  };
}
