import { postgresStorageOver } from '../../engine/adapters/postgres/storage.ts';
import { migratedPglite } from '../../engine/adapters/postgres/testing/fixtures.ts';
import { openPostgresEngine } from '../../engine/index.ts';
import type { Engine } from '../../engine/types.ts';
import { open, tempDir } from './local-helpers.ts';

/** What both engines are opened with beside their storage. */
export interface BothEnginesOptions {
  clock?: () => Date;
  timeZone?: string;
}

/**
 * The local engine on a new SQLite store, and the PostgreSQL engine on one migrated PGlite shared by
 * every engine the file opens (closed when the file's process ends), each a function opening a new
 * engine: a rule written once over the ports, read through each adapter.
 */
export async function bothEngines(
  options: BothEnginesOptions = {},
): Promise<ReadonlyArray<[string, () => Promise<Engine>]>> {
  const pg = await migratedPglite();
  return [
    ['SQLite', () => open(tempDir(), options)],
    [
      'PostgreSQL (PGlite)',
      async () =>
        (
          await openPostgresEngine(
            { open: () => postgresStorageOver({ ...pg, close: async () => {} }) },
            { deployment: 'local', ...options },
          )
        ).engine,
    ],
  ];
}
