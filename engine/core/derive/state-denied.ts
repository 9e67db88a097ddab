import { lead, opens } from './taste-ended.ts';
import { isQuestion } from './unmarked-question.ts';
import { matchesOf } from '../../contract/matches-of.ts';

/*
 * A state of the speaker's said not to be so, in the words it was said in: "Turns out I'm not allergic
 * to walnuts, it was pecans all along." after "I'm allergic to walnuts.", "I'm not afraid of flying
 * anymore" after "I'm afraid of flying". Read against the same speaker's earlier statements of no slot
 * (engine/derive/ended-tastes.ts): the latest one whose clause says the same words without the "not" is
 * superseded by the sentence, its next version. Narrow on purpose: the words must be the same, but for
 * "I am" against "I'm" and a few adverbs of degree, so "I'm not going" ends no "I'm going to the gym".
 */

/** The words of the state a sentence says is not so, as they would be said of it, lower case. */
export interface StateDenied {
  words: string[];
}

/** "Turns out I'm not …", "Actually I am no longer …", "I'm really not …". */
const denial = new RegExp(
  String.raw`${opens}${lead}(?:(?:it\s+)?turns\s+out\s+(?:that\s+)?|apparently\s+|it\s+seems\s+)?I(?:\s+am|['’]m)\s+(?:actually\s+|really\s+)?(?:not|no\s+longer)\s+(?<rest>[^,.;!?]+)`,
  'giu',
);
/** What closes a denial without being of the state: "… anymore", "… after all", "… at all". */
const closing = /(?<![\p{L}])(?:any\s?more|any\s+longer|after\s+all|at\s+all|actually|either)$/iu;
/** Words of degree, left out on both sides: "I'm seriously allergic to walnuts" is the same state. */
const degree = new Set(
  'really very seriously severely quite so super totally also still actually definitely'.split(' '),
);
const degreePhrase = /(?<![\p{L}])(?:kind\s+of|sort\s+of|a\s+bit|a\s+little)(?![\p{L}])/giu;

/** A clause's words, lower case, without the words of degree. */
function stateWords(text: string): string[] {
  const words = text
    .toLowerCase()
    .replace(degreePhrase, ' ')
    .match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu);
  return (words ?? []).filter((w) => !degree.has(w));
}

/** The state a sentence of the speaker's says is not so, or null. */
export function stateDenied(sentence: string): StateDenied | null {
  const s = sentence.trim();
  if (s.length > 300 || isQuestion(s)) return null;
  for (const m of matchesOf(denial, s)) {
    const rest = m.groups!['rest']!.trim().replace(closing, '');
    const words = stateWords(rest);
    // One word ("I'm not sure", "I'm not hungry") is too little to tell one state from another.
    if (words.length >= 2) return { words };
  }
  return null;
}

/** A clause of the speaker's that says a state: "I'm allergic to walnuts", "Honestly, I am afraid of flying". */
const saysStateClause = new RegExp(String.raw`${opens}${lead}I(?:\s+am|['’]m)\s+(?<rest>[^,.;!?]+)`, 'giu');

/**
 * Whether a statement of the speaker's says the state the denial is of, in the same words ("I'm
 * seriously allergic to walnuts." for "Turns out I'm not allergic to walnuts"). Not a denial itself.
 */
export function saysState(statement: string, denied: StateDenied): boolean {
  if (isQuestion(statement.trim()) || stateDenied(statement) !== null) return false;
  for (const m of matchesOf(saysStateClause, statement)) {
    const words = stateWords(m.groups!['rest']!);
    if (words[0] === 'not') continue;
    if (words.length === denied.words.length && words.every((w, i) => w === denied.words[i])) return true;
  }
  return false;
}

/** The word a statement of the state must hold, for the store's search: the longest of its words. */
export function stateWordsToFind(denied: StateDenied): string[] {
  return [denied.words.reduce((a, b) => (b.length > a.length ? b : a))];
}
