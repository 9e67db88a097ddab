/**
 * A delta read of Memories pages by (seq, n) and may start inside a step (a step larger than a page is
 * split). With (brain_uid, seq) alone each page sorted every row of the step after its place, so
 * reading a step of N changes took N²/limit row reads; this index hands out pages in order. It serves
 * everything the one it replaces did.
 */
export const memoryFeedOrder = {
  version: 21,
  name: 'memory feed order',
  sql: `
CREATE INDEX memories_brain_seq_n ON memories (brain_uid, seq, n);
DROP INDEX memories_brain_seq;
`,
};
