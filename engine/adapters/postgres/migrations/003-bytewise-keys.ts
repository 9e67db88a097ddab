/**
 * Ids, names and keys compare bytewise (collation "C"), as SQLite's BINARY does, whatever the
 * database's own collation: the adapter's pages order by them with COLLATE "C", and an index in the
 * database's collation (often a locale's) cannot serve that order, so each page sorted every matching
 * row. Columns compared with each other (a Record id in a citation and in records) change together, as
 * text of two collations cannot be compared. The tombstones' page orders by step then id: one index
 * serves both.
 */
export const bytewiseKeys = {
  version: 3,
  name: 'bytewise keys',
  sql: `
ALTER TABLE brains ALTER COLUMN id TYPE text COLLATE "C";
ALTER TABLE brain_names ALTER COLUMN id TYPE text COLLATE "C";
ALTER TABLE records
  ALTER COLUMN id TYPE text COLLATE "C",
  ALTER COLUMN source_name TYPE text COLLATE "C";
ALTER TABLE memories
  ALTER COLUMN id TYPE text COLLATE "C",
  ALTER COLUMN lineage TYPE text COLLATE "C",
  ALTER COLUMN slot TYPE text COLLATE "C",
  ALTER COLUMN subject TYPE text COLLATE "C",
  ALTER COLUMN corrects TYPE text COLLATE "C",
  ALTER COLUMN retracted_by TYPE text COLLATE "C",
  ALTER COLUMN revised_by TYPE text COLLATE "C";
ALTER TABLE citations
  ALTER COLUMN memory_id TYPE text COLLATE "C",
  ALTER COLUMN record_id TYPE text COLLATE "C";
ALTER TABLE object_versions
  ALTER COLUMN type TYPE text COLLATE "C",
  ALTER COLUMN key TYPE text COLLATE "C";
ALTER TABLE idempotency ALTER COLUMN record_id TYPE text COLLATE "C";
ALTER TABLE derive_jobs
  ALTER COLUMN record_id TYPE text COLLATE "C",
  ALTER COLUMN memory_id TYPE text COLLATE "C";
ALTER TABLE derive_failures
  ALTER COLUMN record_id TYPE text COLLATE "C",
  ALTER COLUMN memory_id TYPE text COLLATE "C";
ALTER TABLE memory_removals ALTER COLUMN memory_id TYPE text COLLATE "C";
ALTER TABLE record_tombstones ALTER COLUMN record_id TYPE text COLLATE "C";
ALTER TABLE traces ALTER COLUMN id TYPE text COLLATE "C";
ALTER TABLE api_keys ALTER COLUMN id TYPE text COLLATE "C";
DROP INDEX memory_removals_brain_seq;
CREATE INDEX memory_removals_brain_seq ON memory_removals (brain_uid, seq, memory_id);
`,
};
