/**
 * What a device's pull skipped, so that a later version that can take it reads the feed for it again
 * (engine/local/sync/device-sync.ts, `pullRules`). A skipped Record leaves nothing on the device, and
 * the pull's watermark moves past it: without these, a correction an older version could not take (or
 * a kind it did not know) was never pulled after the upgrade.
 *
 * - `pull_skipped_from`: where the feed may hold a Record the pull skipped: the watermark the first
 *   page that skipped one was read from (`start`: the beginning). NULL: nothing skipped.
 * - `pull_skipped_under`: the oldest rules of what the pull takes under which one was skipped from there
 *   on; NULL while a re-read is under way and has skipped nothing yet.
 * - `reread_watermark`: where a re-read under way reads on from; NULL: none under way.
 *
 * A pairing that pulled before this version and counts anything as skipped may have skipped a Record of
 * its feed anywhere (the count mixes the push's and the pull's, and no place was kept): it reads the
 * whole feed again once. One that skipped nothing has nothing to read again.
 */
export const pullRereads = {
  version: 28,
  name: 'pull-rereads',
  sql: `
ALTER TABLE sync_pairings ADD COLUMN pull_skipped_from TEXT;
ALTER TABLE sync_pairings ADD COLUMN pull_skipped_under INTEGER;
ALTER TABLE sync_pairings ADD COLUMN reread_watermark TEXT;
UPDATE sync_pairings SET pull_skipped_from = 'start', pull_skipped_under = 0
  WHERE pull_watermark IS NOT NULL AND skipped > 0;
`,
};
