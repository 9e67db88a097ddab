import { endedHead, factLineHead, saidAsVerb } from '../../contract/fact-line.ts';
import { homeAddressShaped } from './street-address.ts';

/**
 * The words a slot's statement opens with, before its value, in each form derivation writes: a fact's
 * line ("Ana home city: "), an attribute said alone ("Ana's favourite colour is ") and a slot clause
 * ("Ana lives in "). The rule deriver writes statements with them and slot-value.ts reads a value back
 * after them, so the two cannot drift apart.
 */
export const slotStatementHeads = (subject: string, predicate: string): string[] => [
  factLineHead(subject, predicate),
  attributeHead(subject, predicate),
  clauseHead(subject, predicate),
  ...(predicate === 'lives in' ? [livesAtHead(subject)] : []),
];

const attributeHead = (subject: string, predicate: string) => `${subject}'s ${predicate} is `;
/**
 * "Ana lives in Porto", and for a home given by its street address "Ana lives at Vlaška 17" or, in
 * its city, "Ana lives at Vlaška 17, Zagreb" (street-address.ts): one slot, where she lives, in the
 * words people use of each.
 */
const clauseHead = (subject: string, predicate: string, value?: string) =>
  predicate === 'lives in' && value !== undefined && homeAddressShaped(value)
    ? livesAtHead(subject)
    : `${subject} ${predicate} `;
const livesAtHead = (subject: string) => `${subject} lives at `;

/** "Ana's favourite colour is blue": an attribute said alone ("My favourite colour is blue now."). */
const attributeStatement = (subject: string, predicate: string, value: string): string =>
  attributeHead(subject, predicate) + value;

/** "Ana lives in Porto": a slot clause of a sentence ("I live in Porto and ..."). */
export const clauseStatement = (subject: string, predicate: string, value: string): string =>
  clauseHead(subject, predicate, value) + value;

/** A slot's value in the engine's words, a clause or an attribute as its predicate is said (saidAsVerb). */
export const valueStatement = (subject: string, predicate: string, value: string): string =>
  (saidAsVerb(predicate) ? clauseStatement : attributeStatement)(subject, predicate, value);

/** "Ana no longer lives in Lisbon": a slot's value the speaker says has ended ("I don't live in …"). */
export const endedStatement = (subject: string, predicate: string, value: string): string =>
  endedHead(subject, predicate) + value;

/**
 * "Rui says Ana lives in Porto": a value of the Brain's person's slot that someone else said of her
 * by name (rule-deriver.ts `saidOfSelf`). Her slot holds it, so that it meets what she said herself,
 * but its words keep who said it: a reader, and the slot's settling (settle-lineage.ts), tell it from
 * her own word by them.
 */
export const saidByStatement = (by: string, statement: string): string => `${by}${saidByJoin}${statement}`;
const saidByJoin = ' says ';

/**
 * Who said a slot's statement of its subject, where someone else did (saidByStatement), and the
 * statement as said: null for anyone's own words. Only where what follows "says" opens with the
 * subject, so "Ana says hi" of no slot, or her own "I live where Rui says" is no such statement.
 */
export function saidBy(s: { statement: string; subject: string }): { by: string; statement: string } | null {
  const at = s.statement.indexOf(saidByJoin);
  if (at <= 0) return null;
  const statement = s.statement.slice(at + saidByJoin.length);
  return statement.startsWith(`${s.subject} `) || statement.startsWith(`${s.subject}'s `)
    ? { by: s.statement.slice(0, at), statement }
    : null;
}
