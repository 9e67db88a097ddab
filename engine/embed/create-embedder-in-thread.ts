import type { Embedder, EmbedderSpec } from './embedder.ts';
import { closeGloveTable } from './glove-table.ts';
import { gloveModelId, loadWordTable } from './word-table.ts';
import { createSifModel } from './glove-sif.ts';
import { createHashModel } from './hash-model.ts';

/**
 * Builds the provider a spec names, on the calling thread. The server never calls this directly: it
 * goes through createWorkerEmbedder, which runs this inside a worker thread.
 */
export async function createEmbedderInThread(spec: EmbedderSpec): Promise<Embedder> {
  switch (spec.provider) {
    case 'glove-sif': {
      const { table } = loadWordTable(spec);
      const m = createSifModel(table);
      return {
        provider: 'glove-sif',
        model: gloveModelId(table),
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
