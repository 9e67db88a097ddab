import { decodeCursor, encodeCursor } from '../../core/shared/page-cursor.ts';
import type { ObjectRepository, ObjectVersionRow } from '../../ports/index.ts';
import type { PgQueryable } from './client.ts';

/** A cursor names the last (type, key) served; neither holds this separator (both are slugs). */
const cursorSep = '\u001f';

const columns = 'v.n, v.brain_uid, v.type, v.key, v.version, v.value, v.accepted_at, v.seq';

/**
 * One Brain's Objects over PostgreSQL (object_versions: one row per accepted version), as the SQLite
 * adapter's: the same rows, and pages ordered bytewise by type then key (COLLATE "C", SQLite's BINARY)
 * with the same cursors.
 */
export function pgObjects(q: PgQueryable, brainUid: string): ObjectRepository {
  const one = async (sql: string, params: readonly unknown[]) =>
    (await q.query<ObjectVersionRow>(sql, params)).rows[0] ?? null;
  return {
    current: (type, key) =>
      one(
        `SELECT ${columns} FROM object_versions v WHERE v.brain_uid = $1 AND v.type = $2 AND v.key = $3
         ORDER BY v.version DESC LIMIT 1`,
        [brainUid, type, key],
      ),
    get: (n) =>
      one(`SELECT ${columns} FROM object_versions v WHERE v.brain_uid = $1 AND v.n = $2`, [brainUid, n]),
    insert: async (row) =>
      (await one(
        `INSERT INTO object_versions AS v (brain_uid, type, key, version, value, accepted_at, seq)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${columns}`,
        [brainUid, row.type, row.key, row.version, row.value, row.accepted_at, row.seq],
      ))!,
    // The newest version of each type/key after the cursor's, as SQLite's row-value comparison.
    async list(query) {
      const [afterType = '', afterKey = ''] = query.cursor ? decodeCursor(query.cursor).split(cursorSep) : [];
      const params: unknown[] = [brainUid, afterType, afterKey, query.limit + 1];
      if (query.type !== undefined) params.push(query.type);
      const rows = (
        await q.query<ObjectVersionRow>(
          `SELECT ${columns} FROM object_versions v
           WHERE v.brain_uid = $1
             AND (v.type COLLATE "C" > $2 OR (v.type = $2 AND v.key COLLATE "C" > $3))
             ${query.type !== undefined ? 'AND v.type = $5' : ''}
             AND v.version = (SELECT max(o.version) FROM object_versions o
                              WHERE o.brain_uid = v.brain_uid AND o.type = v.type AND o.key = v.key)
           ORDER BY v.type COLLATE "C", v.key COLLATE "C" LIMIT $4`,
          params,
        )
      ).rows;
      const page = rows.slice(0, query.limit);
      const last = page.at(-1);
      return {
        rows: page,
        next: rows.length > query.limit && last ? encodeCursor(`${last.type}${cursorSep}${last.key}`) : null,
      };
    },
  };
}
