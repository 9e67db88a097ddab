/**
 * A forgotten `local_only` Record leaves no tombstone: the change feed served the ids of every
 * forgotten Record under `removed`, so another device pulling from this one learned that a Record it
 * was never to see had existed, and when (a ULID holds its time). No other side ever held it, so none
 * needs telling. Tombstones left before this version cannot be told apart (they keep no visibility).
 */
export const noLocalOnlyTombstones = {
  version: 22,
  name: 'no-local-only-tombstones',
  sql: `
DROP TRIGGER records_leave_tombstones;
CREATE TRIGGER records_leave_tombstones AFTER DELETE ON records
WHEN OLD.visibility <> 'local_only' AND EXISTS (SELECT 1 FROM brains WHERE uid = OLD.brain_uid)
BEGIN
  INSERT OR IGNORE INTO record_tombstones (brain_uid, record_id, seq, forgotten_at)
  VALUES (OLD.brain_uid, OLD.id, (SELECT seq FROM brains WHERE uid = OLD.brain_uid),
          strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
END;
`,
};
