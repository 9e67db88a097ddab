/**
 * The Memories list's owner filter compares a name folded (mnemo_fold, migration 018: "zoe" finds
 * Zoë), which folded every Memory of the Brain on each page: ~0.2-0.4 s at 100,000 Memories for a
 * name with few of them. This index holds the folded owner in id order (ids are COLLATE "C" since
 * migration 003), so a page, first or by cursor, is a range read of it. Its expression is the one
 * memory-repository.ts `memoryFilterSql` compares, written out: a migration imports nothing that may
 * change. A migration that replaces mnemo_fold must REINDEX this index (and migration 020's).
 */
export const ownerFolded = {
  version: 31,
  name: 'owner folded',
  sql: `
CREATE INDEX IF NOT EXISTS memories_owner_folded ON memories (brain_uid, (mnemo_fold(owner_entity)), id);
`,
};
