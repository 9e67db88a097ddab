import { pgBrains } from './brain-repository.ts';
import { connectPostgres } from './client.ts';
import type { KeyRegistryPort, TenantRef } from '../../ports/index.ts';
import { pgKeyRegistry } from './key-registry.ts';
import { migrate } from './migrate.ts';

/** Query parameters of a connection string that hold a secret (libpq's names). */
const secretParams = ['password', 'sslpassword'];

/** The URL as it may be shown: without its password, whether in its user part or its query. */
export function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    for (const name of secretParams) if (u.searchParams.has(name)) u.searchParams.set(name, '***');
    return u.toString();
  } catch {
    return 'the database URL (it is not a URL)';
  }
}

/**
 * The key registry of a hosted Mnemo's database, for `mnemo keys`: brings the schema up to date first
 * (under the migrations' lock, so a server starting meanwhile is not disturbed).
 */
export async function openPostgresKeys(url: string): Promise<{
  registry: KeyRegistryPort;
  /** Whether the database holds this tenant's Brain of this id (`mnemo keys create --brain` asks). */
  hasBrain(tenant: TenantRef, brainId: string): Promise<boolean>;
  close(): Promise<void>;
}> {
  const client = connectPostgres(url, { max: 2 });
  try {
    await migrate(client);
  } catch (e) {
    await client.close();
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
