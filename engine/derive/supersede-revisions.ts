import type { Store } from '../adapters/sqlite/store.ts';
import { settleLineage } from './settle-lineage.ts';

/**
 * A Record carrying (source.name, external_id) is a newer revision of the item older Records with
 * the same pair described. Memories supported only by those older revisions, and not re-derived from
 * this one, are superseded by it (closed at its occurred_at). Call after the Record's claims are
 * admitted, in the same transaction.
 */
export function supersedeOlderRevisions(
  store: Store,
  brainUid: string,
  record: { id: string; n: number; sourceName: string | null; externalId: string | null },
  seq: number,
): number {
  if (record.externalId === null) return 0;
  // Older revisions first, through the (brain, source, external id) index: a fresh import has none,
  // so the common case costs one index probe instead of a scan of every Memory in the Brain.
  const older = store.all<{ id: string }>(
    `SELECT id FROM records INDEXED BY records_external
     WHERE brain_uid = ? AND source_name IS ? AND external_id = ? AND n < ?`,
    brainUid,
    record.sourceName,
    record.externalId,
    record.n,
  );
  if (older.length === 0) return 0;
  const stale = store.all<{ id: string; lineage: string }>(
    `SELECT DISTINCT m.id, m.lineage FROM citations c JOIN memories m ON m.id = c.memory_id
     WHERE c.record_id IN (SELECT value FROM json_each(?)) AND m.revised_by IS NULL
       AND NOT EXISTS (SELECT 1 FROM citations keep JOIN records k ON k.id = keep.record_id
                       WHERE keep.memory_id = m.id
                         AND NOT (k.n < ? AND k.external_id IS ? AND k.source_name IS ?))`,
    JSON.stringify(older.map((r) => r.id)),
    record.n,
    record.externalId,
    record.sourceName,
  );
  const lineages = new Set<string>();
  for (const m of stale) {
    store.run('UPDATE memories SET revised_by = ? WHERE id = ?', record.id, m.id);
    lineages.add(m.lineage);
  }
  for (const l of lineages) settleLineage(store, l, seq);
  return stale.length;
}
