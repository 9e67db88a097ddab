import { parentPort, workerData } from 'node:worker_threads';
import type { Embedder, EmbedderSpec } from './embedder.ts';
import { createEmbedderInThread } from './create-embedder-in-thread.ts';
import { errorMessage } from '../core/shared/error-message.ts';
import { handoverBuffers, type GloveHandover } from './glove-embedder.ts';
import { closeGloveTable, type GloveTable } from './glove-table.ts';
import { sifWeights } from './glove-sif.ts';
import { cachedSifWeights } from './sif-cache.ts';
import { gloveModelId, loadWordTable } from './word-table.ts';

/** Messages the worker answers: one embed request per id, and a close. */
export type WorkerRequest = { type: 'embed'; id: number; texts: string[] } | { type: 'close' };
export type WorkerReply =
  | { type: 'ready'; provider: string; model: string; dims: number }
  | { type: 'handover'; glove: GloveHandover }
  | { type: 'fatal'; message: string }
  | { type: 'result'; id: number; vectors: Float32Array[] }
  | { type: 'error'; id: number; message: string };

const port = parentPort!;
const spec = workerData as EmbedderSpec & { handOver?: boolean };

/** Loads the GloVe table and its weights and moves them to the parent (glove-embedder.ts), then ends. */
function handOver(spec: Extract<EmbedderSpec, { provider: 'glove-sif' }>): void {
  let reply: WorkerReply;
  let transfer: ArrayBuffer[] = [];
  let t: GloveTable | null = null;
  try {
    const loaded = loadWordTable(spec);
    t = loaded.table;
    const glove: GloveHandover = {
      model: gloveModelId(t),
      dims: t.dims,
      size: t.size,
      q: t.q,
      norms: t.norms,
      index: t.index.parts(),
      sif: loaded.files ? cachedSifWeights(t, loaded.files) : sifWeights(t),
      // Opened again on the other side: this thread's descriptors close when it ends.
      pending: t.pending && { ...t.pending, fd: null },
    };
    closeGloveTable(t);
    reply = { type: 'handover', glove };
    transfer = handoverBuffers(glove);
  } catch (e) {
    if (t) closeGloveTable(t);
    reply = { type: 'fatal', message: errorMessage(e) };
  }
  port.postMessage(reply, transfer);
  port.close();
}

if (spec.handOver && spec.provider === 'glove-sif') handOver(spec);
else serve(spec);

function serve(spec: EmbedderSpec): void {
  const loading: Promise<Embedder | null> = createEmbedderInThread(spec).then(
    (e) => {
      port.postMessage({
        type: 'ready',
        provider: e.provider,
        model: e.model,
        dims: e.dims,
      } satisfies WorkerReply);
      return e;
    },
    (e: unknown) => {
      port.postMessage({
        type: 'fatal',
        message: errorMessage(e),
      } satisfies WorkerReply);
      return null;
    },
  );
  // One request at a time: the model is not re-entrant, and replies then come in the order asked.
  let chain: Promise<unknown> = loading;

  port.on('message', (msg: WorkerRequest) => {
    chain = chain.then(async () => {
      const embedder = await loading;
      if (msg.type === 'close') {
        await embedder?.close();
        port.close();
        return;
      }
      try {
        if (!embedder) throw new Error('the embedder failed to load');
        const vectors = await embedder.embed(msg.texts);
        const buffers = [...new Set(vectors.map((v) => v.buffer as ArrayBuffer))];
        port.postMessage({ type: 'result', id: msg.id, vectors } satisfies WorkerReply, buffers);
      } catch (e) {
        port.postMessage({
          type: 'error',
          id: msg.id,
          message: errorMessage(e),
        } satisfies WorkerReply);
      }
    });
  });
}
