import type { CorrectionOutcomeRepository, CorrectionOutcomeRow } from '../../ports/index.ts';
import type { Store } from './store.ts';

type Row = Omit<CorrectionOutcomeRow, 'missing' | 'unmatched'> & {
  missing: string | null;
  unmatched: number;
};

/**
 * One Brain's correction_outcomes over SQLite (migration 026; `unmatched` and its index, 030); a row goes
 * with its Record by foreign key.
 */
export function sqliteCorrectionOutcomes(store: Store, brainUid: string): CorrectionOutcomeRepository {
  return {
    async put(o) {
      store.run(
        `INSERT OR REPLACE INTO correction_outcomes
           (record_id, brain_uid, state, matched_by, memory_id, reason, missing, unmatched)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        o.record_id,
        brainUid,
        o.state,
        o.matched_by,
        o.memory_id,
        o.reason,
        o.missing.length > 0 ? JSON.stringify(o.missing) : null,
        o.unmatched ? 1 : 0,
      );
    },
    async of(recordIds) {
      if (recordIds.length === 0) return [];
      return store
        .all<Row>(
          `SELECT record_id, state, matched_by, memory_id, reason, missing, unmatched FROM correction_outcomes
           WHERE brain_uid = ? AND record_id IN (SELECT value FROM json_each(?))`,
          brainUid,
          JSON.stringify(recordIds),
        )
        .map((r) => ({
          ...r,
          missing: r.missing === null ? [] : (JSON.parse(r.missing) as string[]),
          unmatched: r.unmatched === 1,
        }));
    },
    async missing(recordIds) {
      if (recordIds.length === 0) return [];
      return store
        .all<{ id: string }>(
          `SELECT DISTINCT o.record_id AS id FROM correction_outcomes o, json_each(o.missing) m
           WHERE o.brain_uid = ? AND o.missing IS NOT NULL AND m.value IN (SELECT value FROM json_each(?))
           ORDER BY 1`,
          brainUid,
          JSON.stringify(recordIds),
        )
        .map((r) => r.id);
    },
    async unmatched(recordIds) {
      if (recordIds.length === 0) return [];
      // The unmatched ones alone, by their index (migration 030); their target is in the Record's content.
      return store
        .all<{ id: string }>(
          `SELECT DISTINCT o.record_id AS id
           FROM correction_outcomes o JOIN records r ON r.id = o.record_id,
             json_each(r.content, '$.target.records') t
           WHERE o.brain_uid = ? AND o.unmatched = 1 AND r.brain_uid = o.brain_uid
             AND t.value IN (SELECT value FROM json_each(?))
           ORDER BY 1`,
          brainUid,
          JSON.stringify(recordIds),
        )
        .map((r) => r.id);
    },
  };
}
