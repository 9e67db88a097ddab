import type { MemoryRepository } from '../ports/index.ts';
import { settlement } from '../core/derive/settle-lineage.ts';

/**
 * Settles one lineage (core/derive/settle-lineage.ts) and writes only what changed, moving those
 * versions to step `seq`. Returns the number of versions changed.
 */
export async function settleLineage(
  memories: Pick<MemoryRepository, 'settling' | 'update'>,
  lineage: string,
  seq: number,
): Promise<number> {
  const changed = settlement(await memories.settling(lineage));
  for (const c of changed) await memories.update(c.id, { ...c.lifecycle, seq });
  return changed.length;
}
