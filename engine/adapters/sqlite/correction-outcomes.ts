import type { CorrectionOutcomeRepository, CorrectionOutcomeRow } from '../../ports/index.ts';
import type { Store } from './store.ts';

/** One Brain's correction_outcomes over SQLite (migration 026); a row goes with its Record by foreign key. */
export function sqliteCorrectionOutcomes(store: Store, brainUid: string): CorrectionOutcomeRepository {
  return {
    async put(o) {
      store.run(
        `INSERT OR REPLACE INTO correction_outcomes (record_id, brain_uid, state, matched_by, memory_id, reason)
         VALUES (?, ?, ?, ?, ?, ?)`,
        o.record_id,
        brainUid,
        o.state,
        o.matched_by,
        o.memory_id,
        o.reason,
      );
    },
    async of(recordIds) {
      if (recordIds.length === 0) return [];
      return store.all<CorrectionOutcomeRow>(
        `SELECT record_id, state, matched_by, memory_id, reason FROM correction_outcomes
         WHERE brain_uid = ? AND record_id IN (SELECT value FROM json_each(?))`,
        brainUid,
        JSON.stringify(recordIds),
      );
    },
  };
}
