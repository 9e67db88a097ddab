/** A Brain's corrections, indexed: the SQLite adapter's migration 032, which says why. */
export const correctionRecords = {
  version: 26,
  name: 'correction records',
  sql: `CREATE INDEX IF NOT EXISTS records_corrections ON records (brain_uid, id) WHERE kind = 'correction';`,
};
