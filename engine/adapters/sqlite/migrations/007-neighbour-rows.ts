/**
 * Deleting a Record drops the full-text rows of its thread neighbours at once (they carried its words;
 * the indexer rewrites them). Versions 3-4 dropped the rows of every Record still waiting to be indexed
 * instead, once per deleted Record: forgetting N Records soon after an import of M was O(N x M)
 * (4,000 unindexed Records: 2.5 s). Here it is the same two range scans that re-queue the neighbours.
 */
const following = `SELECT x.record_n FROM retrieval_index me JOIN retrieval_index x
      ON x.brain_uid = me.brain_uid AND x.thread = me.thread
    WHERE me.record_n = OLD.n AND (x.occurred_ms, x.record_n) > (me.occurred_ms, me.record_n)
    ORDER BY x.occurred_ms, x.record_n LIMIT 2`;
const preceding = `SELECT x.record_n FROM retrieval_index me JOIN retrieval_index x
      ON x.brain_uid = me.brain_uid AND x.thread = me.thread
    WHERE me.record_n = OLD.n AND (x.occurred_ms, x.record_n) < (me.occurred_ms, me.record_n)
    ORDER BY x.occurred_ms DESC, x.record_n DESC LIMIT 1`;

export const neighbourRows = {
  version: 7,
  name: 'neighbour-rows',
  sql: `
DROP TRIGGER records_drop_index;
CREATE TRIGGER records_drop_index BEFORE DELETE ON records
BEGIN
  INSERT OR REPLACE INTO index_queue (owner, owner_n, lexical)
  SELECT 'record', record_n, 0 FROM (${following})
  UNION ALL
  SELECT 'record', record_n, 0 FROM (${preceding});
  DELETE FROM turn_fts WHERE rowid IN (${following}) OR rowid IN (${preceding});
  DELETE FROM turn_fts WHERE rowid = OLD.n;
  DELETE FROM index_queue WHERE owner = 'record' AND owner_n = OLD.n;
  DELETE FROM embeddings WHERE owner = 'record' AND owner_n = OLD.n;
END;
`,
};
