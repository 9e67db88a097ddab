import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Embedder, EmbedderSpec } from './embedder.ts';
import { closeGloveTable, defaultGlovePath, loadGloveTable } from './glove-table.ts';
import { createSifModel } from './glove-sif.ts';
import { createHashModel } from './hash-model.ts';

/**
 * The model id recorded per vector for glove-sif: the word vectors' package and version as installed
 * (another release of the package is another vector space, re-embedded, never mixed), then the SIF
 * variant. Word vectors from elsewhere are named by file name and size.
 */
export function gloveModelId(vectorsPath: string = defaultGlovePath()): string {
  const pkgPath = join(dirname(vectorsPath), 'package.json');
  const pkg = existsSync(pkgPath)
    ? (JSON.parse(readFileSync(pkgPath, 'utf8')) as { name?: unknown; version?: unknown; main?: unknown })
    : {};
  // Only the package's own vectors file is named by the package: any other file beside a package.json
  // (a project's) would otherwise take that project's name and keep it when the file is replaced.
  const packaged =
    typeof pkg.name === 'string' &&
    typeof pkg.version === 'string' &&
    typeof pkg.main === 'string' &&
    join(dirname(vectorsPath), pkg.main) === vectorsPath;
  const source = packaged
    ? `${String(pkg.name)}@${String(pkg.version)}`
    : `${basename(vectorsPath)}@${statSync(vectorsPath).size}b`;
  return `${source}/sif-a1e-3-content-words-rc1`;
}

/**
 * Builds the provider a spec names, on the calling thread. The server never calls this directly: it
 * goes through createWorkerEmbedder, which runs this inside a worker thread.
 */
export async function createEmbedderInThread(spec: EmbedderSpec): Promise<Embedder> {
  switch (spec.provider) {
    case 'glove-sif': {
      const table = loadGloveTable(spec.vectorsPath, spec.cacheDir);
      const m = createSifModel(table);
      return {
        provider: 'glove-sif',
        model: gloveModelId(spec.vectorsPath),
        dims: m.dims,
        embed: async (texts) => texts.map((t) => m.embedOne(t)),
        close: async () => closeGloveTable(table),
      };
    }
    case 'hash': {
      const m = createHashModel(spec.dims);
      return {
        provider: 'hash',
        model: `hash-${m.dims}`,
        dims: m.dims,
        embed: async (texts) => texts.map((t) => m.embedOne(t)),
        close: async () => {},
      };
    }
    case 'onnx': {
      // Loaded only for this provider: onnxruntime's native addon aborts the process ("terminate called
      // after throwing Napi::Error") when a worker holding it is terminated, e.g. a server closing while
      // the GloVe table still loads.
      const { loadOnnxModel } = await import('./onnx-model.ts');
      const m = await loadOnnxModel(spec);
      return { provider: 'onnx', model: m.modelId, dims: m.dims, embed: m.embed, close: m.close };
    }
  }
}
