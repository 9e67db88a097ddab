import { humanizePredicate } from '../../contract/fact-line.ts';
import { normalizeStatement } from './record-text.ts';
import { slotPredicate } from './slot-key.ts';
import { attributeSentence, slotSentences } from './slot-sentences.ts';

/*
 * Which Memory of this side a correction from another side corrects when none says what it corrected
 * in the same words (engine/derive/travelled-correction.ts): each side derives the same Records in its
 * own words (a deriver upgraded on one side only, a hub's other engine). Pure and order-free, so that
 * every side and engine that holds the same Memories finds the same one, or none.
 */

/** A Memory of the correction's Records on this side: one per lineage (its version in force, else its latest). */
export interface CorrectionCandidate {
  lineage: string;
  statement: string;
  subject: string;
  predicate: string | null;
}

/** How a fallback found the Memory it corrects. */
type FallbackMatch = { by: 'slot' | 'closest_statement'; lineage: string };

/**
 * How alike two statements must be, by their words (wordOverlap), to take one for the other: the same
 * words in other punctuation or order (1), or a word or two of a short statement changed. A Memory that
 * says much more than what was corrected is not taken: correcting it would drop the rest.
 */
const closeEnough = 0.6;

/** A statement's words as matching compares them: normalised as statements are, letters and digits only. */
function statementWords(s: string): string[] {
  return normalizeStatement(s)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
}

/** Whether the words of `phrase` (at least one) stand together, in order, among `words`. */
function saysPhrase(words: readonly string[], phrase: readonly string[]): boolean {
  if (phrase.length === 0) return false;
  for (let i = 0; i + phrase.length <= words.length; i++)
    if (phrase.every((w, j) => words[i + j] === w)) return true;
  return false;
}

/** The share of their words two statements have in common (Jaccard's index of their sets of words). */
function wordOverlap(a: string, b: string): number {
  const x = new Set(statementWords(a));
  const y = new Set(statementWords(b));
  if (x.size === 0 || y.size === 0) return 0;
  let shared = 0;
  for (const w of x) if (y.has(w)) shared += 1;
  return shared / (x.size + y.size - shared);
}

/**
 * The slots a statement holds said in the speaker's own words, as the rules read a message ("We moved
 * to Lisbon.", "Sorry, my number is 555-0199, I had a typo"): how a side whose rules did not read that
 * slot yet words the message's Memory. It names no subject: the slot is the speaker's, as every slot
 * a message's Memory holds is.
 */
function ownSlots(statement: string): Set<string> {
  const { slots } = slotSentences(statement);
  const attribute = slots.length === 0 ? attributeSentence(statement) : null;
  return new Set([...slots.map((s) => s.predicate), ...(attribute ? [attribute.predicate] : [])]);
}

/**
 * The one candidate a correction of `corrected` (a statement none of them says) corrects, or null:
 * - by slot: the one slot-holding candidate whose subject and predicate the corrected statement says
 *   (a fact "Ana lives in: Porto" is the lives-in slot of Ana, however a deriver words its Memory), or
 *   whose slot it holds in the speaker's own words (ownSlots);
 * - else by closest statement: of the slot holders the statement names (when several), else of all,
 *   the one whose words are closest to it, at least closeEnough and closer than any other.
 * A tie is no match: which one is corrected must not depend on the order they were read in.
 */
export function matchCorrected(
  corrected: string,
  candidates: readonly CorrectionCandidate[],
): FallbackMatch | null {
  const words = statementWords(corrected);
  const own = ownSlots(corrected);
  const slotted = candidates.filter(
    (c) =>
      c.predicate !== null &&
      ((saysPhrase(words, statementWords(c.subject)) &&
        saysPhrase(words, statementWords(humanizePredicate(c.predicate)))) ||
        own.has(slotPredicate(c.predicate))),
  );
  const slots = new Set(slotted.map((c) => c.lineage));
  if (slots.size === 1) return { by: 'slot', lineage: slotted[0]!.lineage };
  const best = new Map<string, number>();
  for (const c of slots.size > 1 ? slotted : candidates) {
    const score = wordOverlap(corrected, c.statement);
    best.set(c.lineage, Math.max(best.get(c.lineage) ?? 0, score));
  }
  const top = Math.max(0, ...best.values());
  const at = [...best].filter(([, s]) => s === top);
  return top >= closeEnough && at.length === 1 ? { by: 'closest_statement', lineage: at[0]![0] } : null;
}
