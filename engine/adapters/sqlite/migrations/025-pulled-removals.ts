/**
 * `record_tombstones.pulled_by`: the pairing (its `pairing_id`) whose remote told this device of the
 * removal (a pulled feed page's `removed`, or a push answered `forgotten`). The run sends a tombstone to
 * the remote only when that remote did not tell it: sending a removal back to where it came from is a
 * request per forget of every paired device, and a hub that took the echo as news would be confused.
 * A pairing with another remote (another pairing id) still sends it, as it sends every tombstone of a
 * Record that travelled. NULL: forgotten on this device (every tombstone before this version).
 */
export const pulledRemovals = {
  version: 25,
  name: 'pulled-removals',
  sql: `
ALTER TABLE record_tombstones ADD COLUMN pulled_by TEXT;
`,
};
