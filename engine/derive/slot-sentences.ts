/**
 * First-person sentences that state a value the speaker can hold only one of at a time: where they live
 * and where they work. Said again with another value, the new one replaces the old (as a `fact` on the
 * same slot would), so "I moved to Porto" after "I live in Lisbon" is not two current homes.
 * Deliberately narrow, since a wrong match replaces a true home: present tense or a move ("I lived in
 * Paris" is history), a capitalised name after it ("I live in fear", "I work at night" hold nothing),
 * and nothing that makes it hypothetical, reported, dated or temporary ("If I moved to Berlin", "My mum
 * thinks I live in Paris", "When I moved to Berlin in 2015", "I moved to Porto for a week").
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
    re: new RegExp(`${lead}(?:live|living|moved|relocated)\\s+(?:in|to)\\s+${name}`, 'gu'),
  },
  {
    predicate: 'works at',
    // Not "joined": one joins Reddit or a choir as often as an employer.
    re: new RegExp(
      `${lead}(?:work|working|started(?:\\s+a\\s+new\\s+job|\\s+working)?(?=\\s))\\s*(?:at|for)\\s+${name}`,
      'gu',
    ),
  },
];

/** Hypothetical, negated, reported or quoted: the sentence does not say where the speaker is now. */
const notNow =
  /\?\s*$|["“”]|\b(?:not|never|no longer|don['’]t|didn['’]t|if|when|whenever|would|could|might|should|wish|hope|hoping|plan|planning|maybe|perhaps|thinks?|thought|says|said|told|dream(?:ed|t)?|used to|pretend)\b/iu;
/** A stay that ends, or a move told as history. */
const notLasting =
  /\bfor\s+(?:a|an|the|one|two|three|few|couple|some|\d+)\b[^.!;]*?\b(?:days?|nights?|weeks?|weekends?|months?|summers?|winters?|semesters?|terms?|years?)\b|\b(?:in|since)\s+(?:19|20)\d\d\b|\bago\b/iu;
/** Capitalised words that are times, not places or employers ("working at Christmas", "on Easter Sunday"). */
const notNames = new Set(
  `christmas easter halloween thanksgiving weekends weekend monday tuesday wednesday thursday friday
   saturday sunday january february march april may june july august september october november
   december home`.split(/\s+/u),
);
const notName = (value: string) =>
  notNames.has(value.split(/\s+/u)[0]!.toLowerCase()) || /^new year/iu.test(value);

const words = (s: string) => s.split(/\s+/u).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;

/**
 * The slots a sentence states for its speaker, at most one per predicate (the last, when it states one
 * twice: "I moved to Porto in 2019 and now I live in Braga"), and how many words the sentence says
 * beyond them ("... and opened a bakery").
 */
export function slotSentences(sentence: string): { slots: SlotSentence[]; rest: number } {
  const none = { slots: [], rest: 0 };
  if (notNow.test(sentence)) return none;
  const found: Array<SlotSentence & { at: number; end: number }> = [];
  for (const { predicate, re } of patterns) {
    let last: (SlotSentence & { at: number; end: number }) | null = null;
    for (const m of sentence.matchAll(re)) {
      const value = m[1]!.replace(/(?<![.’'])[.’']+$/u, '');
      if (!notName(value)) last = { predicate, value, at: m.index, end: m.index + m[0].length };
    }
    if (last && !notLasting.test(sentence.slice(last.end))) found.push(last);
  }
  let rest = sentence;
  for (const { at, end } of [...found].sort((a, b) => b.at - a.at))
    rest = rest.slice(0, at) + ' ' + rest.slice(end);
  return { slots: found.map(({ predicate, value }) => ({ predicate, value })), rest: words(rest) };
}
