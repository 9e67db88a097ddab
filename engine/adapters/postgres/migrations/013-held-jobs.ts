/**
 * A derive batch holds its claimed jobs' rows (JobQueue.hold) and removes those done in one statement,
 * sent with its COMMIT as a script: the statement itself must fail when it removed fewer than it held,
 * as no answer is read back before the COMMIT. It cannot happen while the rows stay locked; if it
 * did, the batch rolls back whole and its jobs are claimed again.
 */
export const heldJobs = {
  version: 13,
  name: 'held jobs',
  sql: `
CREATE FUNCTION mnemo_held_jobs_removed(held bigint, removed bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF removed <> held THEN
    RAISE EXCEPTION 'derive_jobs: % held jobs done, % removed: a held job changed under its lock', held, removed;
  END IF;
END $$;
`,
};
