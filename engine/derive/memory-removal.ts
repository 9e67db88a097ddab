import type { BrainUnitOfWork, RemovalReason } from '../ports/index.ts';

/**
 * Writes the tombstone a delta read reports as `removed`: Memory `memoryId` left the served set at
 * step `seq`. Call it before the Memory's row or citations change: whether a hosted reader was served
 * it is read from them (`wasShareable`: it was, until this step, whatever they say now).
 */
export async function recordRemoval(
  repos: Pick<BrainUnitOfWork, 'memories' | 'tombstones'>,
  memoryId: string,
  seq: number,
  reason: RemovalReason,
  wasShareable = false,
): Promise<void> {
  const shareable = wasShareable || (await repos.memories.shareable(memoryId));
  await repos.tombstones.record(memoryId, seq, reason, shareable);
}
