/**
 * Retrieval indexes beside the Records (issue 4). turn_fts indexes each Record with its speaker and
 * the text of its neighbours in the same thread (two before, one after): a reply is understood
 * through the message it answers. retrieval_index says which Records are indexed and holds the
 * thread and speaker the lanes read. Vectors live in per-model sqlite-vec tables (created when a model
 * is first used, see vector-store.ts), registered in embedding_models; embeddings records which model
 * embedded each Record or Memory, so a model change re-embeds instead of mixing spaces.
 * index_queue is filled by triggers, so every writer enqueues without knowing about retrieval, and
 * the indexer drains it in the background. Deletes cascade by trigger; FTS5 secure-delete is on.
 */
export const retrievalIndex = {
  version: 3,
  name: 'retrieval-index',
  sql: `
CREATE VIRTUAL TABLE turn_fts USING fts5(text, speaker, before, after, tokenize = 'porter unicode61 remove_diacritics 2');
INSERT INTO turn_fts (turn_fts, rank) VALUES ('secure-delete', 1);

CREATE TABLE retrieval_index (
  record_n INTEGER PRIMARY KEY REFERENCES records(n) ON DELETE CASCADE,
  brain_uid TEXT NOT NULL,
  thread TEXT,
  speaker TEXT,
  speaker_norm TEXT,
  occurred_ms INTEGER NOT NULL
) STRICT;
CREATE INDEX retrieval_index_thread ON retrieval_index (brain_uid, thread, occurred_ms, record_n) WHERE thread IS NOT NULL;
CREATE INDEX retrieval_index_speaker ON retrieval_index (brain_uid, speaker_norm) WHERE speaker_norm IS NOT NULL;

CREATE TABLE embedding_models (
  id INTEGER PRIMARY KEY,
  provider TEXT NOT NULL,
  model TEXT NOT NULL,
  dims INTEGER NOT NULL,
  element TEXT NOT NULL CHECK (element IN ('float', 'int8')),
  created_at TEXT NOT NULL,
  UNIQUE (provider, model)
) STRICT;

CREATE TABLE embeddings (
  owner TEXT NOT NULL CHECK (owner IN ('record', 'memory')),
  owner_n INTEGER NOT NULL,
  model_id INTEGER NOT NULL REFERENCES embedding_models(id) ON DELETE CASCADE,
  PRIMARY KEY (owner, owner_n, model_id)
) STRICT, WITHOUT ROWID;

-- lexical = 0 until the Record's turn_fts row is written (a Context catches those up first).
CREATE TABLE index_queue (
  owner TEXT NOT NULL CHECK (owner IN ('record', 'memory')),
  owner_n INTEGER NOT NULL,
  lexical INTEGER NOT NULL DEFAULT 0 CHECK (lexical IN (0, 1)),
  PRIMARY KEY (owner, owner_n)
) STRICT, WITHOUT ROWID;

CREATE TRIGGER records_enqueue_index AFTER INSERT ON records
BEGIN INSERT OR IGNORE INTO index_queue (owner, owner_n) VALUES ('record', NEW.n); END;

CREATE TRIGGER memories_enqueue_index AFTER INSERT ON memories
BEGIN INSERT OR IGNORE INTO index_queue (owner, owner_n) VALUES ('memory', NEW.n); END;

-- A forgotten Record's text also sits in its thread neighbours' context columns: their rows go now
-- (secure-delete overwrites the bytes) and they are queued to be indexed again without it.
CREATE TRIGGER records_drop_index BEFORE DELETE ON records
BEGIN
  INSERT OR REPLACE INTO index_queue (owner, owner_n, lexical)
  SELECT 'record', nb.record_n, 0 FROM retrieval_index me JOIN retrieval_index nb
    ON nb.brain_uid = me.brain_uid AND nb.thread = me.thread AND nb.record_n <> me.record_n
  WHERE me.record_n = OLD.n AND nb.record_n IN (
    SELECT x.record_n FROM retrieval_index x
    WHERE x.brain_uid = me.brain_uid AND x.thread = me.thread AND (x.occurred_ms, x.record_n) > (me.occurred_ms, me.record_n)
    ORDER BY x.occurred_ms, x.record_n LIMIT 2)
  OR me.record_n = OLD.n AND nb.record_n IN (
    SELECT x.record_n FROM retrieval_index x
    WHERE x.brain_uid = me.brain_uid AND x.thread = me.thread AND (x.occurred_ms, x.record_n) < (me.occurred_ms, me.record_n)
    ORDER BY x.occurred_ms DESC, x.record_n DESC LIMIT 1);
  DELETE FROM turn_fts WHERE rowid IN (SELECT owner_n FROM index_queue WHERE owner = 'record' AND lexical = 0);
  DELETE FROM turn_fts WHERE rowid = OLD.n;
  DELETE FROM index_queue WHERE owner = 'record' AND owner_n = OLD.n;
  DELETE FROM embeddings WHERE owner = 'record' AND owner_n = OLD.n;
END;

CREATE TRIGGER memories_drop_index BEFORE DELETE ON memories
BEGIN
  DELETE FROM index_queue WHERE owner = 'memory' AND owner_n = OLD.n;
  DELETE FROM embeddings WHERE owner = 'memory' AND owner_n = OLD.n;
END;

INSERT INTO index_queue (owner, owner_n) SELECT 'record', n FROM records;
INSERT INTO index_queue (owner, owner_n) SELECT 'memory', n FROM memories;
`,
};
