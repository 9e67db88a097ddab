import type { AttributeOfAnother } from './occupation.ts';
import { attributeSentence, diets, namesAPerson, otherLead, person } from './slot-sentences.ts';

/**
 * The verb after a named person, and what it is in the speaker's own words: "Marta is" as "I am", "Lea
 * has gone" as "I have gone", so the sentence is read by the grammar of one's own diet.
 */
const theirVerb = new RegExp(
  String.raw`${otherLead}${person}(?<verb>\s+is\s+no\s+longer|\s+is\s+not|\s+isn['’]t|\s+is|['’]s|\s+has|(?=\s+(?:just\s+|recently\s+|finally\s+)?(?:went|turned|became|stopped\s+being|quit\s+being)\s))`,
  'u',
);
const ownVerb: Readonly<Record<string, string>> = {
  'is no longer': ' am no longer',
  'is not': ' am not',
  "isn't": ' am not',
  is: ' am',
  "'s": ' am',
  has: ' have',
  '': '',
};
const dietWord = new RegExp(String.raw`(?<![\p{L}\p{N}])${diets}(?![\p{L}\p{N}])`, 'iu');

/**
 * The diet a sentence that opens with a named person says they keep, or keep no more: "Marta is vegan",
 * "My sister Marta is vegetarian rather than vegan these days", "Lea went vegan last year", "Rui isn't
 * vegetarian anymore". Read as the speaker's own diet is ("I am vegan", slot-sentences.ts), so a new
 * one replaces the old as hers does; only a diet, and only where the sentence says nothing else.
 */
export function dietOfAnotherSaid(sentence: string): AttributeOfAnother | null {
  const s = sentence.trim();
  if (!dietWord.test(s)) return null;
  const m = theirVerb.exec(s);
  if (m === null) return null;
  const who = m.groups!['who']!;
  const verb = m.groups!['verb']!.trim().replace(/\s+/gu, ' ').replace('’', "'");
  const own = ownVerb[verb];
  if (own === undefined || !namesAPerson(who, true)) return null;
  const said = attributeSentence(`I${own}${s.slice(m.index + m[0].length)}`);
  if (said === null || said.predicate !== 'diet') return null;
  const alone = s.startsWith(who) && said.own === undefined;
  return { predicate: 'diet', value: said.value, ...(said.ends ? { ends: true } : {}), who, alone };
}
