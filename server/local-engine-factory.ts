import { createLocalEngine } from '../engine/local/index.ts';
import { locateDbKey } from '../engine/store/resolve-db-key.ts';
import type { Deployment, Engine } from '../engine/types.ts';
import { defaultDataDir } from './data-dir.ts';
import type { ServerOptions } from './start-server.ts';

/**
 * Opens the local (encrypted SQLite) engine. The key comes from the caller (the desktop shell's
 * keychain), else MNEMO_DB_KEY, else --db-key-file, else a 0600 key file in the config directory.
 */
export async function createLocalEngineFromOptions(
  options: ServerOptions,
  deployment: Deployment,
): Promise<Engine> {
  const dataDir = options.dataDir ?? defaultDataDir();
  let dbKey = options.dbKey;
  if (dbKey === undefined) {
    const found = locateDbKey({
      env: process.env,
      dbKeyFile: options.dbKeyFile,
      configDir: options.configDir,
    });
    if (found.source === 'generated') options.log?.(`created a new database key at ${found.path}`);
    dbKey = found.key;
  }
  return createLocalEngine({
    dataDir,
    dbKey,
    deployment,
    traceBufferSize: options.traceBuffer,
    thoroughSyncMs: options.thoroughSyncMs,
    logger: options.log
      ? {
          info: (m) => options.log!(m),
          warn: (m, f) => options.log!(`warn: ${m}${f ? ` ${JSON.stringify(f)}` : ''}`),
          error: (m, f) => options.log!(`error: ${m}${f ? ` ${JSON.stringify(f)}` : ''}`),
        }
      : undefined,
  });
}
