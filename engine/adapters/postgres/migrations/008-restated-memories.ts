/**
 * A Memory whose words derivation changed in place (re-derived from the Records left after a forget)
 * is embedded again from its new words, by trigger in the transaction that changed them, as every
 * Memory written is queued (006): no caller has to remember it, and a vector of the old words never
 * stays the last word. The vector table exists only with the `vector` extension, hence the check. DO
 * UPDATE, not NOTHING: a worker holding the queued row may have read the old words; this waits for
 * it, then queues the Memory anew.
 */
export const restatedMemories = {
  version: 8,
  name: 'restated memories',
  sql: `
CREATE FUNCTION mnemo_requeue_restated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF to_regclass('embeddings') IS NOT NULL THEN
    EXECUTE 'DELETE FROM embeddings WHERE brain_uid = $1 AND owner = ''memory'' AND owner_n = $2'
    USING NEW.brain_uid, NEW.n;
  END IF;
  INSERT INTO embed_queue (brain_uid, owner, owner_n) VALUES (NEW.brain_uid, 'memory', NEW.n)
  ON CONFLICT (brain_uid, owner, owner_n) DO UPDATE SET owner_n = EXCLUDED.owner_n;
  RETURN NULL;
END $$;
CREATE TRIGGER memories_requeue_restated AFTER UPDATE OF statement ON memories
FOR EACH ROW WHEN (OLD.statement IS DISTINCT FROM NEW.statement)
EXECUTE FUNCTION mnemo_requeue_restated();
`,
};
