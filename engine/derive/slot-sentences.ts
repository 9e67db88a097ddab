/**
 * First-person sentences that state a value the speaker can hold only one of at a time: where they live
 * and where they work. Said again with another value, the new one replaces the old (as a `fact` on the
 * same slot would), so "I moved to Porto" after "I live in Lisbon" is not two current homes.
 * Deliberately narrow: present tense or a move ("I lived in Paris" is history, not a change), and a
 * capitalised name after it ("I live in fear", "I work at night" hold no place or employer).
 */
export interface SlotSentence {
  predicate: 'lives in' | 'works at';
  value: string;
}

/** A name: up to four capitalised words ("Porto", "New York", "Globex Corporation"). */
const name = String.raw`(\p{Lu}[\p{L}\p{M}'’.&-]*(?:\s+\p{Lu}[\p{L}\p{M}'’.&-]*){0,3})`;
const lead = String.raw`(?:^|[\s,;:(])I(?:['’]ve| have| am|['’]m)?\s+(?:just\s+|recently\s+|finally\s+|now\s+|currently\s+|still\s+)?`;

const patterns: Array<{ predicate: SlotSentence['predicate']; re: RegExp }> = [
  {
    predicate: 'lives in',
    re: new RegExp(`${lead}(?:live|living|moved|relocated)\\s+(?:in|to)\\s+${name}`, 'u'),
  },
  {
    predicate: 'works at',
    // Not "joined": one joins Reddit or a choir as often as an employer.
    re: new RegExp(
      `${lead}(?:work|working|started\\s+(?:a\\s+new\\s+job\\s+|working\\s+)?)\\s*(?:at|for)\\s+${name}`,
      'u',
    ),
  },
];

/** The slot a sentence states for its speaker, or null. The value is trimmed of a trailing period. */
export function slotSentence(sentence: string): SlotSentence | null {
  if (/\?\s*$/u.test(sentence) || /\b(?:not|never|don['’]t|didn['’]t|no longer)\b/iu.test(sentence))
    return null;
  for (const { predicate, re } of patterns) {
    const m = re.exec(sentence);
    const value = m?.[1]?.replace(/[.’']+$/u, '');
    if (value) return { predicate, value };
  }
  return null;
}
