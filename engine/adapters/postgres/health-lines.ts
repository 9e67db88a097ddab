import { healthWordsVersion, saysHealth } from '../../contract/index.ts';
import type { PgQueryable } from './client.ts';

/*
 * Every Memory is marked `health` when its statement saysHealth (contract/profile-group.ts), as on
 * SQLite (its health-lines.ts says why): `mnemo_meta.health_lines` names the version of the words the
 * database's marks were made with (`pending` since migration 034), and a database of other marks is
 * marked again whole in the migrations' transaction, under their lock, before any process reads a
 * profile.
 */

const markerKey = 'health_lines';

/**
 * Marks every Memory again when the database's marks are another version's; whether it did. A
 * database with no version recorded (its schema is older than migration 034's) is left alone.
 */
export async function markHealthLines(tx: PgQueryable, pageSize = 2000): Promise<boolean> {
  const held = await tx.query<{ value: string }>('SELECT value FROM mnemo_meta WHERE key = $1', [markerKey]);
  const value = held.rows[0]?.value;
  if (value === undefined || value === String(healthWordsVersion)) return false;
  type Row = { brain_uid: string; n: string; statement: string; health: boolean };
  let after: Row | undefined;
  for (;;) {
    // After the last page's row in the primary key's order: each page is one range of its index. By
    // the column, not the text it is read as (`ORDER BY n` would be the output's: '10' before '9').
    const rows: Row[] = (
      await tx.query<Row>(
        `SELECT m.brain_uid, m.n::text AS n, m.statement, m.health FROM memories m
         ${after ? 'WHERE (m.brain_uid, m.n) > ($1, $2::bigint)' : ''}
         ORDER BY m.brain_uid, m.n LIMIT ${pageSize}`,
        after ? [after.brain_uid, after.n] : [],
      )
    ).rows;
    if (rows.length === 0) break;
    const changed = rows.filter((r) => saysHealth(r.statement) !== r.health);
    if (changed.length > 0)
      await tx.query(
        `UPDATE memories m SET health = k.health
         FROM unnest($1::text[], $2::bigint[], $3::boolean[]) AS k(brain_uid, n, health)
         WHERE m.brain_uid = k.brain_uid AND m.n = k.n`,
        [changed.map((r) => r.brain_uid), changed.map((r) => r.n), changed.map((r) => !r.health)],
      );
    after = rows.at(-1);
  }
  await tx.query('UPDATE mnemo_meta SET value = $1 WHERE key = $2', [String(healthWordsVersion), markerKey]);
  return true;
}
