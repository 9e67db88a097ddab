/**
 * Sync of a Brain's Records with a Brain on a hosted Mnemo (docs/sync.md).
 *
 * `record_tombstones`: every forgotten Record id, with the Brain's step of the forget, kept for as long
 * as the Brain lives: the change feed serves them to other devices, and a replicated or pulled Record
 * with a tombstoned id is refused, so a stale device never brings a forgotten Record back. Filled by
 * trigger, so every path that deletes a Record leaves one; a whole Brain forgotten takes its own.
 * Not tied to `brains` by a foreign key: the cascade of a Brain's deletion would insert into it.
 *
 * `sync_pairings`: one paired remote per Brain, with the remote key (inside the encrypted store only),
 * the cursors that make push and pull resumable, the counts and the last error.
 * `sync_records`: what sync did with each Record: pushed (as `remote_id`: the Record's own id, or its
 * redacted copy's), pulled (never pushed back), held back by the redactor, or skipped. No foreign key
 * to `records`: the row outlives a forgotten Record so its tombstone can still be mapped and sent.
 */
export const recordSync = {
  version: 18,
  name: 'record-sync',
  sql: `
CREATE TABLE record_tombstones (
  brain_uid TEXT NOT NULL,
  record_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  forgotten_at TEXT NOT NULL,
  PRIMARY KEY (brain_uid, record_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX record_tombstones_seq ON record_tombstones (brain_uid, seq);

CREATE TRIGGER records_leave_tombstones AFTER DELETE ON records
WHEN EXISTS (SELECT 1 FROM brains WHERE uid = OLD.brain_uid)
BEGIN
  INSERT OR IGNORE INTO record_tombstones (brain_uid, record_id, seq, forgotten_at)
  VALUES (OLD.brain_uid, OLD.id, (SELECT seq FROM brains WHERE uid = OLD.brain_uid),
          strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
END;

CREATE TRIGGER brains_take_tombstones AFTER DELETE ON brains
BEGIN
  DELETE FROM record_tombstones WHERE brain_uid = OLD.uid;
END;

CREATE TABLE sync_pairings (
  brain_uid TEXT PRIMARY KEY REFERENCES brains(uid) ON DELETE CASCADE,
  remote_url TEXT NOT NULL,
  remote_brain TEXT NOT NULL,
  remote_key TEXT NOT NULL,
  push_seq INTEGER NOT NULL DEFAULT 0,
  tombstone_seq INTEGER NOT NULL DEFAULT 0,
  pull_watermark TEXT,
  pushed INTEGER NOT NULL DEFAULT 0,
  pulled INTEGER NOT NULL DEFAULT 0,
  held_back INTEGER NOT NULL DEFAULT 0,
  skipped INTEGER NOT NULL DEFAULT 0,
  last_success_at TEXT,
  last_attempt_at TEXT,
  last_error TEXT,
  paired_at TEXT NOT NULL
) STRICT;

CREATE TABLE sync_records (
  brain_uid TEXT NOT NULL REFERENCES brains(uid) ON DELETE CASCADE,
  record_id TEXT NOT NULL,
  fate TEXT NOT NULL CHECK (fate IN ('pushed', 'pulled', 'held_back', 'skipped')),
  remote_id TEXT,
  PRIMARY KEY (brain_uid, record_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX sync_records_remote ON sync_records (brain_uid, remote_id) WHERE remote_id IS NOT NULL;
`,
};
