import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { pgliteClient, type PGliteLike } from './client.ts';
import { postgresStorageOver, type PostgresStorage, type PostgresStorageOptions } from './storage.ts';

/**
 * A PostgreSQL engine's storage in this process, in memory (PGlite, with pgvector): for a benchmark
 * or a try-out where no server is at hand. One connection, gone on close: not a hosted deployment.
 */
export async function openEmbeddedPostgres(options: PostgresStorageOptions = {}): Promise<PostgresStorage> {
  const db = await PGlite.create({ extensions: { vector } });
  try {
    return await postgresStorageOver(pgliteClient(db as unknown as PGliteLike), options);
  } catch (e) {
    await db.close();
    throw e;
  }
}
