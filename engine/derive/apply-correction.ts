import { MnemoError } from '../errors/mnemo-error.ts';
import type { Store } from '../store/store.ts';
import { insertMemory, nextVersion } from './insert-memory.ts';
import { normalizeStatement } from './record-text.ts';
import { settleLineage } from './settle-lineage.ts';

interface TargetRow {
  id: string;
  lineage: string;
  slot: string | null;
  subject: string;
  predicate: string | null;
  owner_state: 'self' | 'other' | 'unresolved';
  owner_entity: string | null;
  source_key: string;
  valid_from: string;
  valid_from_ms: number;
  status: string;
  pending: number;
}

/**
 * Checks a correction before anything is written: the corrected Memory must exist in this Brain
 * (corrected_memory_not_found) and still be the current value of its slot (correction_conflict
 * names the value that replaced it). Returns the target for applyCorrection.
 */
export function checkCorrection(store: Store, brainUid: string, corrects: string): TargetRow {
  const t = store.get<TargetRow>(
    `SELECT id, lineage, slot, subject, predicate, owner_state, owner_entity, source_key, valid_from,
            valid_from_ms, status, pending
     FROM memories WHERE id = ? AND brain_uid = ?`,
    corrects,
    brainUid,
  );
  if (!t)
    throw new MnemoError(
      'corrected_memory_not_found',
      `content.corrects: no Memory ${corrects} in this Brain`,
    );
  if (t.pending) {
    throw new MnemoError(
      'memory_pending_rederivation',
      `content.corrects: Memory ${corrects} is pending re-derivation`,
    );
  }
  if (t.status !== 'active') {
    const current = store.get<{ id: string }>(
      "SELECT id FROM memories WHERE lineage = ? AND status = 'active' ORDER BY version DESC LIMIT 1",
      t.lineage,
    );
    throw new MnemoError(
      'correction_conflict',
      `content.corrects: Memory ${corrects} is already ${t.status}` +
        (current ? `; the current value is ${current.id}` : '') +
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
export function applyCorrection(
  store: Store,
  target: TargetRow,
  record: { id: string; text: string },
  statement: string | undefined,
  seq: number,
  now: string,
): string[] {
  let ids: string[] = [];
  if (statement === undefined) {
    store.run('UPDATE memories SET retracted_by = ? WHERE id = ?', record.id, target.id);
  } else {
    ids = [
      insertMemory(store, {
        brainUid: store.get<{ brain_uid: string }>('SELECT brain_uid FROM memories WHERE id = ?', target.id)!
          .brain_uid,
        lineage: target.lineage,
        slot: target.slot,
        version: nextVersion(store, target.lineage),
        statement,
        norm: normalizeStatement(statement),
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
  settleLineage(store, target.lineage, seq);
  return ids;
}
