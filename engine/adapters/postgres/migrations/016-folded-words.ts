/**
 * A turn's words and a search's are folded as the local engine folds them (core/shared/fold-text.ts):
 * lower case, compatibility forms made one, accents off Latin, Greek and Cyrillic letters. The
 * `english` configuration keeps accents, so "cafe" missed "café" and "zoe" missed "Zoë" on a hosted
 * Brain. Every turn is written again with its words folded.
 */
export const foldedWords = {
  version: 16,
  name: 'folded words',
  sql: `
CREATE OR REPLACE FUNCTION mnemo_fold(t text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN normalize(regexp_replace(normalize(lower(t), NFKD), '[\\u0300-\\u036f]', '', 'g'), NFC);

CREATE OR REPLACE FUNCTION mnemo_write_turn(b text, rn bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO turns (brain_uid, n, tsv)
  SELECT r.brain_uid, r.n,
         setweight(to_tsvector('english', mnemo_fold(r.text)), 'A')
      || setweight(to_tsvector('english', mnemo_fold(
           coalesce(CASE WHEN r.kind = 'message' THEN r.content::jsonb ->> 'speaker' END, ''))), 'C')
      || setweight(to_tsvector('english', mnemo_fold(coalesce((
           SELECT string_agg(p.t, E'\\n' ORDER BY p.occurred_ms, p.n) FROM (
             SELECT left(x.text, 1000) AS t, x.occurred_ms, x.n FROM records x
             WHERE r.kind = 'message' AND x.brain_uid = r.brain_uid AND x.kind = 'message'
               AND (x.content::jsonb ->> 'thread') = (r.content::jsonb ->> 'thread')
               AND (x.occurred_ms, x.n) < (r.occurred_ms, r.n)
             ORDER BY x.occurred_ms DESC, x.n DESC LIMIT 2) p), ''))), 'B')
      || setweight(to_tsvector('english', mnemo_fold(coalesce((
           SELECT left(x.text, 1000) FROM records x
           WHERE r.kind = 'message' AND x.brain_uid = r.brain_uid AND x.kind = 'message'
             AND (x.content::jsonb ->> 'thread') = (r.content::jsonb ->> 'thread')
             AND (x.occurred_ms, x.n) > (r.occurred_ms, r.n)
           ORDER BY x.occurred_ms, x.n LIMIT 1), ''))), 'D')
  FROM records r WHERE r.brain_uid = b AND r.n = rn
  ON CONFLICT (brain_uid, n) DO UPDATE SET tsv = EXCLUDED.tsv;
END $$;

SELECT count(*) FROM (SELECT mnemo_write_turn(t.brain_uid, t.n) FROM turns t) w;
`,
};
