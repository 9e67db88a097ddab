/**
 * Threads of messages for the ThreadIndex: a message's thread is its content's `thread` (as the SQLite
 * indexer reads it into retrieval_index), and its neighbours are the thread's messages in
 * (occurred_ms, n) order. An expression index, so no column repeats what `content` says and every
 * path that writes a Record keeps it in step.
 */
export const threads = {
  version: 2,
  name: 'threads',
  sql: `
CREATE INDEX records_thread ON records (brain_uid, ((content::jsonb ->> 'thread')), occurred_ms, n)
WHERE kind = 'message';
`,
};
