import { ownerLabel } from './format.ts';

/** Words as a person types them to find a name: case, accents and spacing make no difference. */
const folded = (s: string) =>
  s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();

const youWords = new Set(['you', 'me', 'mine', 'self']);
const unsureWords = new Set([
  folded(ownerLabel({ state: 'unresolved' })),
  'not sure',
  'unknown',
  'unresolved',
]);

/** Whether the words typed are the list's for the Brain's own person: "you", or "Lucía (you)" as it writes her. */
function namesYou(said: string): boolean {
  // Only the Brain's own person is shown with "(you)".
  return youWords.has(said) || said.endsWith('(you)');
}

/**
 * The API's `owner` for what a person typed in the Whose filter, or put in the address: what the
 * Memories table shows in its Whose column is taken back. The Brain's own person is "you", "Lucía
 * (you)" (ownerLabel's words) or their name, with or without its accents ("lucia"), all `self`;
 * "not sure whose" is `unresolved`. Any other name goes as typed, trimmed: the API matches an owner's
 * name by any of its words, case and accents ignored ("lucia" alone finds Lucía Pérez, the Brain's
 * person or not). `selfName`: the Brain's person, when known.
 */
export function ownerParam(typed: string, selfName?: string): string {
  const name = typed.trim();
  const said = folded(name);
  if (namesYou(said)) return 'self';
  if (selfName && said === folded(selfName)) return 'self';
  if (unsureWords.has(said)) return 'unresolved';
  return name;
}

/**
 * The API's `subject` for what a person typed in the About filter: the Brain's own person ("you",
 * "Lucía (you)", as the About column names her) by her name, under which the API keeps what was said
 * about "me" too; anything else as typed, trimmed, which the API matches by any of a subject's words,
 * case and accents ignored. Without the person's name known, "you" asks for the subject `self`.
 */
export function subjectParam(typed: string, selfName?: string): string {
  const name = typed.trim();
  if (namesYou(folded(name))) return selfName ?? 'self';
  return name;
}
