import type { EmbedderChoice, ProviderName } from '../engine/index.ts';
import type { ServerOptions } from './start-server.ts';

/**
 * The semantic lane's embedder: the ONNX model given (--embedding-model), else the offline default
 * (glove-sif). MNEMO_EMBEDDER=none|hash|glove-sif|onnx overrides; onnx alone downloads the default
 * model into `dataDir` (the local engine's data dir; the postgres engine's cache dir), logging
 * progress every 10%.
 */
export function embedderChoice(options: ServerOptions, dataDir: string): EmbedderChoice | null {
  const env = process.env.MNEMO_EMBEDDER;
  if (env === 'none') return null;
  // A misspelt name ran the default in silence, as if the setting had been read.
  if (env !== undefined && env !== '' && env !== 'hash' && env !== 'onnx' && env !== 'glove-sif')
    throw new Error(`MNEMO_EMBEDDER must be none, hash, glove-sif or onnx, not "${env}"`);
  const provider: ProviderName | undefined = env === '' ? undefined : env;
  let shown = -1;
  return {
    provider,
    modelDir: options.embeddingModel,
    dataDir,
    wordTableDir: options.wordTableDir,
    onProgress: (p: { file: string; received: number; total: number | null }) => {
      const pct = p.total ? Math.floor((10 * p.received) / p.total) * 10 : -1;
      if (pct === shown) return;
      shown = pct;
      options.log?.(`downloading ${p.file}: ${pct >= 0 ? `${pct}%` : `${p.received} bytes`}`);
    },
  };
}
