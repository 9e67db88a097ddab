/**
 * Which deriver (its `Deriver.name`) last derived each Record, so a change to the rules reaches what
 * was written before it: Records derived by another one, or before this column (NULL), are derived
 * again in the background (engine/derive/upgrade-derivation.ts). Until this version a fix to sentence
 * splitting left every Record it would have changed as it was ("My dentist is Dr." and "Silva in
 * Braga." stayed two Memories).
 */
export const recordsDerivedBy = {
  version: 15,
  name: 'records-derived-by',
  sql: `ALTER TABLE records ADD COLUMN derived_by TEXT;`,
};
