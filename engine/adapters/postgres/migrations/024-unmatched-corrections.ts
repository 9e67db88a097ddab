/**
 * The corrections from another side whose target matched no Memory of their Records here, marked
 * (`unmatched`) and indexed: the SQLite adapter's migration 030, which says why.
 */
export const unmatchedCorrections = {
  version: 24,
  name: 'unmatched corrections',
  sql: `
ALTER TABLE correction_outcomes ADD COLUMN IF NOT EXISTS unmatched boolean NOT NULL DEFAULT false;
UPDATE correction_outcomes SET unmatched = true WHERE matched_by = 'stated';
CREATE INDEX IF NOT EXISTS correction_outcomes_unmatched ON correction_outcomes (brain_uid) WHERE unmatched;
`,
};
