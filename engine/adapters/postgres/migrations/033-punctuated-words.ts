/**
 * A turn's words are cut at every ASCII punctuation mark and symbol, as the local engine's tokenizer
 * cuts them (unicode61 keeps letters, digits and marks only). The `english` parser read
 * "mum-garden.jpg", "notes_2024.md", "ana@example.com", "example.com/garden", "3.14" and "2024-01-05"
 * each as one token of its own kind (host, file, email, url, float, signed numbers), kept whole, so
 * "garden", "notes" or "14" never found them on a hosted Brain while the local engine found each by
 * its words. Only ASCII characters join words into such tokens. Cut after folding, which may make
 * them ("℅" is "c/o"), as the local engine folds before it tokenizes. A search's words need no
 * cutting: they are letters and digits already (query-terms.ts). The whole token is not kept beside
 * its parts: no search word could find it, and it would only lengthen the turn ts_rank divides by.
 *
 * `mnemo_turn_tsv` is a turn's words as `mnemo_write_turn` wrote them before, each part cut; the
 * writer takes them from it, so the rewrite below and every write after read one definition. The
 * turns whose words change (a file name, a URL, an address, a number with a point, a hyphenated word,
 * in the text, the speaker's name or a neighbour's) are written again; the others, most of a chat,
 * are left as they are: a write is the GIN index's entries for all of the turn's words.
 */
export const punctuatedWords = {
  version: 33,
  name: 'punctuated words',
  sql: `
CREATE OR REPLACE FUNCTION mnemo_split_punct(t text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN regexp_replace(t, '[\\x21-\\x2f\\x3a-\\x40\\x5b-\\x60\\x7b-\\x7e]+', ' ', 'g');

CREATE OR REPLACE FUNCTION mnemo_turn_tsv(b text, rn bigint) RETURNS tsvector LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (
    SELECT setweight(to_tsvector('english', mnemo_split_punct(coalesce(r.words, mnemo_fold(r.text)))), 'A')
        || setweight(to_tsvector('english', mnemo_split_punct(mnemo_fold(
             coalesce(CASE WHEN r.kind = 'message' THEN r.content::jsonb ->> 'speaker' END, '')))), 'C')
        || setweight(to_tsvector('english', mnemo_split_punct(mnemo_fold(coalesce((
             SELECT string_agg(p.t, E'\\n' ORDER BY p.occurred_ms, p.n) FROM (
               SELECT left(coalesce(x.words, x.text), 1000) AS t, x.occurred_ms, x.n FROM records x
               WHERE r.kind = 'message' AND x.brain_uid = r.brain_uid AND x.kind = 'message'
                 AND (x.content::jsonb ->> 'thread') = (r.content::jsonb ->> 'thread')
                 AND (x.occurred_ms, x.n) < (r.occurred_ms, r.n)
               ORDER BY x.occurred_ms DESC, x.n DESC LIMIT 2) p), '')))), 'B')
        || setweight(to_tsvector('english', mnemo_split_punct(mnemo_fold(coalesce((
             SELECT left(coalesce(x.words, x.text), 1000) FROM records x
             WHERE r.kind = 'message' AND x.brain_uid = r.brain_uid AND x.kind = 'message'
               AND (x.content::jsonb ->> 'thread') = (r.content::jsonb ->> 'thread')
               AND (x.occurred_ms, x.n) > (r.occurred_ms, r.n)
             ORDER BY x.occurred_ms, x.n LIMIT 1), '')))), 'D')
    FROM records r WHERE r.brain_uid = b AND r.n = rn);
END $$;

CREATE OR REPLACE FUNCTION mnemo_write_turn(b text, rn bigint) RETURNS void LANGUAGE plpgsql AS $$
DECLARE v tsvector := mnemo_turn_tsv(b, rn);
BEGIN
  IF v IS NULL THEN RETURN; END IF;
  INSERT INTO turns (brain_uid, n, tsv) VALUES (b, rn, v)
  ON CONFLICT (brain_uid, n) DO UPDATE SET tsv = EXCLUDED.tsv;
END $$;

UPDATE turns t SET tsv = w.tsv
FROM (SELECT brain_uid, n, mnemo_turn_tsv(brain_uid, n) AS tsv FROM turns) w
WHERE t.brain_uid = w.brain_uid AND t.n = w.n AND t.tsv <> w.tsv;
`,
};
