/**
 * Every Memory's `norm` is to be its statement's key (core/derive/statement-key.ts), as `rules-v16`
 * keys a Memory it writes. A Memory written before kept its words as normalised then until the
 * upgrade pass derived its Record again, and a correction's for ever (a correction Record is never
 * derived again), so a claim looked a statement up twice: by key, then by those words. This says the
 * store's norms are not all keys yet: the store keys them when it opens (statement-keys.ts), with the
 * rule as it is then, which a migration may not import. A Mnemo that would look up by words alone, or
 * by both, does not open the store after it.
 */
export const statementKeys = {
  version: 29,
  name: 'statement-keys',
  sql: `INSERT OR REPLACE INTO meta (key, value) VALUES ('statement_keys', 'words');`,
};
