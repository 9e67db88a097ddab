import { settleLineage } from '../derive/settle-lineage.ts';
import { recordRemoval } from '../derive/memory-removal.ts';
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
 * Deletes Records and cascades, inside the caller's transaction (a unit of work's, or a sync pull's),
 * through the Brain's synchronous repositories: a Memory cited only by Records of this set is
 * deleted; one that keeps other support becomes pending re-derivation (hidden from every read,
 * re-derived in the background after `rederiveDelayMs`); every lineage the set touched (citations,
 * retractions, revisions) is settled again so what it had closed re-opens. The Records' full-text rows
 * go with them (FTS5 secure-delete); retrieval-index and vector rows go by trigger. Each Memory deleted
 * or made pending leaves a tombstone (id and step only) for delta reads.
 * The caller checkpoints the WAL after the transaction commits.
 */
export function forgetRecordRows(
  ctx: LocalCtx,
  brainUid: string,
  recordIds: readonly string[],
): ForgottenCounts {
  const repos = ctx.units.sync(brainUid);
  const { memories } = repos;
  const seq = repos.nextSeq();
  const lineages = new Set<string>();
  let deleted = 0;
  let pending = 0;
  const due = ctx.clock().getTime() + ctx.rederiveDelayMs;
  for (const m of memories.citing(recordIds)) {
    lineages.add(m.lineage);
    if (m.remaining === 0) {
      recordRemoval(repos, m.id, seq, 'deleted');
      memories.remove([m.id]);
      deleted += 1;
      continue;
    }
    recordRemoval(repos, m.id, seq, 'pending_rederivation');
    memories.update(m.id, { pending: true, seq });
    memories.dropCitations(m.id, recordIds);
    repos.enqueue({ job: 'rederive', brainUid, memoryId: m.id, recordSeq: seq, notBeforeMs: due });
    pending += 1;
  }
  for (const id of recordIds) {
    for (const lineage of memories.namedBy(id)) lineages.add(lineage);
    repos.records.remove([id]);
  }
  for (const l of lineages) settleLineage(memories, l, seq);
  return { deleted, pending, seq };
}
