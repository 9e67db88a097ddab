import { pgBrains } from './brain-repository.ts';
import { shownUrl } from './database-url.ts';
import { connectPostgres } from './client.ts';
import type { KeyRegistryPort, TenantRef } from '../../ports/index.ts';
import { pgKeyRegistry } from './key-registry.ts';
import { migrate } from './migrate.ts';

/** A database `mnemo keys list` or `revoke` was pointed at that holds no Mnemo. */
export class NoMnemoHere extends Error {
  constructor(url: string) {
    super(
      `the database at ${url} holds no Mnemo (no keys to list or revoke): check the URL; ` +
        '`mnemo serve --engine postgres` or `mnemo keys create` sets one up there',
    );
  }
}

/**
 * The key registry of a hosted Mnemo's database, for `mnemo keys`: brings the schema up to date first
 * (under the migrations' lock, so a server starting meanwhile is not disturbed). Only `create` sets up
 * a database that holds no Mnemo yet: listing or revoking there would fill a mistyped URL's database
 * (another application's) with Mnemo's tables, to find nothing.
 */
export async function openPostgresKeys(
  url: string,
  { create = true }: { create?: boolean } = {},
): Promise<{
  registry: KeyRegistryPort;
  /** Whether the database holds this tenant's Brain of this id (`mnemo keys create --brain` asks). */
  hasBrain(tenant: TenantRef, brainId: string): Promise<boolean>;
  close(): Promise<void>;
}> {
  const client = connectPostgres(url, { max: 2 });
  try {
    if (!create) {
      const none = await client.query<{ none: boolean }>(
        "SELECT to_regclass('mnemo_migrations') IS NULL AS none",
      );
      if (none.rows[0]!.none) throw new NoMnemoHere(shownUrl(url));
    }
    await migrate(client);
  } catch (e) {
    await client.close();
    if (e instanceof NoMnemoHere) throw e;
    const err = new Error(`the database at ${shownUrl(url)} could not be used: ${(e as Error).message}`);
    err.cause = e;
    throw err;
  }
  return {
    registry: pgKeyRegistry(client),
    hasBrain: async (tenant, brainId) => (await pgBrains(client).find(tenant, brainId)) !== null,
    close: () => client.close(),
  };
}
