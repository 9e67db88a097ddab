import { Worker } from 'node:worker_threads';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Embedder, EmbedderSpec } from './embedder.ts';
import { closeGloveTable, reopenGloveRows, type GloveTable, type PendingRows } from './glove-table.ts';
import { sifModelOf, type SifWeights } from './glove-sif.ts';
import { wordIndexFromParts, type WordIndexParts } from './word-index.ts';
import type { WorkerReply } from './embed-worker.ts';

/** A loaded GloVe table and its SIF weights as arrays, handed from the thread that loaded them. */
export interface GloveHandover {
  model: string;
  dims: number;
  size: number;
  q: Int8Array;
  norms: Float32Array;
  index: WordIndexParts;
  sif: SifWeights;
  /** The rows of q not read yet and the cache file they come from, opened again by the receiving thread. */
  pending?: PendingRows | undefined;
}

/** The buffers a handover moves (transferred, not copied). */
export function handoverBuffers(h: GloveHandover): ArrayBuffer[] {
  const arrays = [h.q, h.norms, h.index.bytes, h.index.starts, h.index.table, h.index.ranks, h.sif.weights];
  if (h.sif.common) arrays.push(h.sif.common);
  if (h.pending) arrays.push(h.pending.loaded);
  return [...new Set(arrays.map((a) => a.buffer as ArrayBuffer))];
}

/** Texts embedded between two turns of the event loop: a Context's query waits for at most these. */
const textsPerTurn = 16;

/** The glove-sif embedder over a handed-over table, embedding on the calling thread. */
export function gloveEmbedderOf(h: GloveHandover): Embedder {
  if (h.pending) reopenGloveRows(h.pending);
  const table: GloveTable = {
    dims: h.dims,
    size: h.size,
    q: h.q,
    norms: h.norms,
    index: wordIndexFromParts(h.index),
    pending: h.pending,
  };
  const m = sifModelOf(table, h.sif);
  return {
    provider: 'glove-sif',
    model: h.model,
    dims: m.dims,
    async embed(texts) {
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i++) {
        if (i > 0 && i % textsPerTurn === 0) await nextTurn();
        out.push(m.embedOne(texts[i]!));
      }
      return out;
    },
    close: async () => closeGloveTable(table),
  };
}

/**
 * The default embedder: the GloVe table is loaded (shipped prebuilt, from its cache, or built from the
 * package's JSON, which takes a few hundred MB and seconds: word-table.ts) and the SIF weights computed
 * in a worker thread, so none of it blocks the event loop; then the arrays move to this thread and the
 * worker ends. Embedding a text takes tens of microseconds, less than a message to a worker and back,
 * and no thread (with its own V8 heap) stays behind for it.
 */
export function createGloveEmbedder(
  spec: Extract<EmbedderSpec, { provider: 'glove-sif' }>,
  signal?: AbortSignal,
): Promise<Embedder> {
  const worker = new Worker(new URL('./embed-worker-entry.mjs', import.meta.url), {
    workerData: { ...spec, handOver: true },
  });
  return new Promise<Embedder>((resolve, reject) => {
    let settled = false;
    const settle = (f: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', abort);
      f();
    };
    // Never terminated, as no embedding worker is: one that holds onnxruntime's addon (a bundle once
    // loaded it in every worker) takes the process down when terminated (docs/decisions/retrieval.md).
    // An aborted load finishes, its handover goes unheard, and the worker ends.
    const abort = () => settle(() => reject(new Error('embedder load aborted')));
    if (signal?.aborted) abort();
    signal?.addEventListener('abort', abort, { once: true });
    worker.on('error', (e) => settle(() => reject(e)));
    worker.on('exit', (code) => settle(() => reject(new Error(`embedding worker exited (code ${code})`))));
    worker.on('message', (msg: WorkerReply) => {
      if (msg.type === 'handover')
        settle(() => {
          try {
            resolve(gloveEmbedderOf(msg.glove));
          } catch (e) {
            reject(e instanceof Error ? e : new Error(String(e)));
          }
        });
      else if (msg.type === 'fatal') settle(() => reject(new Error(msg.message)));
    });
  });
}
