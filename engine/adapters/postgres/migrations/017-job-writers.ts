/**
 * A derive job remembers the process that queued it (`writer`, null before this version and for
 * writes with no process of their own) and when (`queued_at`, the database's clock): each process
 * claims the jobs of its own writes first, so processes that serve different Brains do not take turns
 * on each other's Brain rows, and another process takes a job only once it has waited a while
 * (job-queue.ts).
 */
export const jobWriters = {
  version: 17,
  name: 'job writers',
  sql: `
ALTER TABLE derive_jobs ADD COLUMN writer text, ADD COLUMN queued_at timestamptz NOT NULL DEFAULT now();
`,
};
