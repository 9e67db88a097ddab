/**
 * `correction_outcomes`: what each correction that came from another side (sync) did here: applied to
 * the Memory of its Records that says what it corrected, applied by a fallback (the Memory holding the
 * same slot, the one closest in words, or its statement as a Memory of its own), or not applied, and
 * why (engine/derive/travelled-correction.ts). Gone with its Record. Its reason names Memories by id,
 * never what a Record says. `missing`: the ids (JSON) of the Records it names that were not here, for
 * one not applied for want of them; it is derived again when one arrives.
 *
 * A correction from another side derived before this version that changed nothing here (no Memory
 * cites it, none is withdrawn by it) was matched by its statement alone, and stayed unapplied for good:
 * it is derived again, with the fallbacks.
 */
export const correctionOutcomes = {
  version: 26,
  name: 'correction-outcomes',
  sql: `
CREATE TABLE correction_outcomes (
  record_id TEXT PRIMARY KEY REFERENCES records(id) ON DELETE CASCADE,
  brain_uid TEXT NOT NULL REFERENCES brains(uid) ON DELETE CASCADE,
  state TEXT NOT NULL CHECK (state IN ('applied', 'applied_by_fallback', 'not_applied')),
  matched_by TEXT CHECK (matched_by IN ('statement', 'slot', 'closest_statement', 'stated')),
  memory_id TEXT,
  reason TEXT NOT NULL,
  missing TEXT
) STRICT, WITHOUT ROWID;
CREATE INDEX correction_outcomes_brain ON correction_outcomes (brain_uid, state);
CREATE INDEX correction_outcomes_missing ON correction_outcomes (brain_uid) WHERE missing IS NOT NULL;

INSERT INTO derive_queue (brain_uid, job, record_id, record_seq)
SELECT r.brain_uid, 'derive', r.id, r.seq FROM records r
WHERE r.kind = 'correction' AND json_extract(r.content, '$.target') IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM citations c WHERE c.record_id = r.id)
  AND r.id NOT IN (SELECT retracted_by FROM memories WHERE retracted_by IS NOT NULL)
  AND NOT EXISTS (SELECT 1 FROM derive_queue q WHERE q.record_id = r.id);
`,
};
