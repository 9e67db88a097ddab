/**
 * The profile puts the self's health lines first: the SQLite adapter's migration 038, which says why.
 * The repository marks each Memory it writes (`health`); the database marks those written before in
 * the migrations' transaction (health-lines.ts), with the rule as it is then, which a migration may
 * not import. The index holds only the self's marked Memories: a first page reads a few lines where
 * the self may have 100,000.
 */
export const healthLines = {
  version: 34,
  name: 'health lines',
  sql: `
ALTER TABLE memories ADD COLUMN IF NOT EXISTS health boolean NOT NULL DEFAULT false;
CREATE INDEX IF NOT EXISTS memories_self_health_from ON memories (brain_uid, valid_from_ms)
  WHERE owner_state = 'self' AND health;
INSERT INTO mnemo_meta (key, value) VALUES ('health_lines', 'pending')
  ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value;
`,
};
