import type { SqliteSyncRepositories } from '../adapters/sqlite/unit-of-work.ts';
import type { RemovalReason } from '../ports/index.ts';

/**
 * Writes the tombstone a delta read reports as `removed`: Memory `memoryId` left the served set at
 * step `seq`. Call it before the Memory's row or citations change: whether a hosted reader was served
 * it is read from them (`wasShareable`: it was, until this step, whatever they say now).
 */
export function recordRemoval(
  repos: Pick<SqliteSyncRepositories, 'memories' | 'tombstones'>,
  memoryId: string,
  seq: number,
  reason: RemovalReason,
  wasShareable = false,
): void {
  repos.tombstones.record(memoryId, seq, reason, wasShareable || repos.memories.shareable(memoryId));
}
