import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { newStoreKey } from '../../engine/adapters/sqlite/resolve-db-key.ts';
import { startServer, type RunningServer, type ServerOptions } from '../../server/start-server.ts';

/**
 * A server as `mnemo serve` runs one, over a data dir in `root`: the local engine on an encrypted
 * SQLite file whose key is a file (made, owner-only, unless it is there), loopback on any free port, no
 * rate limit, and an API key minted for project `home`, env `test`. The caller closes the server.
 */
export async function serveLocal(
  root: string,
  o: {
    dataDir?: string;
    keyFile?: string;
    log?: (line: string) => void;
    timeZone?: string;
    /** Any other option of the server (the query rewrite's, a thorough budget). */
    more?: Partial<ServerOptions>;
  } = {},
): Promise<{ server: RunningServer; key: string; auth: Record<string, string> }> {
  const keyFile = o.keyFile ?? join(root, 'db.key');
  // A key as Mnemo makes one, taken as the key itself: a passphrase costs an Argon2id derivation on
  // each of the store's connections.
  if (!existsSync(keyFile)) writeFileSync(keyFile, `${newStoreKey()}\n`, { mode: 0o600 });
  const server = await startServer({
    engine: 'local',
    port: 0,
    rateLimit: 0,
    dataDir: o.dataDir ?? join(root, 'data'),
    dbKeyFile: keyFile,
    configDir: join(root, 'config'),
    log: o.log ?? (() => {}),
    ...(o.timeZone ? { timeZone: o.timeZone } : {}),
    ...o.more,
  });
  const key = (await server.registry!.create({ env: 'test', project: 'home' })).key;
  return { server, key, auth: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } };
}
