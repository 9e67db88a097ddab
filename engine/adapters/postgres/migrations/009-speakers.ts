/**
 * The entity lane asks which of a query's words name a speaker of the Brain (ThreadIndex.speakers):
 * one probe per word of this index on a message's speaker as the SQLite indexer normalises it
 * (trimmed, lower-cased; an empty one names nobody), as retrieval_index_speaker serves it there. The
 * expression is lexical-index.ts' speakerNormSql and the predicate its spokenSql, written out: a
 * migration imports nothing that may change.
 */
export const speakers = {
  version: 9,
  name: 'speakers',
  sql: `
CREATE INDEX records_speaker
ON records (brain_uid, (lower(btrim(content::jsonb ->> 'speaker', E' \\t\\n\\r\\f\\x0b'))))
WHERE kind = 'message' AND coalesce(content::jsonb ->> 'speaker', '') <> '';
`,
};
