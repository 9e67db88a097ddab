/**
 * The lexical lanes search turns, as on SQLite (turn_fts): a message's own words (weight A), its
 * speaker's (C), the two messages before it in its thread (B) and the one after (D), each neighbour's
 * text cut to 1,000 characters (core/retrieve/turn-shape.ts; turn-index.test.ts holds this SQL to it).
 * Kept by trigger in the transaction that writes or deletes a Record, so every path and every process
 * keeps them in step, and a Context reads its own writes: a message inserted rewrites its own turn and
 * those whose neighbours it changed (one before it, two after); a deleted one rewrites those around
 * the gap. A Brain being deleted takes its turns with its Records. The Record-level `tsv` goes: the
 * turn holds its words.
 */
export const turns = {
  version: 5,
  name: 'turns',
  sql: `
CREATE TABLE turns (
  brain_uid text NOT NULL,
  n bigint NOT NULL,
  tsv tsvector NOT NULL,
  PRIMARY KEY (brain_uid, n),
  FOREIGN KEY (brain_uid, n) REFERENCES records (brain_uid, n) ON DELETE CASCADE
);
CREATE INDEX turns_tsv ON turns USING gin (tsv);

CREATE FUNCTION mnemo_write_turn(b text, rn bigint) RETURNS void LANGUAGE sql AS $$
  INSERT INTO turns (brain_uid, n, tsv)
  SELECT r.brain_uid, r.n,
         setweight(to_tsvector('english', r.text), 'A')
      || setweight(to_tsvector('english',
           coalesce(CASE WHEN r.kind = 'message' THEN r.content::jsonb ->> 'speaker' END, '')), 'C')
      || setweight(to_tsvector('english', coalesce((
           SELECT string_agg(p.t, E'\\n' ORDER BY p.occurred_ms, p.n) FROM (
             SELECT left(x.text, 1000) AS t, x.occurred_ms, x.n FROM records x
             WHERE r.kind = 'message' AND x.brain_uid = r.brain_uid AND x.kind = 'message'
               AND (x.content::jsonb ->> 'thread') = (r.content::jsonb ->> 'thread')
               AND (x.occurred_ms, x.n) < (r.occurred_ms, r.n)
             ORDER BY x.occurred_ms DESC, x.n DESC LIMIT 2) p), '')), 'B')
      || setweight(to_tsvector('english', coalesce((
           SELECT left(x.text, 1000) FROM records x
           WHERE r.kind = 'message' AND x.brain_uid = r.brain_uid AND x.kind = 'message'
             AND (x.content::jsonb ->> 'thread') = (r.content::jsonb ->> 'thread')
             AND (x.occurred_ms, x.n) > (r.occurred_ms, r.n)
           ORDER BY x.occurred_ms, x.n LIMIT 1), '')), 'D')
  FROM records r WHERE r.brain_uid = b AND r.n = rn
  ON CONFLICT (brain_uid, n) DO UPDATE SET tsv = EXCLUDED.tsv
$$;

-- The turns whose neighbours change when a message at (at_ms, at_n) of a thread comes or goes.
CREATE FUNCTION mnemo_rewrite_turns_around(b text, thread text, at_ms bigint, at_n bigint)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE x record;
BEGIN
  IF thread IS NULL THEN RETURN; END IF;
  FOR x IN
    (SELECT p.n FROM records p
     WHERE p.brain_uid = b AND p.kind = 'message' AND (p.content::jsonb ->> 'thread') = thread
       AND (p.occurred_ms, p.n) < (at_ms, at_n)
     ORDER BY p.occurred_ms DESC, p.n DESC LIMIT 1)
    UNION ALL
    (SELECT p.n FROM records p
     WHERE p.brain_uid = b AND p.kind = 'message' AND (p.content::jsonb ->> 'thread') = thread
       AND (p.occurred_ms, p.n) > (at_ms, at_n)
     ORDER BY p.occurred_ms, p.n LIMIT 2)
  LOOP
    PERFORM mnemo_write_turn(b, x.n);
  END LOOP;
END $$;

CREATE FUNCTION mnemo_records_write_turns() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM mnemo_write_turn(NEW.brain_uid, NEW.n);
  IF NEW.kind = 'message' THEN
    PERFORM mnemo_rewrite_turns_around(NEW.brain_uid, NEW.content::jsonb ->> 'thread', NEW.occurred_ms, NEW.n);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER records_write_turns AFTER INSERT ON records
FOR EACH ROW EXECUTE FUNCTION mnemo_records_write_turns();

CREATE FUNCTION mnemo_records_rewrite_turns() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.kind = 'message' AND EXISTS (SELECT 1 FROM brains WHERE uid = OLD.brain_uid) THEN
    PERFORM mnemo_rewrite_turns_around(OLD.brain_uid, OLD.content::jsonb ->> 'thread', OLD.occurred_ms, OLD.n);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER records_rewrite_turns AFTER DELETE ON records
FOR EACH ROW EXECUTE FUNCTION mnemo_records_rewrite_turns();

SELECT mnemo_write_turn(brain_uid, n) FROM records;
ALTER TABLE records DROP COLUMN tsv;
`,
};
