import type { CorrectionOutcomeRepository, CorrectionOutcomeRow } from '../../ports/index.ts';
import type { PgQueryable } from './client.ts';

/** One Brain's correction_outcomes over PostgreSQL (migration 022), as the SQLite adapter's. */
export function pgCorrectionOutcomes(q: PgQueryable, brainUid: string): CorrectionOutcomeRepository {
  return {
    async put(o) {
      await q.query(
        `INSERT INTO correction_outcomes (brain_uid, record_id, state, matched_by, memory_id, reason)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (brain_uid, record_id) DO UPDATE SET state = excluded.state,
           matched_by = excluded.matched_by, memory_id = excluded.memory_id, reason = excluded.reason`,
        [brainUid, o.record_id, o.state, o.matched_by, o.memory_id, o.reason],
      );
    },
    async of(recordIds) {
      if (recordIds.length === 0) return [];
      const r = await q.query<CorrectionOutcomeRow>(
        `SELECT record_id, state, matched_by, memory_id, reason FROM correction_outcomes
         WHERE brain_uid = $1 AND record_id = ANY ($2::text[])`,
        [brainUid, [...recordIds]],
      );
      return r.rows;
    },
  };
}
