/**
 * The corrections from another side stated here as a Memory of their own (`matched_by = 'stated'`:
 * nothing of their Records matched), indexed: deriving one of the Records a correction's target names
 * again (a deriver upgrade) looks them up, and matches such a correction again when that Record's
 * Memories changed (engine/derive/travelled-correction.ts, `rematchStated`). They are few, and looked
 * up for every Record whose Memories an upgrade changes. `IF NOT EXISTS`: a store set back to before
 * an earlier migration (as tests of that migration do) runs this one again.
 */
export const statedCorrections = {
  version: 30,
  name: 'stated-corrections',
  sql: `CREATE INDEX IF NOT EXISTS correction_outcomes_stated ON correction_outcomes (brain_uid) WHERE matched_by = 'stated';`,
};
