import { humanizePredicate } from '../../contract/fact-line.ts';
import { normalizeStatement } from './record-text.ts';

/** The part of a slot key its subject decides: every slot of that subject starts with it. */
export function slotPrefix(subject: string): string {
  return `${normalizeStatement(subject)}\u001f`;
}

/**
 * Fact predicates (as normalised: lower case, `_` as a space) that name the very slot a message's
 * sentence holds (slot-sentences.ts), keyed as that sentence keys it. Without them, a fact
 * `home_city: Lisbon` and "I moved to Porto" were two current homes of one person, with no
 * supersession and no conflict shown. Only words whose one meaning is that slot: not `hometown`
 * (where one grew up), `address` (a street, not a city), `job` or `work` (a role as often as an
 * employer), nor a bare `mobile` or `cell`, nor `called` (a call made as often as a name). A predicate
 * not listed keeps its own slot.
 */
const slotPredicates: Readonly<Record<string, string>> = Object.fromEntries(
  (
    [
      [
        'lives in',
        [
          'home city',
          'home',
          'city',
          'current city',
          'city of residence',
          'lives in',
          'location',
          'residence',
          'place of residence',
        ],
      ],
      [
        'works at',
        ['employer', 'current employer', 'company', 'workplace', 'works at', 'works for', 'job company'],
      ],
      [
        'phone number',
        [
          'phone',
          'phone number',
          'mobile number',
          'mobile phone number',
          'cell number',
          'cell phone number',
          'cellphone number',
          'telephone',
          'telephone number',
        ],
      ],
      ['email address', ['email', 'email address', 'e-mail', 'e-mail address', 'e mail', 'e mail address']],
      ['diet', ['diet', 'dietary preference', 'diet type']],
      ['relationship status', ['relationship status', 'marital status', 'civil status']],
      ['studies at', ['studies at', 'school', 'university', 'college', 'current school']],
      // Not `called`: "Ana called Mom" is a call made, and would make Mom her.
      ['nickname', ['nickname', 'nick name', 'goes by', 'known as', 'preferred name']],
      ['occupation', ['occupation', 'profession', 'job title', 'current job title', 'current occupation']],
    ] as const
  ).flatMap(([slot, names]) => names.map((name) => [name, slot])),
);

/** US and UK spellings of a favourite are one attribute, as slot-sentences.ts reads them. */
const favouriteSpellings: Readonly<Record<string, string>> = {
  favorite: 'favourite',
  color: 'colour',
  colors: 'colours',
  flavor: 'flavour',
};

/**
 * The predicate part of a slot key: the predicate as people read it (`lives_in`, `Lives In` and a
 * message's "lives in" are one), a fact predicate that names a slot a sentence holds taken as that
 * slot (`home_city` is "lives in", `employer` is "works at"), and `favorite_color` as "favourite colour".
 */
export function slotPredicate(predicate: string): string {
  const read = normalizeStatement(humanizePredicate(predicate));
  const words = read.split(' ');
  if (words[0] === 'favourite' || words[0] === 'favorite')
    return words.map((w) => favouriteSpellings[w] ?? w).join(' ');
  return slotPredicates[read] ?? read;
}

/**
 * The key of the slot a claim holds, one per (who, what): "me" and the Brain's own name are one person
 * (the owner the claim resolved to), and a predicate is one slot however it was written
 * (`slotPredicate`: a fact's `home_city` and a message's "lives in" are one). Keyed by the raw subject
 * and slug, a Brain held three current homes.
 */
export function slotKey(
  subject: string,
  predicate: string,
  owner: { state: string; entity?: string | null | undefined },
): string {
  const who = owner.state === 'self' && owner.entity ? owner.entity : subject;
  return `${slotPrefix(who)}${slotPredicate(predicate)}`;
}
