import { settleLineage } from '../derive/settle-lineage.ts';
import { recordRemoval } from '../adapters/sqlite/memory-removals.ts';
import type { LocalCtx } from './local-ctx.ts';

export interface ForgottenCounts {
  /** Memories deleted because every Record supporting them was forgotten. */
  deleted: number;
  /** Memories that keep other support: hidden and queued for re-derivation from the survivors. */
  pending: number;
  /** The Brain's sequence after the deletion. */
  seq: number;
}

/**
 * Deletes Records and cascades, inside the caller's transaction: a Memory cited only by Records of
 * this set is deleted; one that keeps other support becomes pending re-derivation (hidden from every
 * read, re-derived in the background after `rederiveDelayMs`); every lineage the set touched
 * (citations, retractions, revisions) is settled again so what it had closed re-opens. The Records'
 * full-text rows go with them (FTS5 secure-delete); retrieval-index and vector rows go by trigger.
 * Each Memory deleted or made pending leaves a tombstone (id and step only) for delta reads.
 * The caller checkpoints the WAL after the transaction commits.
 */
export function forgetRecordRows(
  ctx: LocalCtx,
  brainUid: string,
  recordIds: readonly string[],
): ForgottenCounts {
  const { store } = ctx;
  const seq = store.nextSeq(brainUid);
  const setIds = JSON.stringify(recordIds);
  const cited = new Map<string, { lineage: string; fromSet: number }>();
  for (const id of recordIds) {
    for (const m of store.all<{ id: string; lineage: string }>(
      'SELECT m.id, m.lineage FROM citations c JOIN memories m ON m.id = c.memory_id WHERE c.record_id = ?',
      id,
    )) {
      const entry = cited.get(m.id) ?? { lineage: m.lineage, fromSet: 0 };
      entry.fromSet += 1;
      cited.set(m.id, entry);
    }
  }
  const lineages = new Set<string>();
  let deleted = 0;
  let pending = 0;
  const due = ctx.clock().getTime() + ctx.rederiveDelayMs;
  for (const [memoryId, m] of cited) {
    lineages.add(m.lineage);
    const total = store.get<{ c: number }>(
      'SELECT count(*) AS c FROM citations WHERE memory_id = ?',
      memoryId,
    )!.c;
    if (total - m.fromSet === 0) {
      recordRemoval(store, brainUid, memoryId, seq, 'deleted');
      store.run('DELETE FROM memories WHERE id = ?', memoryId);
      deleted += 1;
      continue;
    }
    recordRemoval(store, brainUid, memoryId, seq, 'pending_rederivation');
    store.run('UPDATE memories SET pending = 1, seq = ? WHERE id = ?', seq, memoryId);
    store.run(
      'DELETE FROM citations WHERE memory_id = ? AND record_id IN (SELECT value FROM json_each(?))',
      memoryId,
      setIds,
    );
    store.run(
      "INSERT INTO derive_queue (brain_uid, job, memory_id, record_seq, not_before_ms) VALUES (?, 'rederive', ?, ?, ?)",
      brainUid,
      memoryId,
      seq,
      due,
    );
    pending += 1;
  }
  for (const id of recordIds) {
    for (const m of store.all<{ lineage: string }>(
      'SELECT lineage FROM memories WHERE retracted_by = ? OR revised_by = ?',
      id,
      id,
    )) {
      lineages.add(m.lineage);
    }
    store.run('DELETE FROM records WHERE id = ?', id);
  }
  for (const l of lineages) settleLineage(store, l, seq);
  return { deleted, pending, seq };
}
