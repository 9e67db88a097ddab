/**
 * `correction_outcomes`, as the local engine's migration 026: what each correction that came from
 * another side did here (engine/derive/travelled-correction.ts), gone with its Record. Its reason names
 * Memories by id, never what a Record says.
 */
export const correctionOutcomes = {
  version: 22,
  name: 'correction outcomes',
  sql: `
CREATE TABLE correction_outcomes (
  brain_uid text NOT NULL REFERENCES brains(uid) ON DELETE CASCADE,
  record_id text COLLATE "C" NOT NULL,
  state text NOT NULL CHECK (state IN ('applied', 'applied_by_fallback', 'not_applied')),
  matched_by text CHECK (matched_by IN ('statement', 'slot', 'closest_statement', 'stated')),
  memory_id text COLLATE "C",
  reason text NOT NULL,
  PRIMARY KEY (brain_uid, record_id),
  FOREIGN KEY (brain_uid, record_id) REFERENCES records (brain_uid, id) ON DELETE CASCADE
);
`,
};
