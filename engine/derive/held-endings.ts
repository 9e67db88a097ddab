import type { Claim } from '../core/derive/deriver.ts';
import type { MemoryRepository } from '../ports/index.ts';
import { inForceAt, timesOf } from '../core/temporal/memory-time.ts';
import { slotKey } from '../core/derive/slot-key.ts';
import { endedValueAsSaid, namesValue, slotValueAsSaid } from '../core/derive/slot-value.ts';
import { endedStatement, valueStatement } from '../core/derive/slot-statement.ts';

/** `held` is the value named ("Tom" names "Tom Reyes" too), or any value where none is named. */
export function named(held: string, values: readonly string[] | undefined): boolean {
  return values === undefined || values.some((v) => namesValue(held, v));
}

/**
 * A Record's claims with each held ending (`endsHeld`: "We broke up") made the ending of the value
 * that holds its slot just before the Record's world time, as "I'm not with Tom anymore" would be said,
 * or left out where no value it may end holds then; one marked `withPartner` only where another of
 * them ended a value ("I broke up with Tom" ends "in a relationship" only where Tom was the partner).
 * A held restoration (`restoresHeld`: "We got back together") is the reverse: the value an ending in
 * force just before ended, holding the slot again from the Record's time. Of a group (`oneOf`), only
 * the one whose value began last. Every reader of a Record's claims that admits or compares them (a
 * first derivation, the upgrade pass, re-derivation after a forget) reads them so. Just before, not
 * at: once admitted, the ending itself holds the slot from that instant.
 */
export async function withHeldEndings(
  memories: Pick<MemoryRepository, 'slotVersions'>,
  claims: readonly Claim[],
  occurredMs: number,
): Promise<Claim[]> {
  const heldOf = (c: Claim) => c.endsHeld ?? c.restoresHeld;
  if (!claims.some((c) => heldOf(c) !== undefined)) return [...claims];
  /** The claim it becomes, and when the value it reached began; null where none is reached. */
  const resolve = async (claim: Claim): Promise<{ claim: Claim; fromMs: number } | null> => {
    const { endsHeld, restoresHeld, ...rest } = claim;
    const held = endsHeld ?? restoresHeld;
    if (held === undefined || claim.predicate === null) return null;
    const { subject, predicate } = claim;
    const inForce = (await memories.slotVersions(slotKey(subject, predicate, claim.owner))).filter((v) =>
      inForceAt(timesOf(v), occurredMs - 1),
    );
    for (const v of inForce) {
      // An ending reaches the value in force; a restoration, the value an ending in force ended.
      const value = endsHeld !== undefined ? slotValueAsSaid(v) : endedValueAsSaid(v);
      if (value === null || !named(value, held.values)) continue;
      const statement = (endsHeld !== undefined ? endedStatement : valueStatement)(subject, predicate, value);
      return {
        claim: { ...rest, ...(endsHeld !== undefined ? { ends: value } : {}), statement },
        fromMs: v.valid_from_ms,
      };
    }
    return null;
  };
  const resolved = new Map<Claim, { claim: Claim; fromMs: number } | null>();
  // Those that depend on no other first: a `withPartner` one counts only where one of them resolved.
  for (const c of claims) {
    const held = heldOf(c);
    if (held && !held.withPartner) resolved.set(c, await resolve(c));
  }
  // Of a group, only the value that began last: the partner of now.
  const latest = new Map<string, number>();
  for (const [c, r] of resolved) {
    const group = heldOf(c)?.oneOf;
    if (group !== undefined && r !== null)
      latest.set(group, Math.max(latest.get(group) ?? -Infinity, r.fromMs));
  }
  for (const [c, r] of resolved) {
    const group = heldOf(c)?.oneOf;
    if (group !== undefined && r !== null && r.fromMs < latest.get(group)!) resolved.set(c, null);
  }
  const partnerResolved = [...resolved.values()].some((r) => r !== null);
  for (const c of claims)
    if (heldOf(c)?.withPartner) resolved.set(c, partnerResolved ? await resolve(c) : null);
  return claims.flatMap((c) => (heldOf(c) === undefined ? [c] : (resolved.get(c)?.claim ?? [])));
}
