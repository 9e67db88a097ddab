import type { BrainRepository, BrainRow } from '../../ports/index.ts';
import type { Store } from './store.ts';

/**
 * The Brains over SQLite (the BrainRepository port). Each write is one transaction that runs to its
 * end before its promise settles, between units of work (store.exclusive: after those queued before
 * it), so it never interleaves with another write on the connection.
 */
export function sqliteBrains(store: Store): BrainRepository {
  const find = (project: string, env: string, id: string) =>
    store.get<BrainRow>('SELECT * FROM brains WHERE project = ? AND env = ? AND id = ?', project, env, id) ??
    null;
  return {
    list: async (t) =>
      store.all<BrainRow>('SELECT * FROM brains WHERE project = ? AND env = ? ORDER BY id', t.project, t.env),
    find: async (t, id) => find(t.project, t.env, id),
    create: (b) =>
      store.exclusive(() =>
        store.tx(() => {
          if (find(b.project, b.env, b.id)) return null;
          store.run(
            `INSERT INTO brains (uid, project, env, id, name, self_type, self_name, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
            b.uid,
            b.project,
            b.env,
            b.id,
            b.name,
            b.self_type,
            b.self_name,
            b.created_at,
          );
          return store.get<BrainRow>('SELECT * FROM brains WHERE uid = ?', b.uid)!;
        }),
      ),
    currentSeq: async (uid) => store.currentSeq(uid),
    remove: (uid) =>
      store.exclusive(() => {
        const held = store.tx(() => {
          // A forget of this Brain that ran first leaves nothing to remove, and no receipt to give.
          if (!store.get('SELECT 1 FROM brains WHERE uid = ?', uid)) return null;
          const count = (sql: string) => store.get<{ c: number }>(sql, uid)!.c;
          const c = {
            records: count('SELECT count(*) AS c FROM records WHERE brain_uid = ?'),
            memories: count('SELECT count(*) AS c FROM memories WHERE brain_uid = ?'),
            objects: count(
              'SELECT count(*) AS c FROM (SELECT DISTINCT type, key FROM object_versions WHERE brain_uid = ?)',
            ),
          };
          // Memories before Records: a live Memory may never lose its last citation.
          store.run('DELETE FROM memories WHERE brain_uid = ?', uid);
          store.run('DELETE FROM brains WHERE uid = ?', uid);
          return c;
        });
        // Deleted bytes must not linger in the WAL.
        store.checkpoint();
        return held;
      }),
  };
}
