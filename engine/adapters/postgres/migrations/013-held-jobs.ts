/**
 * A derive batch holds its claimed jobs' rows (JobQueue.hold) and removes those done in one statement,
 * which may go with its COMMIT in a script: the statement itself must fail when a held job is still
 * there under another lease, as no answer is read back before the COMMIT. Other transactions cannot
 * change a locked row; if one did, the batch rolls back whole and its jobs are claimed again. A held
 * job its own transaction removed (its Record or Memory deleted, and the job with it) is done.
 */
export const heldJobs = {
  version: 13,
  name: 'held jobs',
  sql: `
CREATE FUNCTION mnemo_held_jobs_kept(changed bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF changed > 0 THEN
    RAISE EXCEPTION 'derive_jobs: % held jobs changed lease under their lock', changed;
  END IF;
END $$;
`,
};
