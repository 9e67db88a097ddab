import { Worker } from 'node:worker_threads';
import type { Embedder, EmbedderSpec } from './embedder.ts';
import type { WorkerReply, WorkerRequest } from './embed-worker.ts';
import { keepOnnxRuntimeOffline } from './onnx-offline.ts';

/**
 * Texts per message to the worker. The worker answers one message at a time, so a query embedding
 * (one text, on a Context's critical path) sent while the indexer embeds a batch of 256 would wait for
 * all of it; sent in chunks, one after another, a batch lets a query in after at most one chunk.
 */
const chunkTexts = 16;

/**
 * Runs a provider in a worker thread so that loading a model and embedding never block the server's
 * event loop. Resolves once the model has loaded (rejects with the loader's message if it fails).
 */
export function createWorkerEmbedder(spec: EmbedderSpec, signal?: AbortSignal): Promise<Embedder> {
  keepOnnxRuntimeOffline();
  const worker = new Worker(new URL('./embed-worker-entry.mjs', import.meta.url), { workerData: spec });
  const pending = new Map<number, { resolve: (v: Float32Array[]) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  let closed = false;
  let failure: Error | null = null;

  function post(texts: readonly string[]): Promise<Float32Array[]> {
    if (failure) return Promise.reject(failure);
    if (closed) return Promise.reject(new Error('embedder closed'));
    if (texts.length === 0) return Promise.resolve([]);
    const id = nextId++;
    return new Promise<Float32Array[]>((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.postMessage({ type: 'embed', id, texts: [...texts] } satisfies WorkerRequest);
    });
  }

  function failAll(e: Error): void {
    failure = e;
    for (const p of pending.values()) p.reject(e);
    pending.clear();
  }

  return new Promise<Embedder>((resolveReady, rejectReady) => {
    // Closing while the model still loads (seconds for a big one) must not wait for it, and must not
    // terminate the worker either: terminating a thread that holds onnxruntime's addon aborts the whole
    // process. The worker is asked to close, finishes loading, lets go of the model and exits on its own.
    // It is never unref'd: if the process ran out of work first, Node would stop the thread at exit, which
    // is the same teardown as terminate(). Loading takes a bounded time, so exit waits for it.
    const release = () => worker.postMessage({ type: 'close' } satisfies WorkerRequest);
    const abort = () => {
      if (closed) return;
      closed = true;
      rejectReady(new Error('embedder load aborted'));
      release();
    };
    if (signal?.aborted) abort();
    signal?.addEventListener('abort', abort, { once: true });
    worker.on('error', (e) => {
      failAll(e);
      rejectReady(e);
    });
    worker.on('exit', (code) => {
      const e = new Error(`embedding worker exited (code ${code})`);
      if (!closed) failAll(e);
      rejectReady(e);
    });
    worker.on('message', (msg: WorkerReply) => {
      switch (msg.type) {
        case 'ready': {
          signal?.removeEventListener('abort', abort);
          if (closed) return;
          const embedder: Embedder = {
            provider: msg.provider,
            model: msg.model,
            dims: msg.dims,
            embed(texts) {
              if (texts.length <= chunkTexts) return post(texts);
              return (async () => {
                const out: Float32Array[] = [];
                for (let i = 0; i < texts.length; i += chunkTexts)
                  out.push(...(await post(texts.slice(i, i + chunkTexts))));
                return out;
              })();
            },
            async close() {
              if (closed) return;
              closed = true;
              const exited = new Promise<void>((r) => worker.once('exit', () => r()));
              release();
              // A model that will not let go must not hold close() up for long; the thread is still never
              // terminated, for the reason above, and stays ref'd until it exits.
              let timer: NodeJS.Timeout | undefined;
              await Promise.race([exited, new Promise<void>((r) => (timer = setTimeout(r, 5_000)))]);
              clearTimeout(timer);
            },
          };
          resolveReady(embedder);
          return;
        }
        case 'fatal': {
          closed = true;
          rejectReady(new Error(msg.message));
          release();
          return;
        }
        case 'result':
          pending.get(msg.id)?.resolve(msg.vectors);
          pending.delete(msg.id);
          return;
        case 'error':
          pending.get(msg.id)?.reject(new Error(msg.message));
          pending.delete(msg.id);
          return;
      }
    });
  });
}
