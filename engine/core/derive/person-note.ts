import { withoutMarkup } from './note-markup.ts';
import { slotPredicate } from './slot-key.ts';
import { possessedAttribute, type AttributeSentence } from './slot-sentences.ts';

/** A note's line of one key and its value: "Birthday: 14 March", "company: [[Acme Corp]]". */
const keyLine = /^(?<key>\p{L}[\p{L}\p{M} _-]{0,30}):[ \t]+(?<value>[^\n]{1,100})$/u;
/** The slots a key names as a fact's predicate would (slot-key.ts): not `job` or `address`. */
const keyedSlots = new Set(['lives in', 'works at', 'occupation']);
/** Keys a people folder gives a role by, which a fact's predicate does not ("role" of what?). */
const roleKeys = new Set(['role', 'position', 'job role']);

/**
 * The slot of the person a note is named after that one of its lines gives as `key: value`, as a
 * people folder keeps them ("Birthday: 14 March", "Partner: Dev", "company: [[Acme Corp]]", a property
 * line "city: Bristol"): read as "Priya Shah's birthday is 14 March" would be (possessedAttribute), or
 * for a home, an employer or an occupation, as a fact of that predicate is. Null for any other line.
 */
export function personNoteSlot(line: string, person: string, obsidian: boolean): AttributeSentence | null {
  const m = keyLine.exec(line.trim());
  if (!m) return null;
  const key = m.groups!['key']!.trim().replace(/[_-]+/gu, ' ');
  let value = withoutMarkup(m.groups!['value']!, obsidian).trim();
  while (/[.;,]$/u.test(value)) value = value.slice(0, -1);
  if (value === '' || /^(?:n\/a|none|unknown|\?+|-+)$/iu.test(value)) return null;
  const slot = roleKeys.has(key.toLowerCase()) ? 'occupation' : slotPredicate(key);
  if (keyedSlots.has(slot)) return { predicate: slot, value };
  const said = possessedAttribute(`${person}'s ${key.toLowerCase()} is ${value}`);
  if (said === null || said.attribute.ends) return null;
  // "Address: Vlaška 17" (or "Vlaška 17, 10000 Zagreb, 2nd floor"): the home by its street address,
  // which the note's "City: Zagreb" beside it puts in its city (rule-deriver.ts `oneHomeSaid`).
  if (said.attribute.predicate === 'lives in') return { predicate: 'lives in', value: said.attribute.value };
  if (said.attribute.own) return null;
  // "Email: send invites" in a list of things to do is no address.
  return said.attribute.predicate === 'email address' && !/\S@\S/u.test(value) ? null : said.attribute;
}

/** Slots only a person has: a note titled with one word that gives one of them is that person's. */
const ownedByPeople = new Set(['birthday', 'phone number', 'email address', 'partner', 'wife', 'husband']);

/**
 * Whether a note's line gives the person a slot only a person has ("Birthday: March 12", "- Phone: …"),
 * its list marker aside.
 */
export function givesWhatOnlyAPersonHas(line: string, person: string, obsidian: boolean): boolean {
  const bare = line.replace(/^\s*(?:[-*+]|\d{1,3}[.)])\s+/u, '');
  return ownedByPeople.has(personNoteSlot(bare, person, obsidian)?.predicate ?? '');
}

/**
 * The person a note titled with a first name alone is about ("Priya"), where one of its lines gives a
 * slot only a person has ("Birthday: 14 March", "Phone: …"): a one-word title is as often "Ideas" or
 * "Budget", so the word alone says nothing. Null otherwise.
 */
export function firstNameTitled(
  title: string | undefined,
  lines: readonly string[],
  obsidian: boolean,
): string | null {
  const t = title?.trim() ?? '';
  if (!/^\p{Lu}[\p{Ll}\p{M}'’-]+$/u.test(t)) return null;
  const owned = lines.some((l) => ownedByPeople.has(personNoteSlot(l, t, obsidian)?.predicate ?? ''));
  return owned ? t : null;
}
