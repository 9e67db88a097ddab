import type { BrainRepository, BrainRow } from '../../ports/index.ts';
import type { PgClient } from './client.ts';

const columns = 'b.uid, b.project, b.env, b.id, b.name, b.self_type, b.self_name, b.created_at, b.seq';

/**
 * The Brains over PostgreSQL (the BrainRepository port). A Brain's name in its tenant is the primary
 * key of `brain_names`, so two processes creating the same Brain at once make exactly one. Ids sort
 * bytewise (COLLATE "C"), as SQLite's BINARY does, whatever the database's collation.
 */
export function pgBrains(client: PgClient): BrainRepository {
  return {
    list: async (t) =>
      (
        await client.query<BrainRow>(
          `SELECT ${columns} FROM brains b WHERE b.project = $1 AND b.env = $2 ORDER BY b.id COLLATE "C"`,
          [t.project, t.env],
        )
      ).rows,
    find: async (t, id) =>
      (
        await client.query<BrainRow>(
          `SELECT ${columns} FROM brain_names n JOIN brains b ON b.uid = n.uid
           WHERE n.project = $1 AND n.env = $2 AND n.id = $3`,
          [t.project, t.env, id],
        )
      ).rows[0] ?? null,
    create: (b) =>
      client.transaction(async (tx) => {
        const named = await tx.query(
          `INSERT INTO brain_names (project, env, id, uid) VALUES ($1, $2, $3, $4)
           ON CONFLICT (project, env, id) DO NOTHING`,
          [b.project, b.env, b.id, b.uid],
        );
        if (named.rowCount === 0) return null;
        const made = await tx.query<BrainRow>(
          `INSERT INTO brains AS b (uid, project, env, id, name, self_type, self_name, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${columns}`,
          [b.uid, b.project, b.env, b.id, b.name, b.self_type, b.self_name, b.created_at],
        );
        return made.rows[0]!;
      }),
    async currentSeq(uid) {
      const row = (await client.query<{ seq: number }>('SELECT seq FROM brains WHERE uid = $1', [uid]))
        .rows[0];
      if (!row) throw new Error(`no brain ${uid}`);
      return Number(row.seq);
    },
    remove: (uid) =>
      client.transaction(async (tx) => {
        // Waits for a unit of work of the Brain in progress, and keeps new ones out until the end.
        const locked = await tx.query('SELECT 1 FROM brains WHERE uid = $1 FOR UPDATE', [uid]);
        // A forget of this Brain that committed first leaves nothing to remove, and no receipt to give.
        if (locked.rows.length === 0) return null;
        const counts = await tx.query<{ records: number; memories: number; objects: number }>(
          `SELECT (SELECT count(*) FROM records WHERE brain_uid = $1)::int AS records,
                  (SELECT count(*) FROM memories WHERE brain_uid = $1)::int AS memories,
                  (SELECT count(*) FROM (SELECT DISTINCT type, key FROM object_versions WHERE brain_uid = $1) o)::int AS objects`,
          [uid],
        );
        // Memories before Records: a live Memory may never lose its last citation.
        await tx.query('DELETE FROM memories WHERE brain_uid = $1', [uid]);
        await tx.query('DELETE FROM brains WHERE uid = $1', [uid]);
        await tx.query('DELETE FROM brain_names WHERE uid = $1', [uid]);
        return counts.rows[0]!;
      }),
  };
}
