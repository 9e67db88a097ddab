import { Worker } from 'node:worker_threads';
import type { ThreadItem, ThreadReply, ThreadRequest, ThreadResult } from './derive-thread.ts';

/** The rule deriver in a worker thread of its own (derive-thread.ts), started when first asked. */
export interface DeriverThread {
  /** Each item's claims, in order; rejects when the thread failed, is closed, or derives by other rules. */
  derive(items: readonly ThreadItem[]): Promise<ThreadResult[]>;
  /** Whether the thread is up: sending it a small batch then costs no start. */
  readonly running: boolean;
  /** Whether it failed once: it is not started again, and derivation stays on the caller's thread. */
  readonly failed: boolean;
  close(): Promise<void>;
}

export interface DeriverThreadOptions {
  /** The rules' name the engine derives by: a thread answering under another is not used. */
  deriverName: string;
  /**
   * How long the thread stays up with nothing to do (default 30 s). Its rules' compiled code and tables
   * are worth keeping through a stream of writes, not through an idle desktop day.
   */
  idleMs?: number;
  /** Told once when the thread fails (it is not started again). */
  onFailure?: (e: Error) => void;
  /** The thread's entry (tests name another to see a failure handled). */
  entry?: URL;
  /**
   * Longest wait for an answer, each item adding 50 ms (default 30 s): a thread that hangs is ended
   * as failed, and derivation goes on in place, rather than waiting for it for good.
   */
  answerMs?: number;
}

export function createDeriverThread(o: DeriverThreadOptions): DeriverThread {
  const idleMs = o.idleMs ?? 30_000;
  const entry = o.entry ?? new URL('./derive-thread-entry.mjs', import.meta.url);
  let worker: Worker | null = null;
  let failure: Error | null = null;
  let closed = false;
  let nextId = 1;
  let idleTimer: NodeJS.Timeout | null = null;
  const pending = new Map<number, { resolve: (r: ThreadResult[]) => void; reject: (e: Error) => void }>();

  const fail = (e: Error) => {
    if (failure === null && !closed) o.onFailure?.(e);
    failure ??= e;
    for (const p of pending.values()) p.reject(e);
    pending.clear();
    const w = worker;
    worker = null;
    void w?.terminate();
  };

  const stopWhenIdle = () => {
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = setTimeout(() => {
      idleTimer = null;
      if (pending.size > 0 || worker === null) return;
      const w = worker;
      worker = null;
      void w.terminate();
    }, idleMs);
    idleTimer.unref();
  };

  const start = (): Worker => {
    const w = new Worker(entry);
    w.on('message', (reply: ThreadReply) => {
      const p = pending.get(reply.id);
      if (!p) return;
      pending.delete(reply.id);
      if (reply.deriver !== o.deriverName) {
        fail(new Error(`the derive thread derives by ${reply.deriver}, the engine by ${o.deriverName}`));
        p.reject(failure!);
        return;
      }
      p.resolve(reply.results);
      if (pending.size === 0) {
        // Idle, it must not keep the process up: a command that has ended exits.
        w.unref();
        stopWhenIdle();
      }
    });
    w.on('error', (e) => {
      if (worker === w) fail(e);
    });
    w.on('exit', (code) => {
      if (worker === w) fail(new Error(`the derive thread exited (code ${code})`));
    });
    return w;
  };

  return {
    get running() {
      return worker !== null;
    },
    get failed() {
      return failure !== null;
    },
    derive(items) {
      if (failure) return Promise.reject(failure);
      if (closed) return Promise.reject(new Error('the derive thread is closed'));
      if (items.length === 0) return Promise.resolve([]);
      worker ??= start();
      worker.ref();
      if (idleTimer) {
        clearTimeout(idleTimer);
        idleTimer = null;
      }
      const id = nextId++;
      const w = worker;
      const waitMs = (o.answerMs ?? 30_000) + 50 * items.length;
      return new Promise<ThreadResult[]>((resolve, reject) => {
        const timer = setTimeout(
          () => fail(new Error(`the derive thread did not answer in ${Math.round(waitMs / 1000)} s`)),
          waitMs,
        );
        const settled = () => clearTimeout(timer);
        pending.set(id, {
          resolve: (r) => (settled(), resolve(r)),
          reject: (e) => (settled(), reject(e)),
        });
        w.postMessage({ id, items: [...items] } satisfies ThreadRequest);
      });
    },
    async close() {
      closed = true;
      if (idleTimer) clearTimeout(idleTimer);
      const w = worker;
      worker = null;
      for (const p of pending.values()) p.reject(new Error('the derive thread is closed'));
      pending.clear();
      await w?.terminate();
    },
  };
}

/** One derive thread per process and rules: its start (~0.5 s of CPU to load and warm the rules) paid once. */
const shared = new Map<string, { thread: DeriverThread; failureTold: Set<(e: Error) => void> }>();

/**
 * The process's derive thread for these rules, shared by its engines (each told of its failure);
 * closing a handle lets go of it, and the thread stops once idle.
 */
export function sharedDeriverThread(
  o: Pick<DeriverThreadOptions, 'deriverName' | 'onFailure'>,
): DeriverThread {
  let entry = shared.get(o.deriverName);
  if (entry === undefined) {
    const failureTold = new Set<(e: Error) => void>();
    const thread = createDeriverThread({
      deriverName: o.deriverName,
      onFailure: (e) => failureTold.forEach((tell) => tell(e)),
    });
    entry = { thread, failureTold };
    shared.set(o.deriverName, entry);
  }
  const { thread, failureTold } = entry;
  const tell = (e: Error) => o.onFailure?.(e);
  failureTold.add(tell);
  let closed = false;
  return {
    get running() {
      return thread.running;
    },
    get failed() {
      return thread.failed;
    },
    derive: (items) =>
      closed ? Promise.reject(new Error('the derive thread is closed')) : thread.derive(items),
    async close() {
      closed = true;
      failureTold.delete(tell);
    },
  };
}
