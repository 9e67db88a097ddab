/**
 * A Brain's corrections, indexed: every forget looks up those whose kept target names a Record it
 * forgets (forget-cascade.ts), and a Brain's Records are mostly not corrections, so a forget of one
 * Record does not read them all.
 */
export const correctionRecords = {
  version: 32,
  name: 'correction-records',
  sql: `CREATE INDEX IF NOT EXISTS records_corrections ON records (brain_uid, id) WHERE kind = 'correction';`,
};
