/**
 * Every Memory's `norm` is to be its statement's key: the SQLite adapter's migration 029, which says
 * why. The database keys them in the migrations' transaction (statement-keys.ts), with the rule as it
 * is then.
 */
export const statementKeys = {
  version: 23,
  name: 'statement keys',
  sql: `INSERT INTO mnemo_meta (key, value) VALUES ('statement_keys', 'words')
  ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value;`,
};
