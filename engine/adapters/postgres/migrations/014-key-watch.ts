/**
 * Server processes keep the API keys they have looked up (key-watch.ts). Any change of a key's
 * revocation, or a key's removal, counts in `mnemo_key_epoch` (a trigger, so a revoke made by an older
 * Mnemo or in SQL counts too); `mnemo keys revoke` then waits until every process watching the keys has
 * dropped its copy (its `seen` reaches the new epoch) or its lease ran out: a process whose lease is
 * over reads keys from the table again, so no copy outlives a revoke that has returned.
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
CREATE FUNCTION mnemo_keys_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE mnemo_key_epoch SET epoch = epoch + 1;
  RETURN NULL;
END $$;
CREATE TRIGGER api_keys_revoked AFTER UPDATE OF revoked_at OR DELETE ON api_keys
  FOR EACH STATEMENT EXECUTE FUNCTION mnemo_keys_changed();
`,
};
