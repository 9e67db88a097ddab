/**
 * What is still to be embedded, as the SQLite adapter's index_queue: every Record and Memory written is
 * queued by trigger in its own transaction, so every path and process queues without knowing about
 * retrieval, and a worker of any process takes a batch with `FOR UPDATE SKIP LOCKED`. A row outlives
 * a forgotten owner until a worker finds the owner gone; a Brain's deletion takes its rows. Without
 * the vector extension the queue is drained without embedding (embedding-queue.ts).
 */
export const embedQueue = {
  version: 6,
  name: 'embed queue',
  sql: `
CREATE TABLE embed_queue (
  brain_uid text NOT NULL REFERENCES brains(uid) ON DELETE CASCADE,
  owner text NOT NULL CHECK (owner IN ('record', 'memory')),
  owner_n bigint NOT NULL,
  PRIMARY KEY (brain_uid, owner, owner_n)
);

CREATE FUNCTION mnemo_queue_embedding() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO embed_queue (brain_uid, owner, owner_n) VALUES (NEW.brain_uid, TG_ARGV[0], NEW.n)
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
CREATE TRIGGER records_queue_embedding AFTER INSERT ON records
FOR EACH ROW EXECUTE FUNCTION mnemo_queue_embedding('record');
CREATE TRIGGER memories_queue_embedding AFTER INSERT ON memories
FOR EACH ROW EXECUTE FUNCTION mnemo_queue_embedding('memory');

INSERT INTO embed_queue (brain_uid, owner, owner_n)
SELECT brain_uid, 'record', n FROM records UNION ALL SELECT brain_uid, 'memory', n FROM memories
ON CONFLICT DO NOTHING;
`,
};
