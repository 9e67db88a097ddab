import { selfSpeakerNames, type SelfEntity } from '../../contract/index.ts';
import { foldText } from '../shared/fold-text.ts';
import type { OwnerClaim } from './deriver.ts';

/**
 * What the Brain says of the self's first name said alone ("Maya" for the self "Maya Costa"), as a chat
 * export names its people: `self` when no other speaker of the Brain has that first name, `ambiguous`
 * when one does ("Maya Silva"). Left out where nobody asked the Brain (a Context's speaker check): the
 * first name alone is then another person's name.
 */
export type SelfFirstName = 'self' | 'ambiguous';

/** A name as names are compared: folded (case and accents off, fold-text.ts), its spaces one. */
export const foldName = (name: string): string => foldText(name).trim().replace(/\s+/gu, ' ');

/**
 * A name written in Han, kana or Hangul: family name first ("田中 由紀", "김 민준"), and as often
 * written without the space between them ("田中由紀").
 */
const familyFirst =
  /^[\p{Script_Extensions=Han}\p{Script_Extensions=Hiragana}\p{Script_Extensions=Katakana}\p{Script=Hangul} ]+$/u;

/** Whether two names, folded (foldName), are one: equal, or written in those scripts with or without the space. */
export function sameName(a: string, b: string): boolean {
  if (a === b) return true;
  return familyFirst.test(a) && familyFirst.test(b) && a.replaceAll(' ', '') === b.replaceAll(' ', '');
}

const hanOrHangul = /[\p{Script_Extensions=Han}\p{Script=Hangul}]/u;

/**
 * The word of a folded name of two words or more that a person is called by alone: the first ("maya" of
 * "maya costa"), or the last where the family name comes first ("由紀" of "田中 由紀": 田中 alone is the
 * family's, as likely her father as her). Null for a name in kana alone, as often a Western name written
 * given name first ("ジョン スミス") as a Japanese one written family name first: neither word is known
 * to be the one she is called by.
 */
export function givenName(folded: string): string | null {
  const words = folded.split(' ');
  if (!familyFirst.test(folded)) return words[0]!;
  return hanOrHangul.test(folded) ? words[words.length - 1]! : null;
}

/**
 * The self's first name, folded, where it has one to be called by: a person's name of two words or
 * more ("Maya Costa": "maya"). Null for an org, a one-word name (already the name itself) and no self.
 */
export function selfFirstName(self: SelfEntity | null): string | null {
  if (self?.type !== 'person') return null;
  const folded = foldName(self.name);
  return folded.includes(' ') ? givenName(folded) : null;
}

/**
 * Whether `text` names `first` (a folded first name, selfFirstName) as a word of its own: "Lena's
 * birthday is May 4.", "lena lives in Graz" for "lena", not "Magdalena" or "Lenart". The rules then read
 * a name that opens a sentence as the self's when it is her first name (resolveOwner); a greeting or a
 * request to her ("Morning Lena, …", "Lena, can you …") holds nothing of hers whoever it names.
 */
export function namesFirstName(text: string, first: string): boolean {
  const folded = foldName(text);
  for (let at = folded.indexOf(first); at !== -1; at = folded.indexOf(first, at + 1)) {
    const before = folded[at - 1];
    const after = folded[at + first.length];
    if ((before === undefined || !wordChar.test(before)) && (after === undefined || !wordChar.test(after)))
      return true;
  }
  return false;
}

/** A letter, a digit or a joiner of a name ("Anne-Marie"), which a word of a name does not end beside. */
const wordChar = /[\p{L}\p{M}\p{N}_-]/u;

/**
 * What the Brain says of the self's first name alone where one of `names` is it (a message's speaker,
 * an event's participant, a Context passage's speaker): `self` unless another speaker of the Brain has
 * that first name ("Maya Silva"), `ambiguous` when one does. Asked of `speakersFirstNamed` (the store's
 * BrainUnitOfWork.speakersFirstNamed) only then; left out (undefined) when no name is it, so most calls
 * read nothing. One rule for derivation (derive-context.ts) and a Context's speaker checks.
 */
export async function selfFirstNameOf(
  self: SelfEntity | null,
  names: Iterable<string | null | undefined>,
  speakersFirstNamed: (first: string) => Promise<string[]>,
): Promise<SelfFirstName | undefined> {
  const first = selfFirstName(self);
  if (first === null) return undefined;
  let named = false;
  for (const n of names)
    if (typeof n === 'string' && foldName(n) === first) {
      named = true;
      break;
    }
  if (!named) return undefined;
  const own = foldName(self!.name);
  const others = (await speakersFirstNamed(first)).filter((n) => n !== own && n !== first);
  return others.length > 0 ? 'ambiguous' : 'self';
}

/**
 * Who the Brain's own person is, as a Context's speaker checks read it (questions-last.ts,
 * fit-budget.ts): the self, and what its first name alone says (selfFirstNameOf; left out, the first
 * name alone is another person's).
 */
export interface OwnPerson {
  self: SelfEntity | null;
  selfFirstName?: SelfFirstName | undefined;
}

/** Whether `speaker` is the Brain's own person, by resolveOwner's rule. */
export const spokenBySelf = (speaker: string | null, who: OwnPerson): boolean =>
  speaker !== null &&
  who.self !== null &&
  resolveOwner(speaker, who.self, who.selfFirstName).state === 'self';

/**
 * Who a statement belongs to. A name resolves to `self` when it is one of the contract's
 * selfSpeakerNames or equals the Brain's self.name as names are compared (foldName: case, accents,
 * Unicode form and spaces aside), but only when the Brain has a self: without one there is nobody to
 * attribute "me" to, so it stays `unresolved`. The self's first name alone (folded: "maya", "Mayá" for "Maya Costa") is the self when the Brain knows no
 * other person by it (`firstName` 'self'), nobody known when it does ('ambiguous': "Maya" may be Maya
 * Silva). Any other name is `other`.
 */
export function resolveOwner(
  name: string | undefined | null,
  self: SelfEntity | null,
  firstName?: SelfFirstName,
): OwnerClaim {
  const n = name?.trim();
  if (!n) return { state: 'unresolved' };
  const key = n.toLowerCase().replace(/\s+/g, ' ');
  // The self's name folded as its first name is: "Ines Conceicao", and "Inês" written as "e" and a
  // combining accent (NFD, as macOS file names and some exports write it), are "Inês Conceição".
  const isSelf = selfSpeakerNames.has(key) || (self !== null && sameName(foldName(self.name), foldName(n)));
  if (isSelf) return self ? { state: 'self', entity: self.name } : { state: 'unresolved' };
  if (firstName !== undefined && foldName(n) === selfFirstName(self))
    return firstName === 'self' ? { state: 'self', entity: self!.name } : { state: 'unresolved' };
  return { state: 'other', entity: n };
}
