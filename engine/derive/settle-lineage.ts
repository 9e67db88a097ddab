import type { SqliteMemoriesSync } from '../adapters/sqlite/memory-repository.ts';
import { settlement } from '../core/derive/settle-lineage.ts';

/**
 * Settles one lineage (core/derive/settle-lineage.ts) and writes only what changed, moving those
 * versions to step `seq`. Returns the number of versions changed.
 */
export function settleLineage(
  memories: Pick<SqliteMemoriesSync, 'settling' | 'update'>,
  lineage: string,
  seq: number,
): number {
  const changed = settlement(memories.settling(lineage));
  for (const c of changed) memories.update(c.id, { ...c.lifecycle, seq });
  return changed.length;
}
