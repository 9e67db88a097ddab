/**
 * `sync_pairings.tombstone_after`: with `tombstone_seq`, how far a pairing's tombstones went, through
 * this Record id of that step (NULL: the whole step, as every cursor before this migration). A forget
 * is one step of all its ids (a forgotten import of 500,000 messages), sent 1,000 a request: the cursor
 * moves after each request, so a run cut short (its deadline, a dropped connection) sends none of them
 * again and the next run goes on from there.
 */
export const tombstonePlace = {
  version: 20,
  name: 'tombstone-place',
  sql: `
ALTER TABLE sync_pairings ADD COLUMN tombstone_after TEXT;
`,
};
