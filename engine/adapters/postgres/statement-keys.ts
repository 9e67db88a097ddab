import { statementKey, statementKeysVersion } from '../../core/derive/statement-key.ts';
import type { PgQueryable } from './client.ts';

/*
 * Every Memory's `norm` is its statement's key (core/derive/statement-key.ts), as on SQLite (its
 * statement-keys.ts says why): `mnemo_meta.statement_keys` names the version of the keys the database
 * holds (`words` since migration 023), and a database of other keys is keyed again whole in the
 * migrations' transaction, under their lock, before any process looks a statement up.
 */

const markerKey = 'statement_keys';

/**
 * Keys every Memory again when the database's keys are another version's; whether it did. A database
 * with no version recorded (its schema is older than migration 023's) is left alone.
 */
export async function keyStatements(tx: PgQueryable, pageSize = 2000): Promise<boolean> {
  const held = await tx.query<{ value: string }>('SELECT value FROM mnemo_meta WHERE key = $1', [markerKey]);
  const value = held.rows[0]?.value;
  if (value === undefined || value === String(statementKeysVersion)) return false;
  await rekeyMemories(tx, pageSize);
  await tx.query(listLaterTwins);
  await tx.query('UPDATE mnemo_meta SET value = $1 WHERE key = $2', [
    String(statementKeysVersion),
    markerKey,
  ]);
  return true;
}

/** Gives every Memory the key of its statement, `pageSize` rows at a time. */
export async function rekeyMemories(tx: PgQueryable, pageSize = 2000): Promise<void> {
  type Row = { brain_uid: string; n: string; statement: string; norm: string };
  let after: Row | undefined;
  for (;;) {
    // After the last page's row in the primary key's order: each page is one range of its index.
    const rows: Row[] = (
      await tx.query<Row>(
        // Ordered by the column, not the text it is read as (an output name would win: '10' < '9').
        `SELECT brain_uid, n::text AS n, statement, norm FROM memories
         ${after ? 'WHERE (brain_uid, n) > ($1, $2::bigint)' : ''}
         ORDER BY memories.brain_uid, memories.n LIMIT ${pageSize}`,
        after ? [after.brain_uid, after.n] : [],
      )
    ).rows;
    if (rows.length === 0) return;
    const changed = rows.flatMap((r) => {
      const key = statementKey(r.statement);
      return key === r.norm ? [] : [{ ...r, norm: key }];
    });
    if (changed.length > 0)
      await tx.query(
        `UPDATE memories m SET norm = k.norm
         FROM unnest($1::text[], $2::bigint[], $3::text[]) AS k(brain_uid, n, norm)
         WHERE m.brain_uid = k.brain_uid AND m.n = k.n`,
        [changed.map((r) => r.brain_uid), changed.map((r) => r.n), changed.map((r) => r.norm)],
      );
    after = rows.at(-1);
  }
}

/**
 * As SQLite's listLaterTwins, listed for the deriver of the last listing. None is listed on a database
 * never listed: its first pass lists every Record.
 */
const listLaterTwins = `
INSERT INTO derive_upgrade (brain_uid, n, deriver)
  SELECT DISTINCT r.brain_uid, r.n, d.value FROM memories m
  JOIN citations c ON c.brain_uid = m.brain_uid AND c.memory_id = m.id
  JOIN records r ON r.brain_uid = c.brain_uid AND r.id = c.record_id
  CROSS JOIN (SELECT value FROM mnemo_meta WHERE key = 'derived_by') d
  WHERE m.slot IS NULL AND m.status = 'active' AND m.cause <> 'correction' AND r.kind <> 'correction'
    AND EXISTS (
      SELECT 1 FROM memories e
      WHERE e.brain_uid = m.brain_uid AND e.norm = m.norm AND e.slot IS NULL AND e.subject = m.subject
        AND e.owner_state = m.owner_state AND e.owner_entity IS NOT DISTINCT FROM m.owner_entity
        AND e.status = 'active' AND e.n < m.n)
ON CONFLICT (brain_uid, n) DO NOTHING;
`;
