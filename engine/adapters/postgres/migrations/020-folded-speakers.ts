/**
 * A speaker is matched folded (mnemo_fold, migration 018), as the local indexer now normalises one: a
 * query's "Jose" names José and "zoe" Zoë. The entity lane probes this index once per query word; it
 * replaces migration 009's, whose expression lower-cased only. The expression is lexical-index.ts'
 * speakerNormSql and the predicate its spokenSql, written out: a migration imports nothing that may
 * change.
 */
export const foldedSpeakers = {
  version: 20,
  name: 'folded speakers',
  sql: `
DROP INDEX IF EXISTS records_speaker;
CREATE INDEX records_speaker_folded
ON records (brain_uid, (mnemo_fold(btrim(content::jsonb ->> 'speaker', E' \\t\\n\\r\\f\\x0b'))))
WHERE kind = 'message' AND coalesce(content::jsonb ->> 'speaker', '') <> '';
`,
};
