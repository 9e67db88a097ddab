import type { Embedder } from './embedder.ts';
import { resolveEmbedderSpec, type EmbedderChoice } from './resolve-embedder.ts';
import { sharedGloveEmbedder } from './shared-glove.ts';
import { createWorkerEmbedder } from './worker-embedder.ts';

export type { Embedder, EmbedderSpec, EmbedderIdentity } from './embedder.ts';
export { dot, normalize } from './embedder.ts';
export type { EmbedderChoice, ProviderName } from './resolve-embedder.ts';
export { resolveEmbedderSpec } from './resolve-embedder.ts';
export { createWorkerEmbedder } from './worker-embedder.ts';

/**
 * The engine's embedder for a command-line choice: glove-sif by default (loaded in a worker thread,
 * then embedding on this one, its table shared by the engines of the process), onnx with
 * `--embedding-model DIR` (or the downloaded default model when onnx is asked for by name) running in a
 * worker thread throughout.
 */
export async function createEmbedder(choice: EmbedderChoice, signal?: AbortSignal): Promise<Embedder> {
  const spec = await resolveEmbedderSpec({ ...choice, signal });
  return spec.provider === 'glove-sif'
    ? sharedGloveEmbedder(spec, signal)
    : createWorkerEmbedder(spec, signal);
}

/** What an engine is given for its semantic lane: a command-line choice, a ready embedder, or none. */
export type EmbedderOption = EmbedderChoice | Embedder | Promise<Embedder> | null | undefined;

/** How an engine loads its embedder in the background (given close()'s AbortSignal), or null for none. */
export function embedderLoader(e: EmbedderOption): ((signal: AbortSignal) => Promise<Embedder>) | null {
  if (!e) return null;
  if (e instanceof Promise) return () => e;
  if ('embed' in e) return () => Promise.resolve(e);
  return (signal) => createEmbedder(e, signal);
}
