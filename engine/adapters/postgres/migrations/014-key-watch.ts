/**
 * Server processes keep the API keys they have looked up (key-watch.ts). A revoke counts itself in
 * `mnemo_key_epoch` and then waits until every process watching the keys has dropped its copy (its
 * `seen` reaches the new epoch) or its lease ran out: a process whose lease is over reads keys from the
 * table again, so no copy outlives a revoke that has returned.
 */
export const keyWatch = {
  version: 14,
  name: 'key watch',
  sql: `
CREATE TABLE mnemo_key_epoch (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  epoch bigint NOT NULL
);
INSERT INTO mnemo_key_epoch (only_row, epoch) VALUES (true, 0);
CREATE TABLE mnemo_key_watchers (
  id text COLLATE "C" PRIMARY KEY,
  seen bigint NOT NULL,
  lease_until timestamptz NOT NULL
);
`,
};
