import type { RemovalReason, TombstoneRepository } from '../../ports/index.ts';
import type { Store } from './store.ts';

/**
 * One Brain's tombstones over SQLite (memory_removals: one row per Memory id, opaque id and step only,
 * never text). A later removal of the same Memory moves its row; `shareable` only ever widens, so a
 * hosted reader that was served the Memory at any point is told it went.
 */
export function sqliteTombstones(store: Store, brainUid: string): TombstoneRepository {
  return {
    async record(memoryId, seq, reason, shareable) {
      store.run(
        `INSERT INTO memory_removals (memory_id, brain_uid, seq, reason, shareable) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (memory_id) DO UPDATE SET
           seq = excluded.seq, reason = excluded.reason, shareable = max(shareable, excluded.shareable)`,
        memoryId,
        brainUid,
        seq,
        reason,
        shareable ? 1 : 0,
      );
    },
    async clear(memoryId) {
      store.run('DELETE FROM memory_removals WHERE memory_id = ? AND brain_uid = ?', memoryId, brainUid);
    },
    since: async (afterSeq, limit, opts) =>
      store.all<{ memory_id: string; seq: number; reason: RemovalReason }>(
        `SELECT memory_id, seq, reason FROM memory_removals
         WHERE brain_uid = ? AND ${opts.afterId !== undefined ? '(seq, memory_id) > (?, ?)' : 'seq > ?'}
         ${opts.shareableOnly ? 'AND shareable = 1' : ''}
         ORDER BY seq, memory_id${limit !== undefined ? ' LIMIT ?' : ''}`,
        brainUid,
        afterSeq,
        ...(opts.afterId !== undefined ? [opts.afterId] : []),
        ...(limit !== undefined ? [limit] : []),
      ),
  };
}
