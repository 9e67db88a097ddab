import type { Claim } from '../core/derive/deriver.ts';
import { endedWords, saysEnded, saysTaste, tasteWords } from '../core/derive/taste-ended.ts';
import { choiceWords, saysChoice } from '../core/derive/choice-dropped.ts';
import { saysState, stateWordsToFind } from '../core/derive/state-denied.ts';
import type { MemoryRepository } from '../ports/index.ts';
import type { NextOf } from './next-statement.ts';

/** How many of the owner's statements saying the thing are read: the latest begun. */
const reach = 50;

/** What a claim says is over, as the store is searched for it and its statements are read against it. */
interface SaidOver {
  /** Words a statement of it holds (the store's search, anywhere in the statement). */
  words: string[];
  says: (statement: string) => boolean;
}

/**
 * What a claim says is over or not so, where it says one or more: a taste or habit ended (`endsTaste`:
 * "I don't drink tea anymore" of "I prefer tea in the morning, green tea mostly.", taste-ended.ts), a choice
 * dropped (`dropsChoice`: "We are not doing SQLite after all" of "We decided to use SQLite for the
 * desktop store.", choice-dropped.ts), a state denied in its own words (`deniesState`: "Turns out I'm
 * not allergic to walnuts" of "I'm allergic to walnuts.", state-denied.ts); and an ending itself taken
 * back (`resumesTaste`: "I'm back on coffee" of "I'm quitting coffee.", taste-ended.ts `tasteResumed`).
 */
function saidOver(claim: Claim): SaidOver[] {
  const { endsTaste: taste, resumesTaste: resumed, dropsChoice: choice, deniesState: state } = claim;
  return [
    ...(taste !== undefined ? [{ words: tasteWords(taste), says: (s: string) => saysTaste(s, taste) }] : []),
    ...(resumed !== undefined
      ? [{ words: endedWords(resumed), says: (s: string) => saysEnded(s, resumed) }]
      : []),
    ...(choice !== undefined
      ? [{ words: choiceWords(choice), says: (s: string) => saysChoice(s, choice) }]
      : []),
    ...(state !== undefined
      ? [{ words: stateWordsToFind(state), says: (s: string) => saysState(s, state) }]
      : []),
  ];
}

/** Whether a claim says something of its owner's is over or not so (saidOverOf reads what). */
export const saysOver = (claim: Claim): boolean => saidOver(claim).length > 0;

/**
 * The statement a claim says is over or not so (saidOver, each reading in turn), said before `beforeMs`,
 * or null (the claim is
 * then a statement of its own): the owner's latest current statement of no slot that says it. Only the
 * owner's own statements, not a note of nobody's: another's taste is not ended by her word.
 * admit-claims.ts admits the claim as its next version, the claim's own, from the Record's world time,
 * closing the old statement there (next-statement.ts `admitAsNextOf`): it was so until she said
 * otherwise. There is no other lineage of it (`also`, as changed-plans.ts `changedPlanOf` gives).
 * Forgetting the Record removes the version and the old statement holds again; a later "I like tea
 * again" is a statement of its own beside it, while "I'm back on tea" is the ending's next version.
 */
export async function saidOverOf(
  memories: MemoryRepository,
  claim: Claim,
  beforeMs: number,
): Promise<NextOf | null> {
  for (const over of saidOver(claim)) {
    const found = await latestSaying(memories, claim, beforeMs, over.words, over.says);
    if (found !== null) return found;
  }
  return null;
}

/** The claim's owner's latest current statement of no slot before `beforeMs` that `says` holds of. */
async function latestSaying(
  memories: MemoryRepository,
  claim: Claim,
  beforeMs: number,
  words: string[],
  says: (statement: string) => boolean,
): Promise<NextOf | null> {
  if (claim.owner.state === 'unresolved') return null;
  const said = await memories.statementsSaying({
    owner_state: claim.owner.state,
    owner_entity: claim.owner.entity ?? null,
    words,
    beforeMs,
    limit: reach,
  });
  const found = said.find((m) => says(m.statement));
  return found === undefined
    ? null
    : { lineage: found.lineage, statement: claim.statement, owner: claim.owner, also: [] };
}
