/**
 * The Records still to be derived again because the rules changed (engine/derive/upgrade-derivation.ts):
 * until this version a fix to sentence splitting left every Record it would have changed as it was
 * ("My dentist is Dr." and "Silva in Braga." stayed two Memories). A list of its own rather than a
 * column of records: the pass reads it in order without touching a Record it has done, and a Record
 * forgotten meanwhile leaves it by cascade. The deriver the list was made for is `meta.derived_by`.
 */
export const deriveUpgrade = {
  version: 15,
  name: 'derive-upgrade',
  sql: `CREATE TABLE derive_upgrade (n INTEGER PRIMARY KEY REFERENCES records(n) ON DELETE CASCADE) STRICT;`,
};
