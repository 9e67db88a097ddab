import type { Claim } from '../core/derive/deriver.ts';
import type { MemoryRepository, MemoryVersionRow } from '../ports/index.ts';
import { normalizeStatement } from '../core/derive/record-text.ts';
import { inForceAt, timesOf } from '../core/temporal/memory-time.ts';
import { slotPredicate } from '../core/derive/slot-key.ts';
import { endedValue, slotValueAsSaid } from '../core/derive/slot-value.ts';
import { clauseStatement, saidBy, saidByStatement } from '../core/derive/slot-statement.ts';
import { movingOutOf } from '../core/derive/slot-sentences.ts';
import { homeBeside, homeParts } from '../core/derive/street-address.ts';

/** A home claim as read beside the home held (inHomeHeld), and the version whose city it was put in. */
export interface HomeHeld {
  claim: Claim;
  /** The version holding the city that an address said alone was put in, and its street, if any. */
  cityOf?: { id: string; street: string | null };
}

/**
 * A home claim read beside the home holding the slot at its instant (street-address.ts `homeBeside`):
 * "My address is Vlaška 17" said while "Lea lives in Zagreb" holds is "Lea lives at Vlaška 17, Zagreb",
 * a new version that keeps the city; "I live in Zagreb" said while "Lea lives at Vlaška 17, Zagreb"
 * holds is that home said again, a citation of it. The address replaced the city, and the city said
 * again replaced the address. A city of its own, or an address in another city, stays as said and
 * replaces both. A home said as being left ("I'm moving out of my flat on Ilica 42") keeps its words.
 */
export function inHomeHeld(claim: Claim, versions: readonly MemoryVersionRow[], ms: number): HomeHeld {
  if (claim.predicate === null || slotPredicate(claim.predicate) !== 'lives in') return { claim };
  if (claim.ends !== undefined || movingOutOf(claim.statement) !== null) return { claim };
  const said = slotValueAsSaid(claim);
  const held = versions
    .filter((v) => endedValue(v) === null && inForceAt(timesOf(v), ms))
    .sort((a, b) => b.valid_from_ms - a.valid_from_ms)
    .flatMap((v) => {
      const value = slotValueAsSaid(v);
      return value === null ? [] : [{ id: v.id, value }];
    })[0];
  const home = said === null || held === undefined ? null : homeBeside(said, held.value);
  if (home === null) return { claim };
  const statement = clauseStatement(claim.subject, 'lives in', home);
  const by = saidBy(claim);
  const refined = {
    ...claim,
    predicate: 'lives in',
    statement: by === null ? statement : saidByStatement(by.by, statement),
  };
  // Said again, it joins the home held; put in its city, the new version cites what said the city too.
  return home === held!.value.trim()
    ? { claim: refined }
    : { claim: refined, cityOf: { id: held!.id, street: homeParts(held!.value).street } };
}

/**
 * The citations of the version whose city an address was put in that say the city and no street of
 * it ("I live in Zagreb."), for the new version to cite beside the address: a reader of "Lea lives at
 * Vlaška 17, Zagreb" is shown where Zagreb was said. Not the Record being admitted, cited already.
 */
export async function citationsOfCity(
  memories: MemoryRepository,
  cityOf: NonNullable<HomeHeld['cityOf']>,
  recordId: string,
): Promise<{ recordId: string; quote: string }[]> {
  const street = cityOf.street === null ? null : normalizeStatement(cityOf.street);
  return (await memories.citations([cityOf.id], { shareableOnly: false }))
    .filter(
      (c) => c.record_id !== recordId && (street === null || !normalizeStatement(c.quote).includes(street)),
    )
    .map((c) => ({ recordId: c.record_id, quote: c.quote }));
}
