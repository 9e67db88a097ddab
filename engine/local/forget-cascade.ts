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
  await forgetTargetWords(uow, recordIds);
  return { deleted, pending, seq };
}

/**
 * A correction keeps the statement of the Memory it corrected (its target, travelled-correction.ts):
 * words derived from the Records that Memory cited. Once every one of those Records is forgotten, the
 * statement is theirs no more to keep, nor to send to another side: a correction with a statement
 * keeps its own in its place (a side that holds none of them states it, one that still holds them
 * matches by it), and a withdrawal, which has nothing left to withdraw, keeps no target.
 */
async function forgetTargetWords(uow: BrainUnitOfWork, recordIds: readonly string[]): Promise<void> {
  for (const c of await uow.records.correctionsNaming(recordIds)) {
    const { target, ...written } = JSON.parse(c.content) as {
      statement?: string;
      target: { records: string[]; statement: string };
    };
    // Every one forgotten, not only none here: one still to arrive is matched by the statement.
    const named = [...new Set(target.records)];
    if ((await uow.records.forgotten(named)).length < named.length) continue;
    if (written.statement === target.statement) continue;
    const kept =
      written.statement === undefined
        ? written
        : { ...written, target: { records: target.records, statement: written.statement } };
    await uow.records.replaceCorrectionContent(c.id, JSON.stringify(kept));
  }
}
