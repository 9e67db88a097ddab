/**
 * `sync_pairings.pairing_id`: a random id given to each pairing when it is made (kept when only its
 * key changes). A sync run carries the id of the pairing it started under, and every write of its
 * cursors and counts names it: a run still in flight when its Brain is paired again or unpaired writes
 * nothing into the pairing that replaced it. A pairing made before this migration gets an id here.
 */
export const syncPairingId = {
  version: 19,
  name: 'sync-pairing-id',
  sql: `
ALTER TABLE sync_pairings ADD COLUMN pairing_id TEXT NOT NULL DEFAULT '';
UPDATE sync_pairings SET pairing_id = lower(hex(randomblob(16)));
`,
};
