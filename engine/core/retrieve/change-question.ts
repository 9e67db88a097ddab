import type { TimeIntent } from './time-expressions.ts';
import { foldText } from '../shared/fold-text.ts';

const DAY = 86_400_000;

/**
 * How long "What changed?" looks back when the question names no time ("lately", "recently", or
 * nothing): a month, as "this month" reads.
 */
export const changesLookBackMs = 31 * DAY;

/**
 * The question asks what changed, what is new, what was updated or what is different: "What changed
 * this week?", "What's new with Marko?", "Has anything changed since Monday?", "Any updates in
 * November?". English only. Not "What new activity did Tim start?" (a new thing, asked by what it is),
 * "What changed her mind?" (a cause), nor "What are some changes Caroline has faced?" (a life's changes,
 * told in its Records, not a Memory revised).
 */
const changeQuestion = new RegExp(
  [
    // "what changed", "what's changed", "what has (been) changed", "what got updated", "what was revised"
    String.raw`what(?:['’]s| is| has| have| was| were| got)?(?: been)? (?:changed|updated|revised|corrected)(?! (?:her|his|my|your|their|our|its|the|a|an|me|him|them|us)(?![\p{L}\p{N}]))`,
    // "what's new", "what is different" (not "what new activity")
    String.raw`what(?:['’]s| is) (?:new|different)(?![\p{L}\p{N}])`,
    // "anything new", "has anything changed", "did anything change", "something different"
    String.raw`(?:anything|something) (?:new|changed|change|different|updated)(?![\p{L}\p{N}])`,
    // "any changes", "any updates", "what changes were made", "changes since Monday"
    String.raw`any (?:changes|updates)(?![\p{L}\p{N}])`,
    String.raw`what changes (?:were|have|has|did|are there)(?![\p{L}\p{N}])`,
    String.raw`(?:changes|updates) (?:since|this|last|in|during)(?![\p{L}\p{N}])`,
    // "what did I change"
    String.raw`what did (?:i|we|you|she|he|they) (?:change|update)(?![\p{L}\p{N}])`,
  ]
    .map((p) => `(?<![\\p{L}\\p{N}])${p}`)
    .join('|'),
  'iu',
);

export function asksChanges(query: string): boolean {
  return changeQuestion.test(query);
}

/** A span of world time a change question asks about, [fromMs, toMs), and how the Trace names it. */
export interface ChangeSpan {
  fromMs: number;
  toMs: number;
  label: string;
}

/**
 * The span whose changes a question asks for, up to the read time (`readMs`: as_of, or now) and no
 * further: what the Brain learned after it is not known then. The time the question names (`intent`,
 * as the time lane reads it: "this week", "in November", "since Monday"), stretched to the read time
 * when it says "since" ("since 3 December" names one day, and asks about every day after it); a month
 * back when it names none ("What's new?", "lately"). Null when the question does not ask for changes,
 * or names a time still to come ("What changes next week?" asks about plans, not what was revised).
 */
export function changeSpan(query: string, intent: TimeIntent | null, readMs: number): ChangeSpan | null {
  if (!asksChanges(query)) return null;
  const end = readMs + 1;
  if (intent?.fromMs === undefined || intent.toMs === undefined)
    return { fromMs: end - changesLookBackMs, toMs: end, label: 'in the last 31 days' };
  if (intent.fromMs >= end) return null;
  const since = /(?<![\p{L}\p{N}])since(?![\p{L}\p{N}])/iu.test(query);
  return {
    fromMs: intent.fromMs,
    toMs: since ? end : Math.min(intent.toMs, end),
    label: since && !intent.label.startsWith('since') ? `since ${intent.label}` : intent.label,
  };
}

/** Words of a change question that ask for changes, not for what changed: "what changed this week?". */
const changeWords = new Set(
  `change changed changes changing new newer newest different differ update updated updates revised
   revision corrected correction anything something else lately recently recent since happened`.split(/\s+/),
);

/**
 * The words of a change question that name what it asks about ("my dentist" of "What changed about my
 * dentist?"): its terms without those asking for changes, those only saying when (`timeWords`), and
 * the Brain's own person's names ("for Lea" asks about everything of hers). None: it asks about every
 * change.
 */
export function changeTopicTerms(
  terms: readonly string[],
  timeWords: readonly string[],
  selfName: string | null,
): string[] {
  const self = new Set(foldText(selfName ?? '').match(/[\p{L}\p{N}]+/gu) ?? []);
  const time = new Set(timeWords.map((w) => foldText(w)));
  return terms.filter((t) => !changeWords.has(t) && !time.has(t) && !self.has(t));
}
