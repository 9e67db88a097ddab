/**
 * Deleting a Record re-queues its thread neighbours (their indexed text carried its words). Version 3
 * found them by joining the whole thread for every deleted Record, so removing an import of one long
 * chat was quadratic in the chat's length (10,000 messages: 80 s in one transaction). Here each side is
 * one range scan of retrieval_index_thread: the two following Records and the one preceding.
 */
export const neighbourRequeue = {
  version: 4,
  name: 'neighbour-requeue',
  sql: `
DROP TRIGGER records_drop_index;
CREATE TRIGGER records_drop_index BEFORE DELETE ON records
BEGIN
  INSERT OR REPLACE INTO index_queue (owner, owner_n, lexical)
  SELECT 'record', record_n, 0 FROM (
    SELECT x.record_n FROM retrieval_index me JOIN retrieval_index x
      ON x.brain_uid = me.brain_uid AND x.thread = me.thread
    WHERE me.record_n = OLD.n AND (x.occurred_ms, x.record_n) > (me.occurred_ms, me.record_n)
    ORDER BY x.occurred_ms, x.record_n LIMIT 2)
  UNION ALL
  SELECT 'record', record_n, 0 FROM (
    SELECT x.record_n FROM retrieval_index me JOIN retrieval_index x
      ON x.brain_uid = me.brain_uid AND x.thread = me.thread
    WHERE me.record_n = OLD.n AND (x.occurred_ms, x.record_n) < (me.occurred_ms, me.record_n)
    ORDER BY x.occurred_ms DESC, x.record_n DESC LIMIT 1);
  DELETE FROM turn_fts WHERE rowid IN (SELECT owner_n FROM index_queue WHERE owner = 'record' AND lexical = 0);
  DELETE FROM turn_fts WHERE rowid = OLD.n;
  DELETE FROM index_queue WHERE owner = 'record' AND owner_n = OLD.n;
  DELETE FROM embeddings WHERE owner = 'record' AND owner_n = OLD.n;
END;
`,
};
