import { postgresStorageOver } from '../../engine/adapters/postgres/storage.ts';
import { pgliteDatabases } from '../../engine/adapters/postgres/testing/pglite.ts';
import { openPostgresEngine } from '../../engine/index.ts';
import type { Engine } from '../../engine/types.ts';
import { open, tempDir } from './local-helpers.ts';

/**
 * The local engine and the PostgreSQL engine on PGlite, each opened anew per call with the app's
 * default embedder (glove-sif): for answers that rest on meaning as a person's app finds it. Called at
 * a test file's top level: its PGlite databases close after the file.
 */
export async function gloveEngines(): Promise<Array<[name: string, open: () => Promise<Engine>]>> {
  const database = await pgliteDatabases({ vector: true, migrated: true });
  const embedder = () => ({ provider: 'glove-sif' as const, dataDir: tempDir() });
  return [
    ['SQLite', () => open(tempDir(), { embedder: embedder() })],
    [
      'PostgreSQL (PGlite)',
      async () =>
        (
          await openPostgresEngine(
            { open: async () => postgresStorageOver(await database()) },
            { embedder: embedder() },
          )
        ).engine,
    ],
  ];
}
