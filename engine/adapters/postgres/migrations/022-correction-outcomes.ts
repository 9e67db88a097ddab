/**
 * `correction_outcomes`, as the local engine's migration 026: what each correction that came from
 * another side did here (engine/derive/travelled-correction.ts), gone with its Record. Its reason names
 * Memories by id, never what a Record says; `missing`, the ids of the Records it names that were not
 * here, for one not applied for want of them. A correction from another side derived before this version
 * that changed nothing here (no Memory cites it, none is withdrawn by it) is derived again, with the
 * fallbacks.
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
  missing jsonb,
  PRIMARY KEY (brain_uid, record_id),
  FOREIGN KEY (brain_uid, record_id) REFERENCES records (brain_uid, id) ON DELETE CASCADE
);
CREATE INDEX correction_outcomes_missing ON correction_outcomes (brain_uid) WHERE missing IS NOT NULL;

INSERT INTO derive_jobs (brain_uid, job, record_id, record_seq)
SELECT r.brain_uid, 'derive', r.id, r.seq FROM records r
WHERE r.kind = 'correction' AND (r.content::jsonb) ? 'target'
  AND NOT EXISTS (SELECT 1 FROM citations c WHERE c.brain_uid = r.brain_uid AND c.record_id = r.id)
  AND NOT EXISTS (SELECT 1 FROM memories m WHERE m.brain_uid = r.brain_uid AND m.retracted_by = r.id)
  AND NOT EXISTS (SELECT 1 FROM derive_jobs j WHERE j.brain_uid = r.brain_uid AND j.record_id = r.id);
`,
};
