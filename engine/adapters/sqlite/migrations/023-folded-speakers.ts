/**
 * A speaker is matched folded (core/shared/fold-text.ts), as the indexer now normalises one
 * (core/shared/fold-text.ts' normName): a query's "Jose" names José and "zoe" Zoë. The messages whose
 * speaker is not ASCII are indexed again, which writes their retrieval_index row's speaker_norm anew
 * (no vector is recomputed); an ASCII speaker folds to the lower case it has.
 */
export const foldedSpeakers = {
  version: 23,
  name: 'folded-speakers',
  sql: `
INSERT OR REPLACE INTO index_queue (owner, owner_n, lexical)
  SELECT 'record', record_n, 0 FROM retrieval_index
  WHERE speaker IS NOT NULL AND length(CAST(speaker AS BLOB)) <> length(speaker);
`,
};
