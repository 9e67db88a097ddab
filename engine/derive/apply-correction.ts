import { MnemoError } from '../errors/mnemo-error.ts';
import { quoted, shortened } from '../errors/shown-value.ts';
import { statusAt, timesOf } from '../core/temporal/memory-time.ts';
import type { MemoryRepository, MemoryVersionRow } from '../ports/index.ts';
import { insertMemory, nextVersion } from './insert-memory.ts';
import { statementKey } from '../core/derive/statement-key.ts';
import { settleLineage } from './settle-lineage.ts';
import { settlement } from '../core/derive/settle-lineage.ts';

/** In force at nowMs: the current value, or one scheduled to start later. */
export const inForce = (v: MemoryVersionRow, nowMs: number) => {
  const status = statusAt(timesOf(v), nowMs);
  return status === 'active' || status === 'scheduled';
};

/** A correction's `valid_from` (CorrectionContent): the instant its statement holds from. */
export interface CorrectionStart {
  at: string;
  ms: number;
}

/** content.valid_from as a CorrectionStart, when given with a statement (a withdrawal has no date). */
export const correctionStart = (c: {
  statement?: string | undefined;
  valid_from?: string | undefined;
}): CorrectionStart | undefined =>
  c.statement !== undefined && c.valid_from !== undefined
    ? { at: c.valid_from, ms: Date.parse(c.valid_from) }
    : undefined;

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
 * With a `start` (content.valid_from), checkStart's rules too.
 */
export async function checkCorrection(
  memories: Pick<MemoryRepository, 'get' | 'lineage' | 'shareable' | 'settling'>,
  corrects: string,
  statement: string | undefined,
  nowMs: number,
  hosted: boolean,
  start?: CorrectionStart,
): Promise<MemoryVersionRow> {
  const t = await correctable(memories, corrects, statement === undefined, nowMs, hosted);
  if (start !== undefined && statement !== undefined)
    await checkStart(memories, t, statement, start, nowMs, hosted);
  return t;
}

async function correctable(
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
 * A correction's valid_from must leave its statement in force now, current or scheduled: else it would
 * be written only to be closed at once. Refused (invalid_request_body, nothing written):
 * - later than now for a Memory of no slot: such a statement is current from when it is known, whatever
 *   date it is about (memory-time.ts), so it cannot be scheduled, and the one it corrects would hold
 *   beside it until then;
 * - earlier than the start of a value of the slot it would then be followed by, before the corrected
 *   one (Lisbon from 2020, corrected Porto from 2025, Braga said to hold from 2019): settled, that value
 *   would close it and be current again, which is not what the person said. The lineage is settled with
 *   the new version in it, as applyCorrection will write it, to tell.
 */
async function checkStart(
  memories: Pick<MemoryRepository, 'settling' | 'shareable'>,
  t: MemoryVersionRow,
  statement: string,
  start: CorrectionStart,
  nowMs: number,
  hosted: boolean,
): Promise<void> {
  const refused = (why: string) =>
    new MnemoError('invalid_request_body', `content.valid_from: ${why}. Nothing was written.`);
  if (t.slot === null && start.ms > nowMs)
    throw refused(
      `is later than now, and Memory ${t.id} holds no slot (a value of something that changes, such as a ` +
        'home or an employer): a statement of no slot is current from when it is known, so it cannot start ' +
        'later. Send a valid_from not later than now, or none',
    );
  const rows = await memories.settling(t.lineage);
  const id = '(this correction)';
  const made = {
    ...t,
    n: rows.reduce((max, r) => Math.max(max, r.n), 0) + 1,
    id,
    version: nextVersion(rows),
    statement,
    norm: statementKey(statement),
    valid_from: start.at,
    valid_from_ms: start.ms,
    valid_to: null,
    valid_to_ms: null,
    status: 'active' as const,
    pending: false,
    corrects: t.id,
    retracted_by: null,
    revised_by: null,
    cause: 'correction' as const,
    revised_at: null,
    revised_ms: null,
  };
  const settled = settlement([...rows, made]).find((c) => c.id === id)?.lifecycle;
  const times = { ...made, ...(settled ?? {}) };
  if (inForce(times, nowMs)) return;
  const found = rows.find((r) => r.id !== t.id && r.valid_from_ms === times.valid_to_ms);
  // A hosted deployment names no Memory it does not serve (as checkCorrection's newer value).
  const next = found && (!hosted || (await memories.shareable(found.id))) ? found : undefined;
  throw refused(
    (next
      ? `${start.at} is before ${next.valid_from}, when ${next.id} (${quoted(next.statement)}) starts, `
      : `${start.at} is before the start of `) +
      `a value the slot held before Memory ${t.id}: the correction would hold only until then, and that ` +
      'value would be current again. ' +
      (next
        ? `Send a valid_from at or after ${next.valid_from}, or correct ${next.id} too`
        : 'Send a later valid_from'),
  );
}

/**
 * Applies a checked correction inside the write's transaction. With a statement, a new version of
 * the corrected Memory's lineage takes its place over the same world time (a correction says the old
 * statement was never right), or from `start` (content.valid_from) when given, citing the correction
 * Record: settled, the corrected Memory then holds for no time, and what the slot held before it holds
 * until `start` (settle-lineage.ts). Without one, the Memory is retracted (a `start` is not read).
 * Returns the Memory ids the correction Record supports.
 */
export async function applyCorrection(
  memories: MemoryRepository,
  target: MemoryVersionRow,
  record: { id: string; text: string },
  statement: string | undefined,
  seq: number,
  now: string,
  start?: CorrectionStart,
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
        validFrom: start?.at ?? target.valid_from,
        validFromMs: start?.ms ?? target.valid_from_ms,
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
