import { statSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { cipherOf, keyPragmas } from './open-database.ts';
import { nativeBindingPath } from './sqlite-binding.ts';
import { storeFailure } from './store-failure.ts';
import type { Store } from './store.ts';

/**
 * Checkpoints of the store's WAL on a connection of their own, in a worker thread.
 *
 * SQLite checkpoints on the committing connection by default: every ~1,000 pages a COMMIT also reads
 * the WAL's pages back, decrypts them, encrypts them again and writes them to the main file, on the
 * event loop, while requests wait (measured: a third of the COMMITs' time while Records stream in).
 * Here the worker runs PASSIVE checkpoints, which wait for nobody, shortly after writes, and the store's
 * connection checkpoints on its own only as a backstop (`wal_autocheckpoint` at 10,000 pages): under
 * writes that never pause, each of the worker's checkpoints misses the commits made while it ran, so
 * the WAL is never wholly copied when a writer begins and never restarts; the backstop, run inside a
 * commit, copies all of it, and the next writer restarts the WAL. `journal_size_limit` then cuts the
 * file back. A forget empties the WAL itself (store.emptyLog): it holds the worker off and waits for a
 * checkpoint in flight, or the worker's opening read, first, so its receipt leaves only once the
 * forgotten bytes are out of the log.
 *
 * The worker starts once the WAL has grown to `startAtWalBytes`: a store written little never has its
 * checkpoints on the event loop anyway (SQLite's own come every 1,000 pages), and a thread with a
 * connection of its own costs ~60 ms of CPU to start and memory to keep.
 */
export interface BackgroundCheckpoints {
  /** The store was written (called on each of its commits): a checkpoint follows within `intervalMs`. */
  kick(): void;
  /** Lets a checkpoint in flight finish and closes the worker's connection; call before store.close(). */
  close(): Promise<void>;
}

export interface BackgroundCheckpointOptions {
  /** The store's key (the worker opens the file too). */
  key: string | Buffer | null;
  /** Longest wait from a write to the checkpoint that takes it; several writes share one. Default 200. */
  intervalMs?: number;
  /**
   * The worker could not start or failed, or its checkpoints are paused by a full or failing disk:
   * the store's connection checkpoints on its own again (said once a pause, however long it lasts).
   */
  onError?: (message: string) => void;
  /** The worker's checkpoints run again after a pause. */
  onResumed?: (message: string) => void;
  /** The worker's script; tests give one that fails as a full disk does. */
  workerUrl?: URL;
  /**
   * The worker starts at the first commit after which the WAL file holds this many bytes (0: at once).
   * Default 2 MiB, ~500 pages (a new store's schema is ~150): the worker is ready well before SQLite's
   * own checkpoint at 1,000 pages would run in a commit.
   */
  startAtWalBytes?: number;
}

type Reply =
  | { type: 'ready' }
  | { type: 'failed'; message: string }
  | {
      type: 'checkpointed';
      log: number;
      checkpointed: number;
      busy?: boolean;
      error?: string | null;
      /** SQLite's code of the error. */
      code?: string;
    }
  | { type: 'closed' };

/** SQLite's default, restored when the worker is gone. */
const autocheckpointPages = 1000;
/** With the worker: the store's own checkpoint only when the WAL has outgrown this (~40 MB). */
const backstopPages = 10_000;
/** What a WAL file is cut back to once restarted (bytes). */
const walSizeLimit = 64 * 1024 * 1024;

const defaultStartAtWalBytes = 2 * 1024 * 1024;

export function startBackgroundCheckpoints(
  store: Store,
  opts: BackgroundCheckpointOptions,
): BackgroundCheckpoints {
  const startAt = opts.startAtWalBytes ?? defaultStartAtWalBytes;
  const walFile = `${store.file}-wal`;
  // One stat a commit (~3 µs) until the worker runs; no WAL file yet is an empty one.
  const grown = () => (statSync(walFile, { throwIfNoEntry: false })?.size ?? 0) >= startAt;
  let running: RunningCheckpoints | null = null;
  let closed = false;
  /** Forgets emptying the WAL while no worker runs: none starts until they are done. */
  let holds = 0;
  const begin = () => {
    if (running || closed || holds > 0 || !store.db.open) return;
    running = runCheckpoints(store, opts);
  };
  const kick = () => {
    if (running) running.kick();
    else if (grown()) begin();
  };
  store.onCommit(kick);
  store.holdCheckpoints(async () => {
    if (running) return running.hold();
    holds += 1;
    return () => {
      holds -= 1;
    };
  });
  kick();
  return {
    kick,
    async close() {
      closed = true;
      await running?.close();
    },
  };
}

interface RunningCheckpoints extends BackgroundCheckpoints {
  /** Keeps checkpoints off until the release it resolves to is called (store.holdCheckpoints). */
  hold(): Promise<() => void>;
}

/** The worker, started now, and what the store's hooks call while it runs. */
function runCheckpoints(store: Store, opts: BackgroundCheckpointOptions): RunningCheckpoints {
  const intervalMs = opts.intervalMs ?? 200;
  const worker = new Worker(opts.workerUrl ?? new URL('./checkpoint-worker.mjs', import.meta.url), {
    workerData: {
      file: store.file,
      // The cipher the store was opened with: a store made before AEGIS keeps ChaCha20.
      keyPragmas: keyPragmas(opts.key, cipherOf(store.db) ?? undefined),
      nativeBinding: nativeBindingPath(),
    },
  });
  // The engine closes it; it must not keep a process alive that has nothing else to do.
  worker.unref();
  let ready = false;
  let closed = false;
  let timer: NodeJS.Timeout | null = null;
  let inFlight: { done: () => void } | null = null;
  /** Committed since the checkpoint in flight began: it may not have taken that. */
  let dirty = false;
  // The worker's first read, which proves the key, holds a snapshot as a checkpoint in flight does:
  // a forget emptying the WAL meanwhile would find it busy. Until the worker answers, it counts as one.
  let started!: () => void;
  let settled = new Promise<void>((resolve) => (started = resolve));
  /** Forgets emptying the WAL themselves now: the worker waits for them. */
  let holds = 0;
  let failed = false;
  /**
   * A checkpoint failed on a full or failing disk: the store checkpoints on its own (as when the worker
   * failed) until its next commit, the sign that the disk takes writes again, and the worker's next
   * checkpoint then says whether it does. `said`: the pause was reported and its end is not yet.
   */
  let paused = false;
  let pauseSaid = false;

  const toTheStore = () => {
    ready = false;
    if (store.db.open) store.db.pragma(`wal_autocheckpoint = ${autocheckpointPages}`);
  };
  const toTheWorker = () => {
    if (!store.db.open) return;
    store.db.pragma(`wal_autocheckpoint = ${backstopPages}`);
    store.db.pragma(`journal_size_limit = ${walSizeLimit}`);
    ready = true;
  };

  const fallBack = (message: string) => {
    started();
    toTheStore();
    if (!closed && !failed) opts.onError?.(message);
    failed = true;
  };

  const pause = (message: string) => {
    toTheStore();
    paused = true;
    if (!closed && !pauseSaid) opts.onError?.(message);
    pauseSaid = true;
  };

  const run = () => {
    timer = null;
    if (!ready || closed || !store.db.open) return;
    if (holds > 0) {
      dirty = true;
      return;
    }
    let done!: () => void;
    settled = new Promise<void>((resolve) => (done = resolve));
    inFlight = { done };
    dirty = false;
    worker.postMessage({ type: 'checkpoint' });
  };

  const kick = () => {
    if (paused && !failed && !closed) {
      // A commit went through: the disk takes writes again, and so may the worker's checkpoint.
      paused = false;
      toTheWorker();
    }
    if (inFlight || holds > 0) dirty = true;
    if (!ready || closed || timer || inFlight || holds > 0) return;
    timer = setTimeout(run, intervalMs);
    timer.unref();
  };

  worker.on('message', (m: Reply) => {
    if (m.type === 'ready') {
      started();
      if (closed || !store.db.open) return;
      toTheWorker();
      kick();
    } else if (m.type === 'failed') {
      fallBack(`background checkpoints are off: ${m.message}`);
    } else if (m.type === 'closed') {
      connectionClosed();
    } else {
      const flight = inFlight;
      inFlight = null;
      flight?.done();
      if (m.error && storeFailure({ code: m.code })) {
        pause(
          `background checkpoints are paused: ${m.error}; the store checkpoints on its own until a ` +
            'write succeeds again, then they resume',
        );
        return;
      }
      if (m.error) {
        fallBack(`background checkpoints are off: ${m.error}`);
        return;
      }
      if (pauseSaid && !paused) {
        pauseSaid = false;
        opts.onResumed?.('background checkpoints are on again: the disk takes writes');
      }
      // Written since it began, held back by a reader or by a forget's own checkpoint: once more.
      const behind = m.busy === true || m.checkpointed < m.log;
      if (!closed && store.db.open && (behind || dirty)) kick();
    }
  });
  worker.on('error', (e) => fallBack(`background checkpoints are off: ${String(e)}`));
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  let connectionClosed!: () => void;
  /** The worker's connection is closed (or the worker is gone): the thread's own teardown is not awaited. */
  const released = Promise.race([new Promise<void>((resolve) => (connectionClosed = resolve)), exited]);
  void exited.then(() => {
    started();
    inFlight?.done();
    inFlight = null;
    if (!closed) fallBack('background checkpoints are off: their worker stopped');
  });

  return {
    kick,
    async hold() {
      holds += 1;
      if (timer) clearTimeout(timer);
      timer = null;
      await settled;
      return () => {
        holds -= 1;
        if (holds === 0 && dirty) kick();
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
      // Held until it has closed its connection: the store's own close must be the last one.
      worker.ref();
      await settled;
      worker.postMessage({ type: 'close' });
      await released;
      // Its thread ends by itself, and keeps no process alive meanwhile.
      worker.unref();
      // The store closes with a checkpoint of its own; anything written until then is taken by it.
    },
  };
}
