import type { MemoryRepository } from '../ports/index.ts';
import { settleLineage } from './settle-lineage.ts';

/**
 * A Record carrying (source.name, external_id) is a newer revision of the item older Records with
 * the same pair described. Memories supported only by those older revisions, and not re-derived from
 * this one, are superseded by it (closed at its occurred_at). Call after the Record's claims are
 * admitted, in the same transaction.
 */
export async function supersedeOlderRevisions(
  memories: MemoryRepository,
  record: { id: string; n: number; sourceName: string | null; externalId: string | null },
  seq: number,
): Promise<number> {
  if (record.externalId === null) return 0;
  const stale = await memories.onOlderRevisions({
    id: record.id,
    n: record.n,
    source_name: record.sourceName,
    external_id: record.externalId,
  });
  const lineages = new Set<string>();
  for (const m of stale) {
    await memories.update(m.id, { revised_by: record.id });
    lineages.add(m.lineage);
  }
  for (const l of lineages) await settleLineage(memories, l, seq);
  return stale.length;
}
