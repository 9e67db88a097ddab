/**
 * Records by Brain and world time, so a search restricted to a time window (the time lane, `as_of`,
 * `filter.since/until`) can tell at once that the window holds none of the Brain's Records and skip
 * ranking every lexical match only to discard them all (turn-lexical-lane.ts). Vector tables are
 * converted from float32 to int8 by the code that owns them (vector-store.ts), on the model's first use.
 */
export const recordsTimeIndex = {
  version: 6,
  name: 'records-time-index',
  sql: `
CREATE INDEX records_brain_occurred ON records (brain_uid, occurred_ms);
`,
};
