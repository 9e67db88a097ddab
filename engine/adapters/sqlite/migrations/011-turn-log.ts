/**
 * turn_log names every turn_fts row that changed, so the in-memory copy of that index
 * (engine/retrieve/turn-copies.ts) can catch up by re-reading those rows only. writeTurnRow logs the
 * rows it writes; the delete trigger logs the rows it drops (a virtual table has no triggers of its
 * own). AUTOINCREMENT: the log is pruned as the copy catches up, and a sequence number must never come
 * back, or a copy would take a new change for one it has seen.
 */
const following = `SELECT x.record_n FROM retrieval_index me JOIN retrieval_index x
      ON x.brain_uid = me.brain_uid AND x.thread = me.thread
    WHERE me.record_n = OLD.n AND (x.occurred_ms, x.record_n) > (me.occurred_ms, me.record_n)
    ORDER BY x.occurred_ms, x.record_n LIMIT 2`;
const preceding = `SELECT x.record_n FROM retrieval_index me JOIN retrieval_index x
      ON x.brain_uid = me.brain_uid AND x.thread = me.thread
    WHERE me.record_n = OLD.n AND (x.occurred_ms, x.record_n) < (me.occurred_ms, me.record_n)
    ORDER BY x.occurred_ms DESC, x.record_n DESC LIMIT 1`;

export const turnLog = {
  version: 11,
  name: 'turn-log',
  sql: `
CREATE TABLE turn_log (seq INTEGER PRIMARY KEY AUTOINCREMENT, n INTEGER NOT NULL);
DROP TRIGGER records_drop_index;
CREATE TRIGGER records_drop_index BEFORE DELETE ON records
BEGIN
  INSERT OR REPLACE INTO index_queue (owner, owner_n, lexical)
  SELECT 'record', record_n, 0 FROM (${following})
  UNION ALL
  SELECT 'record', record_n, 0 FROM (${preceding});
  INSERT INTO turn_log (n)
  SELECT record_n FROM (${following})
  UNION ALL
  SELECT record_n FROM (${preceding})
  UNION ALL
  SELECT OLD.n;
  DELETE FROM turn_fts WHERE rowid IN (${following}) OR rowid IN (${preceding});
  DELETE FROM turn_fts WHERE rowid = OLD.n;
  DELETE FROM index_queue WHERE owner = 'record' AND owner_n = OLD.n;
  DELETE FROM embeddings WHERE owner = 'record' AND owner_n = OLD.n;
END;
`,
};
