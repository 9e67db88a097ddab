import { newId } from '../ids.ts';
import type { Claim } from '../core/derive/deriver.ts';
import type { MemoryRepository, MemoryVersionRow } from '../ports/index.ts';
import { inForceAt, timesOf } from '../core/temporal/memory-time.ts';
import { statementKey } from '../core/derive/statement-key.ts';
import { slotPredicate } from '../core/derive/slot-key.ts';
import { endedValue, sameSlotValue, slotValue } from '../core/derive/slot-value.ts';
import { clauseStatement, endedStatement } from '../core/derive/slot-statement.ts';
import { nextVersion } from './insert-memory.ts';
import { settleLineage } from './settle-lineage.ts';

type SlotOf = Pick<Claim, 'subject' | 'predicate'>;
/** A value of a slot, as a claim or a stored version gives it. */
type ValueOf = Pick<MemoryVersionRow, 'statement' | 'subject' | 'predicate' | 'owner_state' | 'owner_entity'>;

/** `value` holds the slot of `of` at `ms`: a version in force then says it (in any of its forms). */
export function holdsThen(
  versions: readonly MemoryVersionRow[],
  of: SlotOf,
  value: string,
  ms: number,
): boolean {
  const said = { ...of, statement: clauseStatement(of.subject, of.predicate!, value) };
  return versions.some((v) => inForceAt(timesOf(v), ms) && sameSlotValue(v, said));
}

/**
 * An ending ("Ana no longer lives in Lisbon") ends its value where that value holds the slot just
 * before it, by the times the person gave, and is a statement of no slot otherwise (admit-claims.ts).
 * Records arrive in any order (an old chat imported after live use), so a value admitted now, at
 * `fromMs`, may change where an ending of a later time belongs:
 * - an ending in the lineage whose value no longer holds just before it (a move to Porto admitted
 *   between Lisbon and "I don't live in Lisbon anymore") leaves it, a statement of no slot, and the
 *   move stays current;
 * - an ending of this very value, written before it as a statement of no slot because nothing held
 *   then ("I no longer live in Lisbon", then "I live in Lisbon" of an earlier time), joins the lineage
 *   and ends the value there.
 * Settles the lineage after each move.
 */
export async function placeEndings(
  memories: MemoryRepository,
  claim: ValueOf,
  slot: string,
  lineage: string,
  fromMs: number,
  step: () => Promise<number>,
): Promise<void> {
  let versions = await memories.slotVersions(slot);
  const later = versions
    .filter((v) => v.valid_from_ms > fromMs && v.status !== 'retracted' && endedValue(v) !== null)
    .sort((a, b) => a.valid_from_ms - b.valid_from_ms);
  for (const e of later) {
    const others = versions.filter((v) => v.id !== e.id);
    if (holdsThen(others, e, endedValue(e)!, e.valid_from_ms - 1)) continue;
    const seq = await step();
    await memories.update(e.id, { slot: null, lineage: newId('lin'), version: 1, predicate: null, seq });
    await settleLineage(memories, lineage, seq);
    versions = await memories.slotVersions(slot);
  }

  const value = slotValue(claim);
  if (value === null || claim.predicate === null) return;
  const predicate = slotPredicate(claim.predicate);
  const endingId = await memories.sameStatement({
    norm: statementKey(endedStatement(claim.subject, predicate, value)),
    subject: claim.subject,
    owner_state: claim.owner_state,
    owner_entity: claim.owner_entity,
  });
  const ending = endingId === null ? null : await memories.get(endingId);
  if (ending === null || ending.slot !== null || ending.valid_from_ms <= fromMs) return;
  if (!holdsThen(versions, claim, value, ending.valid_from_ms)) return;
  const seq = await step();
  await memories.update(ending.id, {
    slot,
    lineage,
    version: nextVersion(versions),
    predicate,
    seq,
  });
  await settleLineage(memories, lineage, seq);
}
