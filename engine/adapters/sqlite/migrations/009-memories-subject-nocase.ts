/**
 * The subject filter of listMemories compares subjects case-insensitively (ASCII, as lower() and the
 * owner filter do): an index under NOCASE answers `subject = ? COLLATE NOCASE` with one seek.
 */
export const memoriesSubjectNocase = {
  version: 9,
  name: 'memories-subject-nocase',
  sql: `
CREATE INDEX memories_brain_subject_nocase ON memories (brain_uid, subject COLLATE NOCASE);
`,
};
