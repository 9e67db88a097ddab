import type { Claim, OwnerClaim } from '../core/derive/deriver.ts';
import { saysTaste, tasteWords } from '../core/derive/taste-ended.ts';
import type { MemoryRepository } from '../ports/index.ts';
import type { AdmittedRecord } from './admit-claims.ts';
import { admitAsNextOf } from './next-statement.ts';

/** How many of the owner's statements saying the thing are read: the latest begun. */
const reach = 50;

/**
 * Admits a claim that ends a taste or habit (`endsTaste`: "I've switched to coffee in the mornings, I
 * don't drink tea anymore.") as the next version of the statement of it: the owner's latest current
 * statement of no slot, begun before the Record, that states the taste (taste-ended.ts `saysTaste`: "I
 * prefer tea in the morning, green tea mostly."). It holds from the Record's world time and closes the
 * taste there (next-statement.ts): it was so until she said otherwise. Only the owner's own statements,
 * not a note of nobody's: another's taste is not ended by her word. Returns the new version's id, or
 * null where no such statement is found (the claim is then a statement of its own). Forgetting the
 * Record removes the version and the taste holds again; a later "I like tea again" is a statement of its
 * own beside it.
 */
export async function admitEndedTaste(
  memories: MemoryRepository,
  brainUid: string,
  record: AdmittedRecord,
  claim: Claim,
  seq: number,
  now: string,
): Promise<string | null> {
  const taste = await endedTasteOf(memories, claim, record.occurredMs);
  return taste === null ? null : admitAsNextOf(memories, { brainUid, record, claim, seq, now }, taste);
}

/**
 * The statement of the taste a claim ends (admitEndedTaste), said before `beforeMs`: its lineage, the
 * owner (the claim's), and no other lineage (`also`, as changed-plans.ts `changedPlanOf` gives), or null.
 */
export async function endedTasteOf(
  memories: MemoryRepository,
  claim: Claim,
  beforeMs: number,
): Promise<{ lineage: string; owner: OwnerClaim; also: string[] } | null> {
  const ended = claim.endsTaste;
  if (ended === undefined || claim.owner.state === 'unresolved') return null;
  const said = await memories.statementsSaying({
    owner_state: claim.owner.state,
    owner_entity: claim.owner.entity ?? null,
    words: tasteWords(ended),
    beforeMs,
    limit: reach,
  });
  const taste = said.find((m) => saysTaste(m.statement, ended));
  return taste === undefined ? null : { lineage: taste.lineage, owner: claim.owner, also: [] };
}
