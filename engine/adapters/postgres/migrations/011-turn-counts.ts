/**
 * Each Brain's number of turns (`brains.turn_count`), the N of the lexical lane's IDF: a search reads
 * one row instead of counting the Brain's turns, a scan that grows with the Brain (docs/hosted-postgres.md,
 * "The lexical lane's N kept per Brain").
 *
 * Kept in the Brain's own row, in the transaction that adds or removes Records, so the count is exact
 * in every snapshot and every process. Every write of a Brain already locks that row first (its
 * step), so the update takes no new lock and adds no order to deadlock in; forgetting a Brain deletes
 * the row before its Records go, and the update then finds nothing to change.
 *
 * Counted on `records`, per statement with its transition rows: a Record has exactly one turn (written
 * by its insert's trigger, gone with it by cascade, rewritten in place: migration 005), and a
 * batch's Records come in one multi-row INSERT, so a write updates the row once. On `turns` the count
 * would be updated once per Record (each turn is inserted by its own statement), and each update of
 * the row walks the versions the transaction made before it: 0.07-0.3 ms a Record, growing with the
 * transaction's size, where this is a few ms per statement at any size.
 */
export const turnCounts = {
  version: 11,
  name: 'turn counts',
  sql: `
ALTER TABLE brains ADD COLUMN turn_count bigint NOT NULL DEFAULT 0;

-- One function for both triggers: each names its transition rows \`changed\`.
CREATE FUNCTION mnemo_count_records() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE brains b SET turn_count = b.turn_count + CASE TG_OP WHEN 'INSERT' THEN c.k ELSE -c.k END
  FROM (SELECT brain_uid, count(*) AS k FROM changed GROUP BY brain_uid) c
  WHERE b.uid = c.brain_uid;
  RETURN NULL;
END $$;
CREATE TRIGGER records_count_added AFTER INSERT ON records
REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION mnemo_count_records();
CREATE TRIGGER records_count_removed AFTER DELETE ON records
REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION mnemo_count_records();

UPDATE brains b SET turn_count = c.k
FROM (SELECT brain_uid, count(*) AS k FROM turns GROUP BY brain_uid) c
WHERE b.uid = c.brain_uid;
`,
};
