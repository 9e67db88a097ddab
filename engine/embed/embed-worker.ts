import { parentPort, workerData } from 'node:worker_threads';
import type { Embedder, EmbedderSpec } from './embedder.ts';
import { createEmbedderInThread } from './create-embedder-in-thread.ts';
import { errorMessage } from '../core/shared/error-message.ts';

/** Messages the worker answers: one embed request per id, and a close. */
export type WorkerRequest = { type: 'embed'; id: number; texts: string[] } | { type: 'close' };
export type WorkerReply =
  | { type: 'ready'; provider: string; model: string; dims: number }
  | { type: 'fatal'; message: string }
  | { type: 'result'; id: number; vectors: Float32Array[] }
  | { type: 'error'; id: number; message: string };

const port = parentPort!;
const loading: Promise<Embedder | null> = createEmbedderInThread(workerData as EmbedderSpec).then(
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
