import type { Db } from '../open-database.ts';

/**
 * The corrections from another side whose target matched no Memory of their Records here, marked
 * (`unmatched`) and indexed: one stated as a Memory of its own (`matched_by = 'stated'`), or a
 * withdrawal that withdrew nothing (`not_applied`, having nothing to state). Deriving one of the Records
 * a correction's target names again (a deriver upgrade) looks them up, and matches such a correction
 * again when that Record's Memories changed (engine/derive/travelled-correction.ts, `rematchUnmatched`).
 * A mark, not the reason's words: other corrections not applied (more than one Memory says what it
 * corrected, the Memory found takes no correction, none of its Records here) are not matched again.
 * They are few, and looked up for every Record whose Memories an upgrade changes.
 *
 * The stated ones are marked here; a withdrawal left unapplied before this version is not (nothing
 * kept tells why it was not applied). In the engine's code: a store set back to before an earlier
 * migration (as tests of that migration do) runs this one again, and SQLite adds a column only once.
 */
export const unmatchedCorrections = {
  version: 30,
  name: 'unmatched-corrections',
  sql: '',
  after(db: Db): void {
    const columns = db.prepare(`SELECT name FROM pragma_table_info('correction_outcomes')`).all() as {
      name: string;
    }[];
    if (!columns.some((c) => c.name === 'unmatched'))
      db.exec(
        `ALTER TABLE correction_outcomes ADD COLUMN unmatched INTEGER NOT NULL DEFAULT 0 CHECK (unmatched IN (0, 1))`,
      );
    db.exec(`UPDATE correction_outcomes SET unmatched = 1 WHERE matched_by = 'stated';
CREATE INDEX IF NOT EXISTS correction_outcomes_unmatched ON correction_outcomes (brain_uid) WHERE unmatched = 1;`);
  },
};
