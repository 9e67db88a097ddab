import { decodeCursor, encodeCursor } from '../../core/shared/page-cursor.ts';
import type { ObjectRepository, ObjectVersionRow } from '../../ports/index.ts';
import type { Store } from './store.ts';

/** A cursor names the last (type, key) served; neither holds this separator (both are slugs). */
const cursorSep = '\u001f';

/** One Brain's Objects over SQLite (object_versions: one row per accepted version). */
export function sqliteObjects(store: Store, brainUid: string): ObjectRepository {
  const byN = (n: number) =>
    store.get<ObjectVersionRow>('SELECT * FROM object_versions WHERE n = ? AND brain_uid = ?', n, brainUid) ??
    null;
  return {
    current: async (type, key) =>
      store.get<ObjectVersionRow>(
        'SELECT * FROM object_versions WHERE brain_uid = ? AND type = ? AND key = ? ORDER BY version DESC LIMIT 1',
        brainUid,
        type,
        key,
      ) ?? null,
    get: async (n) => byN(n),
    insert: async (row) =>
      store.get<ObjectVersionRow>(
        `INSERT INTO object_versions (brain_uid, type, key, version, value, accepted_at, seq)
         VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *`,
        brainUid,
        row.type,
        row.key,
        row.version,
        row.value,
        row.accepted_at,
        row.seq,
      )!,
    // A range read of the (brain_uid, type, key, version) key, the newest version of each.
    async list(q) {
      const [afterType, afterKey] = q.cursor ? decodeCursor(q.cursor).split(cursorSep) : ['', ''];
      const rows = store.all<ObjectVersionRow>(
        `SELECT v.* FROM object_versions v
         WHERE v.brain_uid = ? AND (v.type, v.key) > (?, ?) ${q.type !== undefined ? 'AND v.type = ?' : ''}
           AND v.version = (SELECT max(o.version) FROM object_versions o
                            WHERE o.brain_uid = v.brain_uid AND o.type = v.type AND o.key = v.key)
         ORDER BY v.type, v.key LIMIT ?`,
        brainUid,
        afterType ?? '',
        afterKey ?? '',
        ...(q.type !== undefined ? [q.type] : []),
        q.limit + 1,
      );
      const page = rows.slice(0, q.limit);
      const last = page.at(-1);
      return {
        rows: page,
        next: rows.length > q.limit && last ? encodeCursor(`${last.type}${cursorSep}${last.key}`) : null,
      };
    },
  };
}
