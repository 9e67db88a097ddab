/**
 * A turn's words written by PL/pgSQL rather than a SQL function (migration 005): PostgreSQL plans a
 * SQL function's statement again on every call, and the records trigger calls it once per Record or
 * more. Measured on PostgreSQL 15, 2,000 Records written over HTTP: that planning was ~0.28 ms a call,
 * ~570 ms of ~4.6 s of the database's CPU; PL/pgSQL keeps the plan for the connection. The statement
 * is the same, so every turn is written as before.
 */
export const turnPlans = {
  version: 12,
  name: 'turn plans',
  sql: `
CREATE OR REPLACE FUNCTION mnemo_write_turn(b text, rn bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
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
  ON CONFLICT (brain_uid, n) DO UPDATE SET tsv = EXCLUDED.tsv;
END $$;
`,
};
