import { speakersByFirstName } from '../../core/derive/speakers-by-first-name.ts';
import type {
  BrainRepository,
  DeviceSyncStore,
  IndexQueue,
  JobQueue,
  LexicalIndex,
  SlotIndex,
  ThreadIndex,
  UpgradeList,
} from '../../ports/index.ts';
import { startBackgroundCheckpoints, type BackgroundCheckpoints } from './background-checkpoints.ts';
import { leftDraftLine, removeDeadDrafts } from './backup-drafts.ts';
import { sqliteBrains } from './brain-repository.ts';
import { lockDataDir, type DataDirLock } from './data-dir-lock.ts';
import { storeOpenFailure } from './open-failure.ts';
import { sqliteUpgradeList } from './derivation-upgrade.ts';
import { sqliteDeviceSync } from './device-sync.ts';
import { sqliteIndexQueue } from './index-queue.ts';
import { sqliteJobQueue } from './job-queue.ts';
import { createSqliteLexicalIndex } from './lexical-index.ts';
import { createSqliteSlotIndex } from './slot-index.ts';
import { openStore } from './store.ts';
import { createSqliteThreadIndex } from './thread-index.ts';
import { createTurnCopies, type TurnCopies } from './turn-copies.ts';
import { sqliteUnits, type SqliteUnits } from './unit-of-work.ts';
import { createSqliteVectorIndex, type SqliteVectorIndex } from './vector-index.ts';
import { createWalSync, noWalSync, type WalSync } from './wal-sync.ts';

export interface LocalStorageOptions {
  /** Directory of the store (mnemo.db and its WAL). The key never lives here. */
  dataDir: string;
  /** Database key. null = unencrypted, for diagnostics and secure-delete tests only. */
  key: string | Buffer | null;
  /** 'full' (default): every acknowledged write survives power loss; 'normal': process crashes only. */
  durability?: 'full' | 'normal' | undefined;
  /** Dates a vector model's registration. */
  now: () => string;
  warn(message: string, fields?: Record<string, unknown>): void;
  info(message: string): void;
}

/**
 * The local engine's storage: one encrypted SQLite file in a locked data dir, and every port over it.
 * The ports and their in-memory copies are this object's own (two engines never share one); the
 * store itself stays inside the adapter.
 */
export interface SqliteLocalStorage {
  brains: BrainRepository;
  jobs: JobQueue;
  units: SqliteUnits;
  lexical: LexicalIndex;
  slots: SlotIndex;
  threads: ThreadIndex;
  vectors: SqliteVectorIndex;
  /** The in-memory copy of turn_fts the lexical index answers from. */
  turns: Pick<TurnCopies, 'usage'>;
  /** The retrieval indexer's queue. */
  indexQueue: IndexQueue;
  /** The Records the derivation upgrade derives again. */
  upgradeList: UpgradeList;
  /** Device sync's rows. */
  device: DeviceSyncStore;
  readonly watermarkSecret: Buffer;
  /** Once a forget committed: the WAL lets go of the bytes it still holds. */
  emptyLog(): Promise<unknown>;
  /**
   * Runs `fn` between units of work: at once when none is open, else after it; only its synchronous
   * part, which thus neither joins nor reads into a unit.
   */
  between<T>(fn: () => T): Promise<T>;
  /**
   * Starts what runs beside the engine: commits synced off the event loop (durability 'full') and
   * checkpoints on another thread. `settled()` resolves once every commit so far is on disk.
   */
  startBackground(): WalSync;
  /** Commits the write units already accepted. */
  flushBatches(): Promise<void>;
  /** Stops the background, closes the store and gives back the data dir's lock. */
  close(): Promise<void>;
  /** On a failed start, before startBackground: closes the store and gives back the lock. */
  abandon(): void;
}

/** Locks the data dir and opens the store in it; a failure leaves neither held. */
export function openLocalStorage(o: LocalStorageOptions): SqliteLocalStorage {
  // Before the store opens: a second engine on this data dir is refused, not left to race this one.
  let lock: DataDirLock;
  try {
    lock = lockDataDir(o.dataDir);
  } catch (e) {
    throw storeOpenFailure(e, o.dataDir);
  }
  // Copies of the store a backup or restore killed midway left (backup-drafts.ts).
  for (const left of removeDeadDrafts(o.dataDir)) o.warn(leftDraftLine(left));
  let store: ReturnType<typeof openStore>;
  try {
    store = openStore({
      dataDir: o.dataDir,
      key: o.key,
      durability: o.durability,
      onLogKept: (message) => o.warn(message),
      onLogEmptied: (message) => o.info(message),
    });
  } catch (e) {
    lock.release();
    throw storeOpenFailure(e, o.dataDir);
  }
  const closeStore = () => {
    try {
      store.close();
    } finally {
      lock.release();
    }
  };
  try {
    const jobs = sqliteJobQueue(store);
    // One list for derivation and the entity lane: each would read every message of a Brain once.
    const speakers = speakersByFirstName();
    const vectors = createSqliteVectorIndex(store, { now: o.now });
    const turns = createTurnCopies(store, {
      onError: (message, e) => o.warn(message, e === undefined ? undefined : { error: String(e) }),
    });
    let checkpoints: BackgroundCheckpoints | null = null;
    let durable: WalSync | null = null;
    return {
      brains: sqliteBrains(store),
      jobs,
      units: sqliteUnits(store, jobs, speakers),
      // The lexical index answers from the indexer's in-memory copy.
      lexical: createSqliteLexicalIndex(store, turns),
      slots: createSqliteSlotIndex(store),
      threads: createSqliteThreadIndex(store, speakers),
      vectors,
      turns,
      indexQueue: sqliteIndexQueue(store, { vectors, turns }),
      upgradeList: sqliteUpgradeList(store),
      device: sqliteDeviceSync(store),
      watermarkSecret: store.watermarkSecret,
      emptyLog: () => store.emptyLog(),
      between: (fn) => store.exclusive(fn),
      startBackground() {
        durable = o.durability === 'normal' ? noWalSync : createWalSync(store);
        // The WAL is copied into the main file on another thread, not inside the commits requests wait for.
        checkpoints = startBackgroundCheckpoints(store, {
          key: o.key,
          onError: (message) => o.warn(message),
          onResumed: (message) => o.info(message),
        });
        return durable;
      },
      flushBatches: () => store.flushBatches(),
      async close() {
        await checkpoints?.close();
        closeStore();
        await durable?.close();
      },
      abandon: closeStore,
    };
  } catch (e) {
    closeStore();
    throw storeOpenFailure(e, o.dataDir);
  }
}
