/**
 * Withdrawals from another side left unapplied before migration 024 are marked `unmatched` and derived
 * again, which matches them again: the SQLite adapter's migration 031, which says why.
 */
export const unmatchedWithdrawals = {
  version: 25,
  name: 'unmatched withdrawals',
  sql: `
UPDATE correction_outcomes o SET unmatched = true
FROM records r
WHERE r.brain_uid = o.brain_uid AND r.id = o.record_id
  AND o.state = 'not_applied' AND NOT o.unmatched AND o.missing IS NULL
  AND r.kind = 'correction' AND (r.content::jsonb) ? 'target' AND NOT ((r.content::jsonb) ? 'statement');

INSERT INTO derive_jobs (brain_uid, job, record_id, record_seq)
SELECT r.brain_uid, 'derive', r.id, r.seq
FROM correction_outcomes o JOIN records r ON r.brain_uid = o.brain_uid AND r.id = o.record_id
WHERE o.unmatched AND o.state = 'not_applied'
  AND NOT EXISTS (SELECT 1 FROM derive_jobs j WHERE j.brain_uid = r.brain_uid AND j.record_id = r.id);
`,
};
