/**
 * A Record whose text holds Han, kana or Hangul keeps its words as the local engine indexes them
 * (`words`: folded, unspaced runs cut into words by ICU's dictionary, and the bigrams of every compound
 * of three characters or more: core/retrieve/segment-words.ts `indexedWords`), written by the adapter
 * with the Record; null for any other text. `english` has no dictionary for those scripts and took a
 * whole sentence for one word ("京都に行きました"), so 京都 found nothing on a hosted Brain. A turn
 * is written from them where a Record has them, its own and its neighbours'. The rows written before
 * are given theirs, and their turns written again, by the migrations' step in JS (compound-words.ts).
 */
export const compoundWords = {
  version: 30,
  name: 'compound words',
  sql: `
ALTER TABLE records ADD COLUMN IF NOT EXISTS words text;

CREATE OR REPLACE FUNCTION mnemo_write_turn(b text, rn bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO turns (brain_uid, n, tsv)
  SELECT r.brain_uid, r.n,
         setweight(to_tsvector('english', coalesce(r.words, mnemo_fold(r.text))), 'A')
      || setweight(to_tsvector('english', mnemo_fold(
           coalesce(CASE WHEN r.kind = 'message' THEN r.content::jsonb ->> 'speaker' END, ''))), 'C')
      || setweight(to_tsvector('english', mnemo_fold(coalesce((
           SELECT string_agg(p.t, E'\\n' ORDER BY p.occurred_ms, p.n) FROM (
             SELECT left(coalesce(x.words, x.text), 1000) AS t, x.occurred_ms, x.n FROM records x
             WHERE r.kind = 'message' AND x.brain_uid = r.brain_uid AND x.kind = 'message'
               AND (x.content::jsonb ->> 'thread') = (r.content::jsonb ->> 'thread')
               AND (x.occurred_ms, x.n) < (r.occurred_ms, r.n)
             ORDER BY x.occurred_ms DESC, x.n DESC LIMIT 2) p), ''))), 'B')
      || setweight(to_tsvector('english', mnemo_fold(coalesce((
           SELECT left(coalesce(x.words, x.text), 1000) FROM records x
           WHERE r.kind = 'message' AND x.brain_uid = r.brain_uid AND x.kind = 'message'
             AND (x.content::jsonb ->> 'thread') = (r.content::jsonb ->> 'thread')
             AND (x.occurred_ms, x.n) > (r.occurred_ms, r.n)
           ORDER BY x.occurred_ms, x.n LIMIT 1), ''))), 'D')
  FROM records r WHERE r.brain_uid = b AND r.n = rn
  ON CONFLICT (brain_uid, n) DO UPDATE SET tsv = EXCLUDED.tsv;
END $$;
`,
};
