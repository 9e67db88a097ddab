/**
 * A forgotten `local_only` Record leaves no tombstone (as the local engine's migration 022): the change
 * feed would name it under `removed` to whoever reads the feed, though nobody else ever held it. A
 * server with `--deployment local` keeps such Records. Tombstones left before cannot be told apart.
 */
export const noLocalOnlyTombstones = {
  version: 19,
  name: 'no local_only tombstones',
  sql: `
CREATE OR REPLACE FUNCTION mnemo_records_leave_tombstones() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.visibility = 'local_only' THEN
    RETURN NULL;
  END IF;
  INSERT INTO record_tombstones (brain_uid, record_id, seq, forgotten_at)
  SELECT OLD.brain_uid, OLD.id, b.seq, to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
  FROM brains b WHERE b.uid = OLD.brain_uid
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
`,
};
