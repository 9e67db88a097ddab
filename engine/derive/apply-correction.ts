import { MnemoError } from '../errors/mnemo-error.ts';
import { shortened } from '../errors/shown-value.ts';
import { statusAt, timesOf } from '../core/temporal/memory-time.ts';
import type { MemoryRepository, MemoryVersionRow } from '../ports/index.ts';
import { insertMemory, nextVersion } from './insert-memory.ts';
import { statementKey } from '../core/derive/statement-key.ts';
import { settleLineage } from './settle-lineage.ts';

/** In force at nowMs: the current value, or one scheduled to start later. */
export const inForce = (v: MemoryVersionRow, nowMs: number) => {
  const status = statusAt(timesOf(v), nowMs);
  return status === 'active' || status === 'scheduled';
};

/**
 * Checks a correction before anything is written: the corrected Memory must exist in this Brain
 * (corrected_memory_not_found) and not be pending re-derivation. A Memory in force now (the current
 * value, or one scheduled to start later) can always be corrected. One that is no longer in force is
 * correction_conflict when its slot has a newer value in force, newer by version or by world time (the
 * spec's condition; the message names it), or when the correction would retract what is already
 * retracted (nothing would change).
 * Otherwise a correction of a retracted or superseded Memory with nothing newer in force restates it:
 * its successor takes the corrected version's world time. Returns the target for applyCorrection.
 * A hosted deployment cannot correct what it does not serve: a Memory derived only from local_only
 * Records is `local_only_record`, as getMemory answers, and a newer value of that kind is not named.
 */
export async function checkCorrection(
  memories: Pick<MemoryRepository, 'get' | 'lineage' | 'shareable'>,
  corrects: string,
  retraction: boolean,
  nowMs: number,
  hosted: boolean,
): Promise<MemoryVersionRow> {
  const t = await memories.get(corrects);
  if (!t)
    throw new MnemoError(
      'corrected_memory_not_found',
      `content.corrects: no Memory ${shortened(corrects)} in this Brain`,
    );
  if (t.pending) {
    throw new MnemoError(
      'memory_pending_rederivation',
      `content.corrects: Memory ${corrects} is pending re-derivation`,
    );
  }
  if (hosted && !(await memories.shareable(t.id))) {
    throw new MnemoError(
      'local_only_record',
      `content.corrects: Memory ${corrects} is derived only from local_only Records, which a hosted deployment does not serve. Nothing was written.`,
    );
  }
  if (inForce(t, nowMs)) return t;
  const newer = (await memories.lineage(t.lineage, { shareableOnly: false }))
    .filter(
      (v) =>
        v.id !== t.id &&
        (v.version > t.version || v.valid_from_ms > t.valid_from_ms) &&
        !v.pending &&
        inForce(v, nowMs),
    )
    .at(-1);
  if (newer || (retraction && t.status === 'retracted')) {
    const state = t.status === 'retracted' ? 'retracted' : 'superseded';
    const unserved = newer !== undefined && hosted && !(await memories.shareable(newer.id));
    throw new MnemoError(
      'correction_conflict',
      `content.corrects: Memory ${corrects} is already ${state}` +
        (newer
          ? unserved
            ? '; a newer value this deployment does not serve is in force'
            : `; the current value is ${newer.id}`
          : ' and there is nothing left to retract') +
        '. Nothing was written.',
    );
  }
  return t;
}

/**
 * Applies a checked correction inside the write's transaction. With a statement, a new version of
 * the corrected Memory's lineage takes its place over the same world time (a correction says the old
 * statement was never right), citing the correction Record. Without one, the Memory is retracted.
 * Returns the Memory ids the correction Record supports.
 */
export async function applyCorrection(
  memories: MemoryRepository,
  target: MemoryVersionRow,
  record: { id: string; text: string },
  statement: string | undefined,
  seq: number,
  now: string,
): Promise<string[]> {
  let ids: string[] = [];
  if (statement === undefined) {
    await memories.update(target.id, { retracted_by: record.id });
  } else {
    ids = [
      await insertMemory(memories, {
        brainUid: target.brain_uid,
        lineage: target.lineage,
        slot: target.slot,
        version: nextVersion(await memories.lineage(target.lineage, { shareableOnly: false })),
        statement,
        norm: statementKey(statement),
        subject: target.subject,
        predicate: target.predicate,
        owner: target.owner_entity
          ? { state: target.owner_state, entity: target.owner_entity }
          : { state: target.owner_state },
        sourceKey: target.source_key,
        validFrom: target.valid_from,
        validFromMs: target.valid_from_ms,
        corrects: target.id,
        seq,
        learnedAt: now,
        cause: 'correction',
        citations: [{ recordId: record.id, quote: record.text }],
      }),
    ];
  }
  await settleLineage(memories, target.lineage, seq);
  return ids;
}
