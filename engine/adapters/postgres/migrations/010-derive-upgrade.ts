/**
 * The Records still to derive again because the deriver changed (engine/derive/upgrade-derivation.ts),
 * as the SQLite adapter's `derive_upgrade` (its migration 015): a list of its own, read in the order
 * written (`n`, hence the index) without touching a Record already done, which a forgotten Record or
 * Brain leaves by cascade. Keyed by Brain first, as every table of Brain data (docs/hosted-postgres.md,
 * Citus). Each row names the deriver it was listed for: a process running another deriver (an earlier
 * Mnemo still serving during a rollout) neither derives it nor takes it off. The deriver the last
 * listing was made for is `mnemo_meta.derived_by`.
 */
export const deriveUpgrade = {
  version: 10,
  name: 'derive upgrade',
  sql: `
CREATE TABLE derive_upgrade (
  brain_uid text NOT NULL,
  n bigint NOT NULL,
  deriver text NOT NULL,
  PRIMARY KEY (brain_uid, n),
  FOREIGN KEY (brain_uid, n) REFERENCES records (brain_uid, n) ON DELETE CASCADE
);
CREATE INDEX derive_upgrade_order ON derive_upgrade (n);
`,
};
