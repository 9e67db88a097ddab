/**
 * The turns' GIN index takes each write into its entries at once instead of into a pending list
 * (`fastupdate`, on by default). Every search scans the whole pending list, unindexed, and the list
 * grows to `gin_pending_list_limit` (4 MB, some thousands of turns) before a write or VACUUM merges it:
 * on a server that keeps writing, the lexical lane paid for it on every Context. Measured with
 * `bench scale --engine postgres --records 10000` on PostgreSQL 15 (docs/hosted-postgres.md,
 * "Prepared statements, and the turns' index without a pending list"). The traces' index keeps its
 * list: a trace is written per Context and searched only when a Record is forgotten.
 */
export const turnIndexUnbuffered = {
  version: 27,
  name: 'turn index unbuffered',
  sql: `
ALTER INDEX turns_tsv SET (fastupdate = off);
SELECT gin_clean_pending_list('turns_tsv'::regclass);
`,
};
