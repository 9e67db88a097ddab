import { humanizePredicate } from '../../contract/fact-line.ts';
import { normalizeStatement } from './record-text.ts';

/** What a slot's statement is read from: its words, and the subject and predicate it was written with. */
export interface SlotStatement {
  statement: string;
  subject: string;
  predicate: string | null;
}

/**
 * The value a slot's statement gives, normalised as statements are, read back from the forms
 * derivation writes: a fact's line ("me home city: Lisbon"), a sentence's slot ("Ana lives in
 * Lisbon") and a favourite, phone or e-mail said alone ("Ana's favourite colour is blue"). Null for any
 * other words (a person's correction in their own words): those are compared whole.
 */
export function slotValue(s: SlotStatement): string | null {
  if (s.predicate === null) return null;
  const forms = [
    `${s.subject} ${humanizePredicate(s.predicate)}: `,
    `${s.subject}'s ${s.predicate} is `,
    `${s.subject} ${s.predicate} `,
  ];
  const form = forms.find((f) => s.statement.startsWith(f));
  if (form === undefined) return null;
  const value = normalizeStatement(s.statement.slice(form.length));
  return value === '' ? null : value;
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
