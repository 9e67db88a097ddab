import { escapeRegExp } from '../shared/escape-reg-exp.ts';
import { isQuestion } from './unmarked-question.ts';

/*
 * An idea or a plan said to be dropped, by its words: "scratch the cat idea", "forget the Lisbon plan",
 * "never mind the party idea", "the cat idea is off". What it names is read against the same speaker's
 * message just before (engine/derive/replies.ts): a statement of no slot that says it ("I think we'll
 * adopt a cat this spring.") is withdrawn, as a slip is. A plan that holds a slot (a move, a job) is
 * called off by called-off.ts.
 */

const what = String.raw`(?<what>[\p{L}-]+(?:\s+[\p{L}-]+)?)`;
/** What may open the sentence before it: "Actually, …", "ok so …", "ugh, …". */
const lead = String.raw`^(?:(?:actually|ok(?:ay)?|so|oh|hmm|wait|no|nah|yeah|well|ugh|also|and|but|update)[,.!:—–-]*\s+)*`;
/** Said by the speaker as her own decision, opening the sentence: not "my mom said to drop the … idea". */
const dropped = new RegExp(
  String.raw`${lead}(?:(?:scratch|forget(?:\s+about)?|drop|ditch|scrap|never\s?mind|nvm)\s+(?:the|that|my|our)\s+${what}\s+(?:idea|plan)|(?:the|that|my|our)\s+${what.replace('what', 'what2')}\s+(?:idea|plan)\s+is\s+(?:off|dead|scrapped|cancell?ed|canceled))(?![\p{L}\p{N}])`,
  'iu',
);
/** What says a statement is a plan or an idea, not a fact: "we'll", "I think we should", "planning". */
export const planCue =
  /(?<![\p{L}\p{N}])(?:will|['’]ll|going\s+to|gonna|might|maybe|should|want|wanna|thinking|planning|plan|idea|let['’]?s|hope|could)(?![\p{L}\p{N}])/iu;
/** A denial or a doubt before it: "don't scratch the cat idea", "maybe forget the Lisbon plan?". */
const notSo =
  /(?<![\p{L}\p{N}])(?:don['’]?t|do\s+not|not|never(?!\s?mind)|maybe|might|should\s+we|if)(?![\p{L}\p{N}])/iu;

/** The words of the idea a sentence drops ("cat" of "scratch the cat idea"), or null. */
export function ideaDropped(sentence: string): string | null {
  const s = sentence.trim();
  if (s.length > 300 || isQuestion(s)) return null;
  const m = dropped.exec(s);
  if (m === null || notSo.test(s.slice(0, m.index + m[0].length))) return null;
  return (m.groups!['what'] ?? m.groups!['what2'])!.toLowerCase();
}

/**
 * Whether a statement says the idea's every word, whole (a plural too: "cat" in "two cats"); a word is
 * matched as written, so "3.30pm" needs its dot.
 */
export function saysIdea(statement: string, idea: string): boolean {
  return idea
    .split(/\s+/u)
    .every((w) =>
      new RegExp(String.raw`(?<![\p{L}\p{N}])${escapeRegExp(w)}(?:s|es)?(?![\p{L}\p{N}])`, 'iu').test(
        statement,
      ),
    );
}
