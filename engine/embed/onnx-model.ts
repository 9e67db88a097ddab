import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import type * as Ort from 'onnxruntime-node';
import { normalize } from './embedder.ts';
import { findModelFile, onnxModelId } from './onnx-files.ts';
import { keepOnnxRuntimeOffline } from './onnx-offline.ts';

/**
 * A sentence-transformers model exported to ONNX: tokenizer.json (WordPiece for BERT-family models,
 * run by @huggingface/tokenizers), the encoder in model.onnx, then mean pooling over the attention mask
 * and L2 normalisation, which is what sentence-transformers does for MiniLM and BGE-style models.
 */
export interface OnnxModel {
  modelId: string;
  dims: number;
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  close(): Promise<void>;
}

export interface OnnxModelOptions {
  modelDir: string;
  modelId?: string | undefined;
  maxTokens?: number | undefined;
  threads?: number | undefined;
}

function readJson(path: string): Record<string, unknown> {
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>) : {};
}

/** Loads the tokenizer and the session, and learns the output width by embedding one short text. */
export async function loadOnnxModel(opts: OnnxModelOptions): Promise<OnnxModel> {
  const dir = opts.modelDir;
  const tokPath = join(dir, 'tokenizer.json');
  if (!existsSync(tokPath)) throw new Error(`${dir}: no tokenizer.json`);
  const tokenizer = new Tokenizer(readJson(tokPath), readJson(join(dir, 'tokenizer_config.json')));
  // Imported here, not at the top: a bundle hoists a static import of an external package to its own
  // top, and every embedding worker (GloVe's too) would then load the native addon at start.
  keepOnnxRuntimeOffline();
  const ort = await import('onnxruntime-node');
  const session = await ort.InferenceSession.create(findModelFile(dir), {
    intraOpNumThreads: opts.threads ?? 1,
    interOpNumThreads: 1,
    executionProviders: ['cpu'],
    graphOptimizationLevel: 'all',
  });
  const maxTokens = opts.maxTokens ?? 256;
  const inputs = new Set(session.inputNames);
  const outputName =
    ['sentence_embedding', 'last_hidden_state', 'token_embeddings'].find((n) =>
      session.outputNames.includes(n),
    ) ?? session.outputNames[0]!;

  async function run(texts: readonly string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const enc = texts.map((t) => {
      const e = tokenizer.encode(t, { return_token_type_ids: true });
      const n = Math.min(e.ids.length, maxTokens);
      // Keep the closing special token when cutting, as the Python tokenizers' truncation does.
      const ids =
        e.ids.length > maxTokens ? [...e.ids.slice(0, maxTokens - 1), e.ids[e.ids.length - 1]!] : e.ids;
      return { ids, mask: e.attention_mask.slice(0, n), types: (e.token_type_ids ?? []).slice(0, n) };
    });
    const b = enc.length;
    const s = Math.max(...enc.map((e) => e.ids.length));
    const ids = new BigInt64Array(b * s);
    const mask = new BigInt64Array(b * s);
    const types = new BigInt64Array(b * s);
    enc.forEach((e, i) => {
      for (let j = 0; j < e.ids.length; j++) {
        ids[i * s + j] = BigInt(e.ids[j]!);
        mask[i * s + j] = BigInt(e.mask[j] ?? 1);
        types[i * s + j] = BigInt(e.types[j] ?? 0);
      }
    });
    const feeds: Record<string, Ort.Tensor> = {};
    if (inputs.has('input_ids')) feeds['input_ids'] = new ort.Tensor('int64', ids, [b, s]);
    if (inputs.has('attention_mask')) feeds['attention_mask'] = new ort.Tensor('int64', mask, [b, s]);
    if (inputs.has('token_type_ids')) feeds['token_type_ids'] = new ort.Tensor('int64', types, [b, s]);
    const out = (await session.run(feeds))[outputName]!;
    const data = out.data as Float32Array;
    if (out.dims.length === 2) {
      const d = Number(out.dims[1]);
      return enc.map((_, i) => normalize(Float32Array.from(data.subarray(i * d, (i + 1) * d))));
    }
    const d = Number(out.dims[2]);
    return enc.map((e, i) => {
      const v = new Float32Array(d);
      let count = 0;
      for (let j = 0; j < s; j++) {
        if (j >= e.ids.length || (e.mask[j] ?? 1) === 0) continue;
        count += 1;
        const base = (i * s + j) * d;
        for (let k = 0; k < d; k++) v[k]! += data[base + k]!;
      }
      if (count > 0) for (let k = 0; k < d; k++) v[k]! /= count;
      return normalize(v);
    });
  }

  const probe = await run(['dimension probe']);
  return {
    modelId: opts.modelId ?? onnxModelId(dir),
    dims: probe[0]!.length,
    embed: run,
    close: async () => {
      await session.release();
    },
  };
}
