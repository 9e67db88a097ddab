/**
 * A thorough Context answered `202 processing` is kept in the database, not by the process that
 * assembled it, so the request sent again reaches it through any process (thorough-contexts.ts). The
 * row is the request's (its Brain and a hash of its watermark and body): `assembling` under a lease its
 * process renews (`owner`: the assembly holding it, so one whose lease was taken over stores nothing), then `ready` with the Context or `failed` with the error, served once and then
 * deleted. `record_ids` names what a kept Context cites: a forget deletes the Brain's rows. (IF NOT
 * EXISTS: tests that set a database back to an older version keep the tables they do not know of.)
 */
export const thoroughContexts = {
  version: 29,
  name: 'thorough contexts',
  sql: `
CREATE TABLE IF NOT EXISTS thorough_contexts (
  brain_uid text NOT NULL REFERENCES brains(uid) ON DELETE CASCADE,
  request_hash bytea NOT NULL,
  context_id text COLLATE "C" NOT NULL,
  owner text NOT NULL,
  state text NOT NULL CHECK (state IN ('assembling', 'ready', 'failed')),
  refresh boolean NOT NULL DEFAULT false,
  lease_until timestamptz,
  context json,
  error json,
  record_ids text[] NOT NULL DEFAULT '{}',
  settled_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (brain_uid, request_hash)
);
`,
};
