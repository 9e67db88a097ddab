import type { Claim } from '../core/derive/deriver.ts';
import type { MemoryRepository, MemoryVersionRow } from '../ports/index.ts';
import { slotKey } from '../core/derive/slot-key.ts';
import { endedValue, slotValueAsSaid } from '../core/derive/slot-value.ts';
import { inForceAt, timesOf } from '../core/temporal/memory-time.ts';
import { named } from './held-endings.ts';
import { settleLineage } from './settle-lineage.ts';

/**
 * Whether a version is a plan still to come when a Record of world time `ms` is said: a value of the
 * slot (not an ending), not withdrawn already, that starts after it.
 */
export const planAhead = (v: MemoryVersionRow, ms: number): boolean =>
  v.status !== 'retracted' && v.retracted_by === null && endedValue(v) === null && v.valid_from_ms > ms;

/**
 * Withdraws the plans `claim.callsOff` says are off ("the porto move is off"): each value of its slot
 * scheduled after the Record's world time, that the claim names (any, without a name), is retracted by
 * the Record, and its lineage settled, so the value in force before holds on past the plan's day.
 * Forgetting the Record brings the plan back (the store clears the retraction; forgetting settles the
 * lineages a Record named). A plan written after the call-off was derived is not reached: a Record
 * derives once, in write order.
 */
export async function callOffPlans(
  memories: MemoryRepository,
  record: { id: string; occurredMs: number },
  claim: Claim,
  seq: number,
): Promise<void> {
  const off = claim.callsOff;
  if (off === undefined) return;
  const versions = await memories.slotVersions(slotKey(claim.subject, off.predicate, claim.owner));
  if (off.keeps !== undefined) {
    // "Staying in Lisbon after all" keeps the home only where Lisbon is it: "staying in tonight" is no home.
    const held = versions.find(
      (v) => v.status !== 'retracted' && endedValue(v) === null && inForceAt(timesOf(v), record.occurredMs),
    );
    const value = held ? slotValueAsSaid(held) : null;
    if (value === null || !named(value, [off.keeps])) return;
  }
  const lineages = new Set<string>();
  for (const v of versions) {
    if (!planAhead(v, record.occurredMs)) continue;
    const value = slotValueAsSaid(v);
    if (value === null || !named(value, off.values)) continue;
    await memories.update(v.id, { retracted_by: record.id });
    lineages.add(v.lineage);
  }
  for (const l of lineages) await settleLineage(memories, l, seq);
}
