import {
  createEngine,
  locateDbKey,
  type Deployment,
  type EmbedderChoice,
  type Engine,
  type ProviderName,
} from '../engine/index.ts';
import { defaultDataDir } from './data-dir.ts';
import { lineLogger } from './line-logger.ts';
import type { ServerOptions } from './start-server.ts';

/**
 * The semantic lane's embedder: the ONNX model given (--embedding-model), else the offline default
 * (glove-sif). MNEMO_EMBEDDER=none|hash|glove-sif|onnx overrides; onnx alone downloads the default
 * model into the data dir, logging progress every 10%.
 */
function embedderChoice(options: ServerOptions, dataDir: string): EmbedderChoice | null {
  const env = process.env.MNEMO_EMBEDDER;
  if (env === 'none') return null;
  const provider: ProviderName | undefined =
    env === 'hash' || env === 'onnx' || env === 'glove-sif' ? env : undefined;
  let shown = -1;
  return {
    provider,
    modelDir: options.embeddingModel,
    dataDir,
    onProgress: (p: { file: string; received: number; total: number | null }) => {
      const pct = p.total ? Math.floor((10 * p.received) / p.total) * 10 : -1;
      if (pct === shown) return;
      shown = pct;
      options.log?.(`downloading ${p.file}: ${pct >= 0 ? `${pct}%` : `${p.received} bytes`}`);
    },
  };
}

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
  return createEngine({
    storage: { kind: 'sqlite', dataDir, dbKey },
    deployment,
    traceBufferSize: options.traceBuffer,
    thoroughSyncMs: options.thoroughSyncMs,
    embedder: embedderChoice(options, dataDir),
    timeZone: options.timeZone,
    logger: options.log ? lineLogger(options.log) : undefined,
  });
}
