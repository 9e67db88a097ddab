import { PGlite, type PGliteInterface } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { after } from 'node:test';
import { pgliteClient, type PgClient, type PGliteLike } from '../client.ts';

/**
 * An embedded PostgreSQL in memory (PGlite), closed after the test file (call it at the file's top
 * level: `after` in a hook would close it when the hook ends): what tests run on when no
 * server is at hand. `vector` loads pgvector into it. One connection only: concurrency is the real
 * cluster's (cluster.ts). Starting one takes seconds, so a file shares one and keeps its tests apart by
 * Brain, or clones it (`clone`, a copy of its current state) for a database of its own.
 */
export async function pglite(
  opts: { vector?: boolean } = {},
): Promise<PgClient & { clone(): Promise<PgClient> }> {
  const db = await PGlite.create(opts.vector ? { extensions: { vector } } : {});
  const opened: PgClient[] = [];
  const wrap = (d: PGliteInterface) => pgliteClient(d as unknown as PGliteLike);
  after(async () => {
    await Promise.allSettled(opened.map((c) => c.close()));
    await db.close();
  });
  return {
    ...wrap(db),
    async clone() {
      const c = wrap(await db.clone());
      opened.push(c);
      return c;
    },
  };
}
