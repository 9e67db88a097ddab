/**
 * Each Brain's number of turns (`brains.turn_count`), the N of the lexical lane's IDF: a search reads
 * one row instead of counting the Brain's turns, a scan that grows with the Brain (docs/hosted-postgres.md,
 * "Figures").
 *
 * Kept in the Brain's own row, by triggers in the transaction that adds or removes turns, so the
 * count is exact in every snapshot and every process. Every write of a Brain already locks that row
 * first (its step), so the update takes no new lock and adds no order to deadlock in; forgetting a
 * Brain deletes the row before its turns go, and the update then finds nothing to change.
 * - Inserts, per row: each turn comes by its own statement (mnemo_write_turn, once per Record), and
 *   the statements rewriting neighbours' turns insert none, yet a statement-level trigger would run
 *   for those too (twice the time, measured).
 * - Deletes, per statement with the removed rows: a forget's cascade hands them over at once, so a
 *   forgotten Brain of 100,000 turns costs one call, not 100,000.
 * A rewrite updates its turn in place (ON CONFLICT DO UPDATE): the count does not move.
 */
export const turnCounts = {
  version: 11,
  name: 'turn counts',
  sql: `
ALTER TABLE brains ADD COLUMN turn_count bigint NOT NULL DEFAULT 0;

CREATE FUNCTION mnemo_turn_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE brains SET turn_count = turn_count + 1 WHERE uid = NEW.brain_uid;
  RETURN NULL;
END $$;
CREATE TRIGGER turns_count_added AFTER INSERT ON turns
FOR EACH ROW EXECUTE FUNCTION mnemo_turn_added();

CREATE FUNCTION mnemo_turns_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE brains b SET turn_count = b.turn_count - gone.k
  FROM (SELECT brain_uid, count(*) AS k FROM removed GROUP BY brain_uid) gone
  WHERE b.uid = gone.brain_uid;
  RETURN NULL;
END $$;
CREATE TRIGGER turns_count_removed AFTER DELETE ON turns
REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION mnemo_turns_removed();

UPDATE brains b SET turn_count = c.k
FROM (SELECT brain_uid, count(*) AS k FROM turns GROUP BY brain_uid) c
WHERE b.uid = c.brain_uid;
`,
};
