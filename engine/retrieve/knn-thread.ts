import { Worker } from 'node:worker_threads';

export interface KnnThreadOptions {
  /** The store's SQLite file and key: the thread opens its own read connection. */
  file: string;
  key: string | Buffer | null;
}

export type KnnRequest =
  | { type: 'knn'; id: number; table: string; brainUid: string; vector: Uint8Array; k: number }
  | { type: 'close' };
export type KnnReply =
  | { type: 'ready' }
  | { type: 'result'; id: number; rows: Array<{ n: number; l2: number }> }
  | { type: 'error'; id: number; message: string };

/** sqlite-vec KNN on a thread of its own, so a Context's vector search overlaps its full-text lanes. */
export interface KnnThread {
  /** True once the thread has opened its connection; until then callers scan on their own thread. */
  readonly ready: boolean;
  /** How many scans the thread has answered (so tests can tell it served, not the fallback). */
  readonly answered: number;
  /** The k nearest rows of one Brain in an int8 vec0 table (L2 distance of the quantised vectors). */
  nearest(
    table: string,
    brainUid: string,
    vector: Buffer,
    k: number,
  ): Promise<Array<{ n: number; l2: number }>>;
  close(): Promise<void>;
}

/**
 * Starts the KNN thread. The vector scan is the one lane that costs as much as the full-text search at
 * 100,000 Records (~15-20 ms each on this machine) and shares nothing with it, so on a second core the
 * two run side by side instead of one after the other.
 */
export function createKnnThread(opts: KnnThreadOptions): KnnThread {
  const worker = new Worker(new URL('./knn-worker-entry.mjs', import.meta.url), { workerData: opts });
  worker.unref();
  const pending = new Map<
    number,
    { resolve: (r: Array<{ n: number; l2: number }>) => void; reject: (e: Error) => void }
  >();
  let nextId = 1;
  let failure: Error | null = null;
  let ready = false;
  let closing = false;
  let answered = 0;
  const failAll = (e: Error) => {
    failure = e;
    for (const p of pending.values()) p.reject(e);
    pending.clear();
  };
  worker.on('error', failAll);
  worker.on('exit', (code) => failAll(new Error(`the KNN thread exited (code ${code})`)));
  worker.on('message', (msg: KnnReply) => {
    if (msg.type === 'ready') {
      ready = true;
      return;
    }
    const p = pending.get(msg.id);
    pending.delete(msg.id);
    // Idle, the thread must not keep the process alive; waited on (or closing), it must.
    if (pending.size === 0 && !closing) worker.unref();
    if (msg.type === 'result') {
      answered++;
      p?.resolve(msg.rows);
    } else p?.reject(new Error(msg.message));
  });
  return {
    get ready() {
      return ready && failure === null && !closing;
    },
    get answered() {
      return answered;
    },
    nearest(table, brainUid, vector, k) {
      if (failure) return Promise.reject(failure);
      if (closing) return Promise.reject(new Error('the KNN thread is closing'));
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.ref();
        worker.postMessage({ type: 'knn', id, table, brainUid, vector, k } satisfies KnnRequest);
      });
    },
    async close() {
      if (failure || closing) return;
      closing = true;
      const exited = new Promise<void>((r) => worker.once('exit', () => r()));
      worker.ref();
      worker.postMessage({ type: 'close' } satisfies KnnRequest);
      await exited;
    },
  };
}
