import type { Deployment, Engine } from '../engine/types.ts';
import type { ServerOptions } from './start-server.ts';
import { defaultConfigDir, defaultDataDir } from './data-dir.ts';

/** Opens the local (encrypted SQLite) engine. */
export async function createLocalEngineFromOptions(
  options: ServerOptions,
  deployment: Deployment,
): Promise<Engine> {
  // The local engine lands in engine/local (issue 3); loaded lazily so the reference engine starts without it.
  const path = '../engine/local/index.ts';
  const mod = (await import(path)) as {
    createLocalEngine?: (o: Record<string, unknown>) => Promise<Engine>;
    resolveDbKey?: (o: Record<string, unknown>) => string | Buffer;
    locateDbKey?: (o: Record<string, unknown>) => { key: string; source: string; path?: string };
  };
  if (!mod.createLocalEngine)
    throw new Error('the local engine is not available in this build; use --engine reference');
  const dataDir = options.dataDir ?? defaultDataDir();
  const dbKey = mod.locateDbKey!({
    env: process.env,
    dbKeyFile: options.dbKeyFile,
    configDir: options.configDir ?? defaultConfigDir(),
  });
  if (dbKey.source === 'generated') options.log?.(`created a new database key at ${dbKey.path}`);
  return mod.createLocalEngine({
    dataDir,
    dbKey: dbKey.key,
    deployment,
    traceBufferSize: options.traceBuffer,
    thoroughSyncMs: options.thoroughSyncMs,
  });
}
