import { open, type FileHandle } from 'node:fs/promises';
import type { Store } from './store.ts';

/**
 * Group commit across turns of the event loop. With synchronous=FULL every commit fsyncs the WAL on the
 * event loop: nothing else runs meanwhile, so writes that arrive during one fsync wait for it and then
 * pay one of their own, and the fsync, not the work, sets the write rate. The store's connection
 * commits with synchronous=NORMAL instead (atomic, and safe against a process crash: the frames are in
 * the OS's cache), and `settled()` fsyncs the WAL off the event loop (libuv's thread pool): every
 * commit since the last fsync is made durable by the next one, however many there were, while requests
 * keep arriving and committing.
 *
 * The engine answers no request before `settled()` has resolved: a write is acknowledged, and a read
 * shows what it read, only once it is on disk, as with FULL. A power loss can only lose commits nobody
 * was told of (WAL recovery keeps a prefix of the log, so derivation never outlives its Records).
 */
export interface WalSync {
  /** Resolves once every commit made so far is on disk. */
  settled(): Promise<void>;
  /** After the store has closed: lets go of the file it synced. */
  close(): Promise<void>;
}

/**
 * The store's log could not be made durable: every request after it is refused until the store is
 * opened again, which recovers it from what is on disk.
 */
export class WalSyncFailedError extends Error {
  readonly code = 'MNEMO_WAL_SYNC_FAILED';
  constructor(cause: unknown) {
    super(
      `the store's log could not be synced to disk (${(cause as Error).message}): writes since the last ` +
        'sync may not be on disk, so the store takes no more requests until it is opened again',
    );
    this.name = 'WalSyncFailedError';
    this.cause = cause;
  }
}

/** For stores opened with durability 'normal' (process crashes only): nothing to wait for. */
export const noWalSync: WalSync = { settled: () => Promise.resolve(), close: () => Promise.resolve() };

/** Makes the store's commits so far durable; `close` lets go of what it holds. */
export interface LogSyncer {
  sync(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Switches the store's connection to commits without fsync, synced by `settled()` instead. `syncer`
 * makes the WAL durable (tests count its calls).
 */
export function createWalSync(store: Store, syncer: LogSyncer = logSyncer(store)): WalSync {
  store.db.pragma('synchronous = NORMAL');
  // Rows changed since the connection opened (triggers included): unchanged means nothing to sync.
  const changes = () => store.get<{ c: number }>('SELECT total_changes() AS c')!.c;
  let synced = changes();
  let running: Promise<void> | null = null;
  // After a failed fsync the kernel may have dropped the log's unwritten pages and report the next
  // fsync as a success (PostgreSQL's "fsyncgate"): a later commit would be acknowledged over a hole in
  // the log, and WAL recovery keeps only the prefix before a hole. So nothing is answered after one.
  let failed: WalSyncFailedError | null = null;

  return {
    async settled() {
      if (failed) throw failed;
      // Closing checkpointed the WAL into the main file and synced both.
      if (!store.db.open) return;
      // What was committed when asked; commits made after it wait for a sync of their own.
      const target = changes();
      for (;;) {
        if (failed) throw failed;
        if (!store.db.open || synced >= target) return;
        const now = changes();
        if (!running) {
          running = syncer
            .sync()
            .then(
              () => {
                if (now > synced) synced = now;
              },
              (e: unknown) => {
                failed ??= new WalSyncFailedError(e);
                throw failed;
              },
            )
            .finally(() => (running = null));
        }
        // An fsync already under way may have begun before this commit: wait for it, then look again.
        await running;
      }
    },
    async close() {
      await running?.catch(() => {});
      await syncer.close();
    },
  };
}

/**
 * fsyncs the store's WAL; without one (not in WAL mode) the commits went to the main file. The file
 * stays open from the first sync until the store has closed: an open and a close per sync cost the
 * event loop about as much as the fsync's own call. SQLite keeps a WAL file while any connection to
 * the store is open (a TRUNCATE checkpoint empties the same file) and removes it only with the last
 * one, so the handle is to the file the commits are in for as long as there are commits to sync.
 */
function logSyncer(store: Store): LogSyncer {
  let handle: Promise<FileHandle | null> | null = null;
  const openLog = async (): Promise<FileHandle | null> => {
    for (const file of [`${store.file}-wal`, store.file]) {
      try {
        return await open(file, 'r+');
      } catch (e) {
        if ((e as { code?: string }).code !== 'ENOENT') throw e;
      }
    }
    return null;
  };
  return {
    async sync() {
      // A failed open is not kept: the next sync tries again.
      handle ??= openLog().catch((e: unknown) => {
        handle = null;
        throw e;
      });
      await (await handle)?.sync();
    },
    async close() {
      const h = handle;
      handle = null;
      await (await h?.catch(() => null))?.close();
    },
  };
}
