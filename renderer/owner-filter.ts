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

/**
 * The API's `owner` for what a person typed in the Whose filter, or put in the address: what the
 * Memories table shows in its Whose column is taken back. The Brain's own person is "you", "Lucía
 * (you)" (ownerLabel's words) or their name, with or without its accents ("lucia"), all `self`;
 * "not sure whose" is `unresolved`. Any other name goes as typed, trimmed: the API matches an owner's
 * name without regard to case (but with its accents, which the UI cannot fold for names it does not
 * know). `selfName`: the Brain's person, when known.
 */
export function ownerParam(typed: string, selfName?: string): string {
  const name = typed.trim();
  const said = folded(name);
  // "Lucía (you)", as the table writes the Brain's own person: only they are shown with "(you)".
  const you = said.endsWith('(you)') ? said.slice(0, -'(you)'.length).trim() : null;
  if (youWords.has(said) || you !== null) return 'self';
  if (selfName && said === folded(selfName)) return 'self';
  if (unsureWords.has(said)) return 'unresolved';
  return name;
}
