/**
 * listRecords pages newest first by id and listMemories by id; with no index in that order each page
 * read every Record (or Memory) of the Brain and sorted them: ~120 ms a page at 100,000 Records. On
 * these the page is a range read of the index that stops at the limit, and a cursor seeks into it.
 */
export const listOrderIndexes = {
  version: 10,
  name: 'list-order-indexes',
  sql: `
CREATE INDEX records_brain_id ON records (brain_uid, id);
CREATE INDEX memories_brain_id ON memories (brain_uid, id);
`,
};
