import { join } from 'node:path';
import { defaultCacheDir } from './cache-dir.ts';
import type { EmbedderSpec } from './embedder.ts';
import { ensureModel, MINILM_L6_V2, type Progress } from './model-download.ts';

export type ProviderName = 'glove-sif' | 'onnx' | 'hash';

export interface EmbedderChoice {
  /** Default glove-sif: ships with the npm install, needs no network (docs/decisions/retrieval.md). */
  provider?: ProviderName | undefined;
  /** `--embedding-model DIR`: an ONNX sentence-transformers export; implies provider onnx. */
  modelDir?: string | undefined;
  /** Where downloaded models live (`<dataDir>/models`). */
  dataDir: string;
  /** Where the word-vector table's binary form is kept; default: the per-user cache dir. */
  cacheDir?: string | undefined;
  /** A prebuilt word-vector table's folder (the packaged desktop app's resources), read before the cache. */
  wordTableDir?: string | undefined;
  onProgress?: ((p: Progress) => void) | undefined;
  signal?: AbortSignal | undefined;
}

/**
 * Turns the command-line choice into a spec a worker can load. For onnx without a directory, the
 * default model is downloaded (resumable, SHA-256 verified) into `<dataDir>/models` first.
 */
export async function resolveEmbedderSpec(choice: EmbedderChoice): Promise<EmbedderSpec> {
  const provider = choice.modelDir ? 'onnx' : (choice.provider ?? 'glove-sif');
  switch (provider) {
    case 'onnx': {
      const modelDir =
        choice.modelDir ??
        (await ensureModel(MINILM_L6_V2, join(choice.dataDir, 'models'), {
          onProgress: choice.onProgress,
          signal: choice.signal,
        }));
      return { provider: 'onnx', modelDir };
    }
    case 'hash':
      return { provider: 'hash' };
    case 'glove-sif':
      return {
        provider: 'glove-sif',
        cacheDir: choice.cacheDir ?? defaultCacheDir(),
        ...(choice.wordTableDir ? { tableDir: choice.wordTableDir } : {}),
      };
  }
}
