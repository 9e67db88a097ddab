/**
 * Withdrawals from another side left unapplied before migration 030 kept no `unmatched` mark, so a side
 * that came to word their Records as the writer did never withdrew what the person had withdrawn: the
 * Memory stayed current here for good. Every withdrawal not applied here, and not waiting for Records
 * (`missing`), is marked now and derived again, which matches it again (travelled-correction.ts,
 * `rematch`). Marking one not applied for another reason changes nothing: matching it again withdraws
 * only the one Memory of its Records that says what it withdrew, when that Memory takes a withdrawal
 * (more than one lineage saying it, a Memory that no longer takes it, none of its Records here: it is
 * left as it is).
 */
export const unmatchedWithdrawals = {
  version: 31,
  name: 'unmatched-withdrawals',
  sql: `
UPDATE correction_outcomes SET unmatched = 1
WHERE state = 'not_applied' AND unmatched = 0 AND missing IS NULL
  AND record_id IN (
    SELECT id FROM records WHERE kind = 'correction'
      AND json_extract(content, '$.target') IS NOT NULL AND json_extract(content, '$.statement') IS NULL);

INSERT INTO derive_queue (brain_uid, job, record_id, record_seq)
SELECT r.brain_uid, 'derive', r.id, r.seq FROM correction_outcomes o JOIN records r ON r.id = o.record_id
WHERE o.unmatched = 1 AND o.state = 'not_applied'
  AND NOT EXISTS (SELECT 1 FROM derive_queue q WHERE q.record_id = r.id);
`,
};
