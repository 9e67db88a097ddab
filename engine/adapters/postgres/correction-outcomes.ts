import type { CorrectionOutcomeRepository, CorrectionOutcomeRow } from '../../ports/index.ts';
import type { PgQueryable } from './client.ts';

/**
 * One Brain's correction_outcomes over PostgreSQL (migration 022; `unmatched` and its index, 024), as the
 * SQLite adapter's.
 */
export function pgCorrectionOutcomes(q: PgQueryable, brainUid: string): CorrectionOutcomeRepository {
  return {
    async put(o) {
      await q.query(
        `INSERT INTO correction_outcomes
           (brain_uid, record_id, state, matched_by, memory_id, reason, missing, unmatched)
         VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8)
         ON CONFLICT (brain_uid, record_id) DO UPDATE SET state = excluded.state,
           matched_by = excluded.matched_by, memory_id = excluded.memory_id, reason = excluded.reason,
           missing = excluded.missing, unmatched = excluded.unmatched`,
        [
          brainUid,
          o.record_id,
          o.state,
          o.matched_by,
          o.memory_id,
          o.reason,
          o.missing.length > 0 ? JSON.stringify(o.missing) : null,
          o.unmatched,
        ],
      );
    },
    async of(recordIds) {
      if (recordIds.length === 0) return [];
      const r = await q.query<Omit<CorrectionOutcomeRow, 'missing'> & { missing: string[] | null }>(
        `SELECT record_id, state, matched_by, memory_id, reason, missing, unmatched FROM correction_outcomes
         WHERE brain_uid = $1 AND record_id = ANY ($2::text[])`,
        [brainUid, [...recordIds]],
      );
      return r.rows.map((row) => ({ ...row, missing: row.missing ?? [] }));
    },
    async missing(recordIds) {
      if (recordIds.length === 0) return [];
      const r = await q.query<{ id: string }>(
        `SELECT record_id AS id FROM correction_outcomes
         WHERE brain_uid = $1 AND missing IS NOT NULL AND missing ?| $2::text[] ORDER BY 1`,
        [brainUid, [...recordIds]],
      );
      return r.rows.map((row) => row.id);
    },
    async unmatched(recordIds) {
      if (recordIds.length === 0) return [];
      // The unmatched ones alone, by their index (migration 024); their target is in the Record's content.
      const r = await q.query<{ id: string }>(
        `SELECT o.record_id AS id FROM correction_outcomes o
         JOIN records r ON r.brain_uid = o.brain_uid AND r.id = o.record_id
         WHERE o.brain_uid = $1 AND o.unmatched
           AND (r.content::jsonb -> 'target' -> 'records') ?| $2::text[]
         ORDER BY 1`,
        [brainUid, [...recordIds]],
      );
      return r.rows.map((row) => row.id);
    },
  };
}
