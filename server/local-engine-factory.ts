import { createEngine, locateDbKey, type Deployment, type Engine } from '../engine/index.ts';
import { defaultDataDir } from './data-dir.ts';
import { embedderChoice } from './embedder-choice.ts';
import { queryRewriterChoice } from './query-rewriter-choice.ts';
import { lineLogger } from './line-logger.ts';
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
      dataDir,
    });
    if (found.source === 'generated') options.log?.(`created a new database key at ${found.path}`);
    if (found.warning) options.log?.(`warn: ${found.warning}`);
    dbKey = found.key;
  }
  return createEngine({
    storage: { kind: 'sqlite', dataDir, dbKey },
    deployment,
    traceBufferSize: options.traceBuffer,
    thoroughSyncMs: options.thoroughSyncMs,
    embedder: embedderChoice(options, dataDir),
    timeZone: options.timeZone,
    queryRewriter: queryRewriterChoice(options),
    logger: options.log ? lineLogger(options.log) : undefined,
    ...(options.deriver ? { deriver: options.deriver } : {}),
    ...(options.deriveRetryDelaysMs ? { deriveRetryDelaysMs: options.deriveRetryDelaysMs } : {}),
  });
}
