import { MnemoError } from '../errors/mnemo-error.ts';
import { shortened } from '../errors/shown-value.ts';
import type { Store } from '../adapters/sqlite/store.ts';
import { inForceSql, shareableSql } from '../adapters/sqlite/memory-view.ts';
import { insertMemory, nextVersion } from './insert-memory.ts';
import { normalizeStatement } from '../core/derive/record-text.ts';
import { settleLineage } from './settle-lineage.ts';

interface TargetRow {
  id: string;
  version: number;
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
  in_force: number;
  pending: number;
  shareable: number;
}

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
export function checkCorrection(
  store: Store,
  brainUid: string,
  corrects: string,
  retraction: boolean,
  nowMs: number,
  hosted: boolean,
): TargetRow {
  const inForce = inForceSql(nowMs);
  const t = store.get<TargetRow>(
    `SELECT m.id, m.version, m.lineage, m.slot, m.subject, m.predicate, m.owner_state, m.owner_entity,
            m.source_key, m.valid_from, m.valid_from_ms, m.status, m.pending, ${inForce.sql} AS in_force,
            ${shareableSql()} AS shareable
     FROM memories m WHERE m.id = ? AND m.brain_uid = ?`,
    ...inForce.params,
    corrects,
    brainUid,
  );
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
  if (hosted && !t.shareable) {
    throw new MnemoError(
      'local_only_record',
      `content.corrects: Memory ${corrects} is derived only from local_only Records, which a hosted deployment does not serve. Nothing was written.`,
    );
  }
  if (t.in_force) return t;
  const newer = store.get<{ id: string; shareable: number }>(
    `SELECT m.id, ${shareableSql()} AS shareable FROM memories m
     WHERE m.lineage = ? AND m.id <> ? AND (m.version > ? OR m.valid_from_ms > ?) AND m.pending = 0
       AND ${inForce.sql}
     ORDER BY m.version DESC LIMIT 1`,
    t.lineage,
    t.id,
    t.version,
    t.valid_from_ms,
    ...inForce.params,
  );
  if (newer || (retraction && t.status === 'retracted')) {
    const state = t.status === 'retracted' ? 'retracted' : 'superseded';
    throw new MnemoError(
      'correction_conflict',
      `content.corrects: Memory ${corrects} is already ${state}` +
        (newer
          ? hosted && !newer.shareable
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
