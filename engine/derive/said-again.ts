import type { Claim } from '../core/derive/deriver.ts';
import { slotKey } from '../core/derive/slot-key.ts';
import { sameSlotValue } from '../core/derive/slot-value.ts';
import { statementKey } from '../core/derive/statement-key.ts';
import type { MemoryRepository, MemoryVersionRow } from '../ports/index.ts';

/**
 * The Memories an older revision of the same item (a note imported before, `older`) supports that were
 * closed by something other than a revision: replaced by a person's correction or a newer value, or
 * withdrawn. A newer revision that says one of them again in the same words (a note edited elsewhere,
 * "Birthday: July 2" untouched) says nothing new of it: read as a new version from the revision's
 * date, it replaced the correction, or the newer value another source gave since (every note a
 * vault's sync touches is dated anew). Empty where the item has no older revision.
 */
export async function closedOnOlderRevisions(
  memories: Pick<MemoryRepository, 'citing' | 'get'>,
  older: readonly string[],
): Promise<MemoryVersionRow[]> {
  if (older.length === 0) return [];
  const out: MemoryVersionRow[] = [];
  for (const { id } of await memories.citing(older)) {
    const m = await memories.get(id);
    if (m !== null && m.status !== 'active' && m.revised_by === null && !m.pending) out.push(m);
  }
  return out;
}

/** Which of those Memories (closedOnOlderRevisions) the claim says again: its slot's value, or its statement. */
export function saidAgain(closed: readonly MemoryVersionRow[], claim: Claim): MemoryVersionRow | null {
  const owner = (m: MemoryVersionRow) =>
    m.owner_state === claim.owner.state && m.owner_entity === (claim.owner.entity ?? null);
  if (claim.predicate !== null) {
    const slot = slotKey(claim.subject, claim.predicate, claim.owner);
    // An ending ("I no longer work at Acme") is no value to find.
    if (claim.ends !== undefined) return null;
    return closed.find((m) => m.slot === slot && sameSlotValue(m, claim)) ?? null;
  }
  const norm = statementKey(claim.statement);
  return (
    closed.find((m) => m.slot === null && m.norm === norm && m.subject === claim.subject && owner(m)) ?? null
  );
}
