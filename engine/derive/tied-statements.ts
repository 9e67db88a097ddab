import type { Claim } from '../core/derive/deriver.ts';
import { partnerRoles } from '../core/derive/parting.ts';
import { saysOfCouple } from '../core/derive/couple-said.ts';
import { slotKey } from '../core/derive/slot-key.ts';
import type { MemoryRepository } from '../ports/index.ts';
import { holdsThen } from './place-endings.ts';
import { sameRecordStatements } from './same-record-statements.ts';
import type { NextOf } from './next-statement.ts';

/**
 * The slots whose value a sentence beside it may say more of, and whether a sentence says it of that
 * value (`ended`: the value the sentence ends, "Petra Novak").
 */
const tiedWords: ReadonlyArray<{
  predicates: ReadonlySet<string>;
  says: (statement: string, predicate: string, ended: string) => boolean;
}> = [
  {
    // "My girlfriend is Petra Novak. We've been together three years.": true of Petra as long as she is;
    // "My parents have been together 40 years." and "Yesterday we went hiking together" are not of her.
    predicates: new Set<string>([...partnerRoles, 'relationship status']),
    says: (statement, predicate, ended) =>
      saysOfCouple(statement, predicate === 'relationship status' ? undefined : ended),
  },
];

/**
 * The statements a claim of no slot closes because the same sentence ends a value they were said of
 * ("Petra and I broke up last night.", whose ending of the girlfriend slot `claims` holds beside it):
 * the current statements of no slot of the claim's owner, said in a Record that said the value ended
 * ("My girlfriend is Petra Novak. We've been together three years."), that say a lasting state of the
 * speaker with that value (tiedWords, couple-said.ts: "we", "Petra and I", "our anniversary", "I'm
 * with her", with being together, dating, in love; not another's "My parents have been together 40
 * years." nor an event, "Yesterday we went hiking together"). As the slot's value they were true until the ending; left,
 * "We've been together three years." stayed current and led every question about her partner.
 * admit-claims.ts admits the claim as their next version from its Record's world time (next-statement.ts
 * `admitAsNextOf`), so forgetting the Record restores them, as a plan changed does (changed-plans.ts).
 * Null where the sentence ends no such value, or no statement is tied to it.
 */
export async function tiedToEndedOf(
  memories: MemoryRepository,
  claim: Claim,
  claims: readonly Claim[],
  occurredMs: number,
): Promise<NextOf | null> {
  if (claim.predicate !== null || claim.owner.state === 'unresolved') return null;
  const lineages: string[] = [];
  for (const ending of claims) {
    if (ending.ends === undefined || ending.predicate === null || ending.quote !== claim.quote) continue;
    const tie = tiedWords.find((t) => t.predicates.has(ending.predicate!));
    if (tie === undefined) continue;
    const versions = await memories.slotVersions(slotKey(ending.subject, ending.predicate, ending.owner));
    // Held just before the sentence, whether or not its ending is stored yet (the upgrade pass reads it
    // after: upgrade-derivation.ts `joinChangedPlans`).
    const held = versions.filter(
      (v) => v.status !== 'retracted' && holdsThen([v], ending, ending.ends!, occurredMs - 1),
    );
    const owner = { owner_state: claim.owner.state, owner_entity: claim.owner.entity ?? null };
    for (const { lineage, statement } of await sameRecordStatements(memories, held, owner, occurredMs))
      if (!lineages.includes(lineage) && tie.says(statement, ending.predicate, ending.ends))
        lineages.push(lineage);
  }
  const [first, ...also] = lineages;
  return first === undefined
    ? null
    : { lineage: first, statement: claim.statement, owner: claim.owner, also };
}
