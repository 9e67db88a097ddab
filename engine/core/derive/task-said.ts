import { todoWord } from './split-text.ts';

/*
 * A task said in a sentence, as a checklist's box says one: "remind me to water the tomatoes", "note to
 * self: book the vet", "add oat milk to my to-do list", "I still need to call the bank", "todo: renew
 * passport". It was a Memory in the speaker's words, which "What is still on my to-do list?" never
 * found (the tasks lane reads "To do: …", task-statement.ts). Only these cues, each opening the
 * sentence: "don't forget to relax" is as often advice to the listener, and "it's on my to-do list" a
 * wish for some day.
 */

/** Words before the cue that say nothing of the task: "yes please, and remind me to …". */
const lead = String.raw`^(?:(?:yes|yeah|yep|ok|okay|and|also|oh|so|please|pls|plz|hey|btw|actually|oh\s+and)[\s,!.:;—–-]*)*`;

const patterns: readonly RegExp[] = [
  new RegExp(
    String.raw`${lead}(?:please\s+)?(?:remind\s+me|don['’]?t\s+let\s+me\s+forget)\s+to\s+(?<task>\S)`,
    'iu',
  ),
  new RegExp(String.raw`${lead}note\s+to\s+self(?:\s*[:,—–-]\s*|\s+)(?<task>\S)`, 'iu'),
  new RegExp(String.raw`${lead}${todoWord}\s*:\s*(?<task>\S)`, 'iu'),
  new RegExp(
    String.raw`${lead}i\s+(?:still\s+(?:need|have)\s+to|need\s+to\s+remember\s+to|must\s+remember\s+to)\s+(?<task>\S)`,
    'iu',
  ),
];
/** "add oat milk to my to-do list": the task is what is added, between these two. */
const adds = new RegExp(String.raw`${lead}(?:please\s+)?(?:add|put)\s+`, 'iu');
const toTheList = new RegExp(String.raw`\s(?:to|on)\s+my\s+(?:${todoWord}|task)s?\s+list[\s.!…]*$`, 'iu');

/** Where the task's words end: a clause after it ("…, they look thirsty") says why, not what. */
const clauseEnd = /[,;:!?…]|\s[—–-]\s|\s(?:because|since|so\s+that|cause|as)\s|\.(?:\s|$)/iu;

/**
 * The task a sentence says, as [start, end) of its words in the sentence ("water the tomatoes on the
 * balcony" of "Yes please, and remind me to water the tomatoes on the balcony."), or null.
 */
export function taskSaid(sentence: string): [number, number] | null {
  if (sentence.length > 300) return null;
  const add = adds.exec(sentence);
  const list = add === null ? null : toTheList.exec(sentence);
  if (add !== null && list !== null && list.index > add[0].length)
    return wordsFrom(sentence, add[0].length, list.index, 1);
  for (const re of patterns) {
    const m = re.exec(sentence);
    if (m === null) continue;
    const start = m.index + m[0].length - 1;
    const rest = sentence.slice(start);
    const cut = clauseEnd.exec(rest);
    return wordsFrom(sentence, start, start + (cut === null ? rest.length : cut.index));
  }
  return null;
}

/**
 * The span trimmed, or null where it holds fewer than `least` words: a task said after a cue is a verb
 * and what it is done to; one added to a list may be a thing alone ("add milk to my to-do list").
 */
function wordsFrom(s: string, start: number, end: number, least = 2): [number, number] | null {
  const trimmed = s.slice(start, end).trimEnd();
  if (trimmed.split(/\s+/u).filter((w) => /[\p{L}\p{N}]/u.test(w)).length < least) return null;
  return [start, start + trimmed.length];
}
