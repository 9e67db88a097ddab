import { normalizeStatement } from './record-text.ts';
import { slotPredicate } from './slot-key.ts';
import {
  attributeSentence,
  endDateSaid,
  newHomeSaid,
  otherPersonSlot,
  phoneShaped,
  slotSentences,
} from './slot-sentences.ts';
import { endedStatement, saidBy, slotStatementHeads } from './slot-statement.ts';

/** What a slot's statement is read from: its words, and the subject and predicate it was written with. */
export interface SlotStatement {
  statement: string;
  subject: string;
  predicate: string | null;
}

/**
 * A phone number is its digits, with a leading "+" kept: "555-0198", "555 0198", "(555) 0198" and
 * "555.0198" are one number, dialled alike; "+1 555 0198" is not "1 555 0198" nor "555 0198", since
 * which country code is meant is not ours to guess.
 */
function phoneDigits(value: string): string {
  return (value.startsWith('+') ? '+' : '') + value.replace(/\D/gu, '');
}

/**
 * The value a slot's statement gives, as it was said, read back from the forms derivation writes: a
 * fact's line ("me home city: Lisbon"), a sentence's slot ("Ana lives in Lisbon"), a favourite, phone
 * or e-mail said alone ("Ana's favourite colour is blue") and a home or employer in the speaker's own
 * sentence ("I live in Lisbon with my partner Tom": "Lisbon"; "My sister Ana lives in Madrid":
 * "Madrid"), and any of them as someone else said it of her ("Rui says Ana lives in Porto": "Porto"). Null for any other words (an ending, a person's correction that names no one value). What
 * a Memory's page shows as its slot's value, and what slotValue compares.
 */
export function slotValueAsSaid(said: SlotStatement): string | null {
  // "Rui says Ana lives in Porto" gives the value "Ana lives in Porto" does: it meets hers by it.
  const s = { ...said, statement: saidBy(said)?.statement ?? said.statement };
  if (s.predicate === null || endedValue(s) !== null) return null;
  const form = slotStatementHeads(s.subject, s.predicate).find((f) => s.statement.startsWith(f));
  const value =
    form === undefined
      ? sentenceValue(s.statement, slotPredicate(s.predicate))
      : s.statement.slice(form.length);
  return value === null || normalizeStatement(value) === '' ? null : value.trim();
}

/**
 * The value a slot's statement gives (slotValueAsSaid), normalised as statements are. A phone number
 * written as one is its digits (phoneDigits). Null for any other words: those are compared whole.
 */
export function slotValue(s: SlotStatement): string | null {
  const said = slotValueAsSaid(s);
  if (said === null || s.predicate === null) return null;
  const value = normalizeStatement(said);
  return slotPredicate(s.predicate) === 'phone number' && phoneShaped(value) ? phoneDigits(value) : value;
}

/**
 * The value of a home or an employer whose statement is the speaker's own sentence ("I live in Lisbon
 * with my partner Tom", which holds the slot in its own words since `rules-v28`), as the sentence says
 * it; null when it states no one value of that slot.
 */
function sentenceValue(statement: string, predicate: string): string | null {
  const values = slotSentences(statement).slots.filter((x) => x.predicate === predicate);
  if (values.length === 1) return values[0]!.value;
  // "My sister Ana lives in Madrid.": another person's slot in the speaker's words.
  const other = values.length === 0 ? otherPersonSlot(statement) : null;
  if (other?.predicate === predicate) return other.value;
  // "My gym membership ends on January 31, 2027.": the day, as a fact's line of the slot gives it.
  const until = values.length === 0 ? endDateSaid(statement) : null;
  if (until?.predicate === predicate) return until.value;
  // "The new flat is at Vlaška 17 in Zagreb.", "My address is Vlaška 17, 3rd floor.": the street address.
  const home =
    predicate === 'lives in' && values.length === 0
      ? (newHomeSaid(statement, true) ?? attributeSentence(statement))
      : null;
  return home?.predicate === predicate ? home.value : null;
}

/**
 * The value a slot's version says has ended ("Ana no longer works at Acme": "acme", normalised as
 * statements are), read back from the words derivation writes for an ending (endedStatement); null
 * for a version that gives a value.
 */
export function endedValue(s: SlotStatement): string | null {
  const said = endedValueAsSaid(s);
  return said === null ? null : normalizeStatement(said);
}

/** The value an ending says has ended, as it was written ("Tom Reyes"); null for any other version. */
export function endedValueAsSaid(said: SlotStatement): string | null {
  // "Rui says Ana no longer works at Acme" ends what "Ana no longer works at Acme" does.
  const s = { ...said, statement: saidBy(said)?.statement ?? said.statement };
  if (s.predicate === null) return null;
  const head = endedStatement(s.subject, s.predicate, '');
  if (!s.statement.startsWith(head)) return null;
  const value = s.statement.slice(head.length).trim();
  return normalizeStatement(value) === '' ? null : value;
}

/**
 * Two statements of one slot say the same: the same words (as normalised), or the same value in any
 * of the forms above. A fact `home_city: Lisbon` and "I live in Lisbon" from another source at one
 * instant were two values of the slot, listed as a conflict that agreed with itself, and Context
 * abstained as `conflicting_evidence` for "Where does Ana live?". The caller knows both are of one slot.
 */
export function sameSlotValue(a: SlotStatement, b: SlotStatement): boolean {
  if (normalizeStatement(a.statement) === normalizeStatement(b.statement)) return true;
  const value = slotValue(a);
  return value !== null && value === slotValue(b);
}

/** Whether `value` is the one `name` names, as said in passing ("Tom" names "Tom Reyes"; "globant" "Globant"). */
export function namesValue(value: string, name: string): boolean {
  const [v, n] = [normalizeStatement(value), normalizeStatement(name)];
  return v === n || v.startsWith(`${n} `);
}
