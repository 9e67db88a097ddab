/**
 * A statement key's prefix ("to do renew ": the open tasks a deed said done may be, derive/done-tasks.ts)
 * is read as a range of bytes: the database's collation may order "to do" apart from "to-do", so the
 * plain (brain_uid, norm) index gives no prefix range, and a read of it filtered every Memory of the
 * Brain on each sentence said in the past tense.
 */
export const statementKeyPrefixes = {
  version: 32,
  name: 'statement key prefixes',
  sql: `
CREATE INDEX IF NOT EXISTS memories_brain_norm_bytes ON memories (brain_uid, (norm COLLATE "C"));
`,
};
