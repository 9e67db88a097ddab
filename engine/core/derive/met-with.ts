import { kinWords, namesAPerson } from './slot-sentences.ts';

/** What one does with one other person: "had lunch with", "met", "called", "went hiking with". */
const withVerbs = String.raw`(?:had\s+(?:lunch|dinner|coffee|breakfast|brunch|drinks|a\s+(?:coffee|drink|chat|call))\s+with|met(?:\s+up)?(?:\s+with)?|called|ran\s+into|bumped\s+into|talked\s+(?:to|with)|spoke\s+(?:to|with)|caught\s+up\s+with|hung\s+out\s+with|went\s+(?:out|\p{Ll}+ing)\s+with)`;
const metWith = new RegExp(
  String.raw`^(?:(?:today|yesterday|tonight|this\s+morning|last\s+night|on\s+\p{Lu}\p{Ll}+day)\s*,?\s+)?(?:(?:i|I|we)\s+(?:just\s+|finally\s+|also\s+)?)?${withVerbs}\s+(?:(?:my|our)\s+${kinWords}\s+)?(?<who>\p{Lu}\p{Ll}+(?:\s+\p{Lu}\p{Ll}+)?)(?![\p{L}\p{N}'’])`,
  'u',
);

/**
 * The one person the speaker says they met, ate with, called or went somewhere with: "I had lunch with
 * Tom Baker today.", "Met João Pereira for coffee.", "We went hiking with my friend Lea." A "he" or
 * "she" after it is that person: "He is a doctor." was the speaker's. Null where the sentence names
 * no one so (heOrSheOf then reads whether it names someone else beside them).
 */
export function metWithIn(sentence: string): string | null {
  const s = sentence.trim();
  // Case matters for the name only: the sentence's first word is read in lower case ("Met", "Today").
  const who = metWith.exec(s.charAt(0).toLowerCase() + s.slice(1))?.groups?.['who'];
  return who !== undefined && namesAPerson(who, true) ? who : null;
}
