import type { Claim } from '../core/derive/deriver.ts';
import type { MemoryRepository } from '../ports/index.ts';
import { inForceAt, timesOf } from '../core/temporal/memory-time.ts';
import { slotKey } from '../core/derive/slot-key.ts';
import { endedValue, slotValueAsSaid } from '../core/derive/slot-value.ts';
import { endedStatement, valueStatement } from '../core/derive/slot-statement.ts';
import { normalizeStatement } from '../core/derive/record-text.ts';

/** `held` is the value named ("Tom" names "Tom Reyes" too), or any value where none is named. */
function named(held: string, values: readonly string[] | undefined): boolean {
  if (values === undefined) return true;
  const h = normalizeStatement(held);
  return values.some((v) => {
    const n = normalizeStatement(v);
    return h === n || h.startsWith(`${n} `);
  });
}

/**
 * A Record's claims with each held ending (`endsHeld`: "We broke up") made the ending of the value
 * that holds its slot just before the Record's world time, as "I'm not with Tom anymore" would be said,
 * or left out where no value it may end holds then; one marked `withPartner` only where another of
 * them ended a value ("I broke up with Tom" ends "in a relationship" only where Tom was the partner).
 * A held restoration (`restoresHeld`: "We got back together") is the reverse: the value an ending in
 * force just before ended, holding the slot again from the Record's time. Every reader of a Record's claims that admits or
 * compares them (a first derivation, the upgrade pass, re-derivation after a forget) reads them so.
 * Just before, not at: once admitted, the ending itself holds the slot from that instant.
 */
export async function withHeldEndings(
  memories: Pick<MemoryRepository, 'slotVersions'>,
  claims: readonly Claim[],
  occurredMs: number,
): Promise<Claim[]> {
  const heldOf = (c: Claim) => c.endsHeld ?? c.restoresHeld;
  if (!claims.some((c) => heldOf(c) !== undefined)) return [...claims];
  const resolved = new Map<Claim, Claim | null>();
  const resolve = async (claim: Claim): Promise<Claim | null> => {
    const { endsHeld, restoresHeld, ...rest } = claim;
    const held = endsHeld ?? restoresHeld;
    if (held === undefined || claim.predicate === null) return null;
    const { subject, predicate } = claim;
    const versions = (await memories.slotVersions(slotKey(subject, predicate, claim.owner))).filter((v) =>
      inForceAt(timesOf(v), occurredMs - 1),
    );
    if (endsHeld !== undefined) {
      const value = versions
        .filter((v) => endedValue(v) === null)
        .map((v) => slotValueAsSaid(v))
        .find((v): v is string => v !== null && named(v, held.values));
      if (value === undefined) return null;
      return { ...rest, ends: value, statement: endedStatement(subject, predicate, value) };
    }
    // The value an ending in force then ended, as it was said: the ending's words after its head.
    const head = endedStatement(subject, predicate, '');
    const value = versions
      .filter((v) => endedValue(v) !== null && v.statement.startsWith(head))
      .map((v) => v.statement.slice(head.length).trim())
      .find((v) => v !== '' && named(v, held.values));
    if (value === undefined) return null;
    return { ...rest, statement: valueStatement(subject, predicate, value) };
  };
  // Those that depend on no other first: a `withPartner` one counts only where one of them resolved.
  for (const c of claims) {
    const held = heldOf(c);
    if (held && !held.withPartner) resolved.set(c, await resolve(c));
  }
  const partnerResolved = [...resolved.values()].some((c) => c !== null);
  for (const c of claims)
    if (heldOf(c)?.withPartner) resolved.set(c, partnerResolved ? await resolve(c) : null);
  return claims.flatMap((c) => (heldOf(c) === undefined ? [c] : (resolved.get(c) ?? [])));
}
