import type { Claim } from '../core/derive/deriver.ts';
import { saysTaste, tasteWords } from '../core/derive/taste-ended.ts';
import { choiceWords, saysChoice } from '../core/derive/choice-dropped.ts';
import { saysState, stateWordsToFind } from '../core/derive/state-denied.ts';
import type { MemoryRepository } from '../ports/index.ts';
import type { NextOf } from './next-statement.ts';

/** How many of the owner's statements saying the thing are read: the latest begun. */
const reach = 50;

/**
 * The statement of the taste or habit a claim ends (`endsTaste`: "I've switched to coffee in the
 * mornings, I don't drink tea anymore."), said before `beforeMs`, or null (the claim is then a
 * statement of its own): the owner's latest current statement of no slot that states the taste
 * (taste-ended.ts `saysTaste`: "I prefer tea in the morning, green tea mostly."). Only the owner's own
 * statements, not a note of nobody's: another's taste is not ended by her word. admit-claims.ts admits
 * the claim as its next version, the claim's own, from the Record's world time, closing the taste
 * there (next-statement.ts `admitAsNextOf`): it was so until she said otherwise. There is no other
 * lineage of it (`also`, as changed-plans.ts `changedPlanOf` gives). Forgetting the Record removes the
 * version and the taste holds again; a later "I like tea again" is a statement of its own beside it.
 */
export async function endedTasteOf(
  memories: MemoryRepository,
  claim: Claim,
  beforeMs: number,
): Promise<NextOf | null> {
  const ended = claim.endsTaste;
  if (ended === undefined) return null;
  return latestSaying(memories, claim, beforeMs, tasteWords(ended), (s) => saysTaste(s, ended));
}

/**
 * The statement of the choice a claim says is off (`dropsChoice`: "We are not doing SQLite after all"),
 * said before `beforeMs`, or null: the owner's latest current statement of no slot that makes the
 * choice (choice-dropped.ts `saysChoice`: "We decided to use SQLite for the desktop store."). Admitted
 * and undone as a taste ended is (endedTasteOf).
 */
export async function droppedChoiceOf(
  memories: MemoryRepository,
  claim: Claim,
  beforeMs: number,
): Promise<NextOf | null> {
  const dropped = claim.dropsChoice;
  if (dropped === undefined) return null;
  return latestSaying(memories, claim, beforeMs, choiceWords(dropped), (s) => saysChoice(s, dropped));
}

/**
 * The statement of the state a claim says is not so (`deniesState`: "Turns out I'm not allergic to
 * walnuts"), said before `beforeMs` in the same words ("I'm allergic to walnuts."), or null. Admitted
 * and undone as a taste ended is (endedTasteOf).
 */
export async function deniedStateOf(
  memories: MemoryRepository,
  claim: Claim,
  beforeMs: number,
): Promise<NextOf | null> {
  const denied = claim.deniesState;
  if (denied === undefined) return null;
  return latestSaying(memories, claim, beforeMs, stateWordsToFind(denied), (s) => saysState(s, denied));
}

/**
 * What a claim says is over or not so (a taste, a choice, a state), said before `beforeMs`: the
 * statement it supersedes, or null.
 */
export async function saidOverOf(
  memories: MemoryRepository,
  claim: Claim,
  beforeMs: number,
): Promise<NextOf | null> {
  return (
    (await endedTasteOf(memories, claim, beforeMs)) ??
    (await droppedChoiceOf(memories, claim, beforeMs)) ??
    (await deniedStateOf(memories, claim, beforeMs))
  );
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
