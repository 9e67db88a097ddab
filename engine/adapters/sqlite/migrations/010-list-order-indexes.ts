/**
 * Reads that went through the whole Brain for one page (figures at 100,000 Records):
 * - listRecords pages newest first by id and listMemories by id; with no index in that order each page
 *   read every Record (or Memory) of the Brain and sorted them (~120 ms a page). On these the page is a
 *   range read that stops at the limit, and a cursor seeks into it.
 * - A source: listRecords' `source` filter and listSources read every Record of the Brain to find those
 *   of one source, or of any (35 and 100 ms when few had one).
 * - The profile: the self's Memories, newest first (30 ms when the Brain had none). The index holds
 *   only those, so no read of the whole Brain takes it for a Brain index (without table statistics,
 *   the census's counts did, and read the table in valid_from order: 30 -> 110 ms each).
 * Two indexes no query reads go, as every write updated them: `records (brain_uid, seq)`, and
 * `memories (brain_uid, subject)`, which the subject filter's NOCASE index (009) replaced, and which the
 * planner, having no table statistics, took for admitClaims' lookup of a statement (reading every Memory
 * about the subject, per claim).
 */
export const listOrderIndexes = {
  version: 10,
  name: 'list-order-indexes',
  sql: `
CREATE INDEX records_brain_id ON records (brain_uid, id);
CREATE INDEX memories_brain_id ON memories (brain_uid, id);
CREATE INDEX records_brain_source ON records (brain_uid, source_name, id) WHERE source_name IS NOT NULL;
CREATE INDEX memories_self_from ON memories (brain_uid, valid_from_ms) WHERE owner_state = 'self';
DROP INDEX records_brain_seq;
DROP INDEX memories_brain_subject;
`,
};
