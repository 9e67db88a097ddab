import type { Claim } from '../core/derive/deriver.ts';
import type { MemoryRepository } from '../ports/index.ts';
import { inForceAt, timesOf } from '../core/temporal/memory-time.ts';
import { slotKey } from '../core/derive/slot-key.ts';
import { endedValue, slotValueAsSaid } from '../core/derive/slot-value.ts';
import { endedStatement } from '../core/derive/slot-statement.ts';
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
 * them ended a value ("I broke up with Tom" ends "in a relationship" only where Tom was the partner). Every reader of a Record's claims that admits or
 * compares them (a first derivation, the upgrade pass, re-derivation after a forget) reads them so.
 * Just before, not at: once admitted, the ending itself holds the slot from that instant.
 */
export async function withHeldEndings(
  memories: Pick<MemoryRepository, 'slotVersions'>,
  claims: readonly Claim[],
  occurredMs: number,
): Promise<Claim[]> {
  if (!claims.some((c) => c.endsHeld !== undefined)) return [...claims];
  const resolved = new Map<Claim, Claim | null>();
  const resolve = async (claim: Claim): Promise<Claim | null> => {
    const { endsHeld, ...rest } = claim;
    if (endsHeld === undefined || claim.predicate === null) return null;
    const versions = await memories.slotVersions(slotKey(claim.subject, claim.predicate, claim.owner));
    const held = versions
      .filter((v) => endedValue(v) === null && inForceAt(timesOf(v), occurredMs - 1))
      .map((v) => slotValueAsSaid(v))
      .find((v): v is string => v !== null && named(v, endsHeld.values));
    if (held === undefined) return null;
    return { ...rest, ends: held, statement: endedStatement(claim.subject, claim.predicate, held) };
  };
  // Those that depend on no other first: a `withPartner` one counts only where one of them ended a value.
  for (const c of claims) if (c.endsHeld && !c.endsHeld.withPartner) resolved.set(c, await resolve(c));
  const partnerEnded = [...resolved.values()].some((c) => c !== null);
  for (const c of claims)
    if (c.endsHeld?.withPartner) resolved.set(c, partnerEnded ? await resolve(c) : null);
  return claims.flatMap((c) => (c.endsHeld === undefined ? [c] : (resolved.get(c) ?? [])));
}
