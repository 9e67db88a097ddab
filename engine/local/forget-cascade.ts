import { settleLineage } from '../derive/settle-lineage.ts';
import { recordRemoval } from '../derive/memory-removal.ts';
import type { BrainUnitOfWork } from '../ports/index.ts';
import type { EngineCtx } from './local-ctx.ts';

export interface ForgottenCounts {
  /** Memories deleted because every Record supporting them was forgotten. */
  deleted: number;
  /** Memories that keep other support: hidden and queued for re-derivation from the survivors. */
  pending: number;
  /** The Brain's sequence after the deletion. */
  seq: number;
}

/**
 * Deletes Records and cascades, in the unit of work `uow` of their Brain: a Memory cited only by Records of this set is
 * deleted; one that keeps other support becomes pending re-derivation (hidden from every read,
 * re-derived in the background after `rederiveDelayMs`); every lineage the set touched (citations,
 * retractions, revisions) is settled again so what it had closed re-opens. The Records' full-text rows
 * go with them (FTS5 secure-delete); retrieval-index and vector rows go by trigger. Each Memory deleted
 * or made pending leaves a tombstone (id and step only) for delta reads.
 * The caller checkpoints the WAL after the transaction commits.
 */
export async function forgetRecordRows(
  ctx: Pick<EngineCtx, 'clock' | 'rederiveDelayMs'>,
  uow: BrainUnitOfWork,
  recordIds: readonly string[],
): Promise<ForgottenCounts> {
  const { memories, brainUid } = uow;
  const seq = await uow.sequence.next();
  const lineages = new Set<string>();
  let deleted = 0;
  let pending = 0;
  const due = ctx.clock().getTime() + ctx.rederiveDelayMs;
  for (const m of await memories.citing(recordIds)) {
    lineages.add(m.lineage);
    if (m.remaining === 0) {
      await recordRemoval(uow, m.id, seq, 'deleted');
      await memories.remove([m.id]);
      deleted += 1;
      continue;
    }
    await recordRemoval(uow, m.id, seq, 'pending_rederivation');
    await memories.update(m.id, { pending: true, seq });
    await memories.dropCitations(m.id, recordIds);
    await uow.jobs.enqueue({ job: 'rederive', brainUid, memoryId: m.id, recordSeq: seq, notBeforeMs: due });
    pending += 1;
  }
  for (const id of recordIds) {
    for (const lineage of await memories.namedBy(id)) lineages.add(lineage);
    await uow.records.remove([id]);
  }
  for (const l of lineages) await settleLineage(memories, l, seq);
  return { deleted, pending, seq };
}
