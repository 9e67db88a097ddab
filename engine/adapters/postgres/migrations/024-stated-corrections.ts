/**
 * The corrections from another side stated here as a Memory of their own, indexed: the SQLite
 * adapter's migration 030, which says why.
 */
export const statedCorrections = {
  version: 24,
  name: 'stated corrections',
  sql: `CREATE INDEX IF NOT EXISTS correction_outcomes_stated ON correction_outcomes (brain_uid) WHERE matched_by = 'stated';`,
};
