import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { Statement } from 'better-sqlite3-multiple-ciphers';
import { migrate } from './migrate.ts';
import { diskFailure } from './store-failure.ts';
import { storeFileName } from './store-file-name.ts';
import { openDatabase, type Db } from './open-database.ts';
import { createStoreMutex } from './store-mutex.ts';
import { createWriteBatches } from './write-batches.ts';
import { foldText } from '../../core/shared/fold-text.ts';

export type SqlParam = string | number | bigint | Buffer | null;

/** The opened, migrated store: cached statements, transactions, the per-Brain sequence. */
export interface Store {
  readonly db: Db;
  readonly file: string;
  run(sql: string, ...params: SqlParam[]): { changes: number; lastInsertRowid: number | bigint };
  get<T>(sql: string, ...params: SqlParam[]): T | undefined;
  all<T>(sql: string, ...params: SqlParam[]): T[];
  /**
   * Runs fn in a transaction (a savepoint when nested); throws roll it back whole. Refused while a
   * unit of work is open, unless called from inside it: it would join that unit and share its fate.
   */
  tx<T>(fn: () => T): T;
  /**
   * Runs fn (synchronous, usually a `tx`) holding the store's lock: at once when no unit of work holds
   * it, else after the units queued before it. Writers that start on their own go through here.
   */
  exclusive<T>(fn: () => T): Promise<T>;
  /**
   * Runs `work` in one transaction held across its awaits, one at a time on the store: `BEGIN
   * IMMEDIATE` (a read: `BEGIN`), then `COMMIT` when it resolves, `ROLLBACK` when it rejects. While it
   * is open, writes from outside it are refused, and a unit opened inside it is refused too (it would
   * wait for its own end). unit-of-work.ts builds the ports over it.
   *
   * A write unit that asks to `batch` shares its transaction with the other such units that arrive in
   * the same turn of the event loop, each in a savepoint of its own (write-batches.ts): it is rolled
   * back alone when it rejects, and resolves only once the shared transaction has committed.
   */
  unit<T>(mode: 'write' | 'read', work: () => Promise<T>, opts?: { batch?: boolean }): Promise<T>;
  /** Runs the batched write units waiting now, and resolves once they are committed (before close). */
  flushBatches(): Promise<void>;
  /** Advances and returns the Brain's transaction sequence (call inside the write's transaction). */
  nextSeq(brainUid: string): number;
  currentSeq(brainUid: string): number;
  /** Secret for signing watermarks, created with the store and kept inside it (encrypted). */
  readonly watermarkSecret: Buffer;
  /** Secret of this device's sync (its pseudonyms), kept inside the store; a restore keeps it. */
  readonly deviceSecret: Buffer;
  /**
   * Moves the WAL into the main file and truncates it, so deleted bytes do not linger in the WAL: true
   * when the WAL was emptied now; else (a reader holds the log, a unit of work is open, the disk is
   * full or failing) it is tried again each second until it can be, and never throws for those: the
   * forget that asked has committed and is answered. After an await, call it through `exclusive`, so
   * it runs between units of work rather than inside one.
   */
  checkpoint(): boolean;
  /** Calls `listener` after each commit of this connection's writes (a transaction, or a write alone). */
  onCommit(listener: () => void): void;
  /**
   * Empties the WAL as `checkpoint` does, between units of work (`exclusive`), once another
   * connection's checkpoint in flight has ended: what a forget calls before it answers.
   */
  emptyLog(): Promise<boolean>;
  /** `hold` keeps a background checkpointer off until the release it resolves to is called. */
  holdCheckpoints(hold: () => Promise<() => void>): void;
  close(): void;
}

export interface OpenStoreOptions {
  dataDir: string;
  key: string | Buffer | null;
  durability?: 'full' | 'normal';
  /** Batched write units in one transaction at most (write-batches.ts). */
  maxBatch?: number;
  /**
   * A checkpoint could not empty the WAL for a full or failing disk, so what forgets erased stays in
   * the log until one can (said once until then); `onLogEmptied`: one did, after that.
   */
  onLogKept?: (message: string) => void;
  onLogEmptied?: (message: string) => void;
}

export { storeFileName };

/** Opens the encrypted store in dataDir, migrating it to the newest schema. */
export function openStore(opts: OpenStoreOptions): Store {
  const file = join(opts.dataDir, storeFileName);
  // A WAL left by a process that could not empty it (stopped while the disk was full, or killed) may
  // hold what a forget erased: it is emptied once this store is open.
  const leftLog = (statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0) > 0;
  const db = openDatabase({ file, key: opts.key, durability: opts.durability ?? 'full' });
  try {
    migrate(db);
  } catch (e) {
    db.close();
    throw e;
  }
  // Searches of Memories and Records compare folded text (foldText: Unicode case and accents, which
  // SQL cannot): mnemo_has_words(text, words, name, name) is 1 when every word (folded, NUL-separated)
  // occurs in the folded text or in one of the two names beside it (whom a Memory is about and whose
  // it is, a Record's speaker and title; null for none). The text is folded once per row whatever the
  // number of words; a name only when a word is not in the text, and once for many rows (a Brain's
  // Memories name a few people many times each).
  const foldedNames = new Map<string, string>();
  const inName = (name: unknown, word: string) => {
    if (typeof name !== 'string') return false;
    let folded = foldedNames.get(name);
    if (folded === undefined) {
      if (foldedNames.size >= 4096) foldedNames.clear();
      folded = foldText(name);
      foldedNames.set(name, folded);
    }
    return folded.includes(word);
  };
  db.function(
    'mnemo_has_words',
    { deterministic: true },
    (text: unknown, words: unknown, name: unknown, other: unknown) => {
      if (typeof text !== 'string' || typeof words !== 'string') return 0;
      const folded = foldText(text);
      for (const w of words.split('\u0000'))
        if (!folded.includes(w) && !inName(name, w) && !inName(other, w)) return 0;
      return 1;
    },
  );
  // Names compared as people read them: Unicode's lower case, where lower() and NOCASE fold ASCII
  // alone ("ZOË" is "Zoë"). PostgreSQL's twin is lower(x COLLATE "und-x-icu").
  db.function('mnemo_lower', { deterministic: true }, (text: unknown) =>
    typeof text === 'string' ? text.toLowerCase() : null,
  );
  const cache = new Map<string, Statement>();
  const prep = (sql: string): Statement => {
    let s = cache.get(sql);
    if (!s) {
      s = db.prepare(sql);
      cache.set(sql, s);
    }
    return s;
  };
  db.prepare('INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)').run(
    'watermark_secret',
    randomBytes(32).toString('hex'),
  );
  const secretHex = (
    db.prepare('SELECT value FROM meta WHERE key = ?').get('watermark_secret') as { value: string }
  ).value;
  // Device sync keys its pseudonyms by this. A restore gives the store a new watermark secret, as it
  // must, and a person's pseudonym on the hub changed with it: one person became two. First set to
  // the watermark secret, which keyed them before, so the pseudonyms already sent stay as they were.
  db.prepare('INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)').run('device_secret', secretHex);
  const deviceHex = (
    db.prepare('SELECT value FROM meta WHERE key = ?').get('device_secret') as { value: string }
  ).value;
  /**
   * Moves the WAL into the main file and empties it, so forgotten bytes leave the log. A reader holding
   * an older snapshot (a `mnemo backup` running, another process) keeps the log from being emptied:
   * then it is tried again each second until it can be, rather than waited for on the event loop
   * (busy_timeout would hold every request for up to 5 s).
   */
  let retry: NodeJS.Timeout | null = null;
  /** The disk kept the WAL from being emptied, and that was said: the next success is said too. */
  let keptSaid = false;
  const checkpoint = (): boolean => {
    if (!db.open) return false;
    let emptied = false;
    // Inside a transaction (a unit of work open on the connection) a checkpoint fails with
    // SQLITE_LOCKED: it is tried again later, as for a reader holding an old snapshot.
    if (open === null && !db.inTransaction) {
      db.pragma('busy_timeout = 0');
      try {
        const [r] = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
        emptied = r?.busy === 0;
      } catch (e) {
        const code = (e as { code?: string }).code ?? '';
        if (diskFailure(code)) {
          // Thrown, it would fail a forget whose deletion has committed: the caller, told 503, would
          // retry and be told record_not_found, never learning that the first one took effect.
          if (!keptSaid)
            opts.onLogKept?.(
              `a checkpoint could not empty the store's write-ahead log (${code}: ${(e as Error).message}): ` +
                `what was forgotten stays in ${file}-wal until one can; it is tried again each second`,
            );
          keptSaid = true;
        } else if (!code.startsWith('SQLITE_BUSY') && !code.startsWith('SQLITE_LOCKED')) throw e;
      } finally {
        db.pragma('busy_timeout = 5000');
      }
    }
    if (emptied && keptSaid) {
      keptSaid = false;
      opts.onLogEmptied?.("the store's write-ahead log is emptied: what was forgotten has left it");
    }
    if (!emptied) tryAgain();
    return emptied;
  };
  const tryAgain = () => {
    if (retry) return;
    retry = setTimeout(() => {
      retry = null;
      try {
        checkpoint();
      } catch {
        // Anything else thrown here on a timer would end the process: the log is emptied at a later
        // try, or by the store's next checkpoint.
        tryAgain();
      }
    }, 1000);
    retry.unref();
  };
  // One transaction function for every tx: db.transaction() builds four wrappers and their properties
  // per call, a cost paid by each write and batch. The wrapper only runs what it is given, so nesting
  // (a savepoint) and rollback are as before.
  const inTx = db.transaction((fn: () => unknown) => fn());

  // The unit of work open now, and which async context is its own (AsyncLocalStorage, enabled only
  // while a unit is open: its promise hooks would slow every await of the process otherwise).
  const mutex = createStoreMutex();
  const units = new AsyncLocalStorage<{ mode: 'write' | 'read' }>();
  let open: { mode: 'write' | 'read' } | null = null;
  const mayWrite = () => {
    if (open === null) return;
    if (units.getStore() !== open)
      throw new Error(
        'store: a write outside the open unit of work would join it; queue behind it with store.exclusive',
      );
    if (open.mode === 'read') throw new Error('store: a read unit of work cannot write');
  };
  const refuseNested = () => {
    if (open !== null && units.getStore() === open)
      throw new Error('store: a unit of work cannot open inside another (it would wait for its own end)');
  };
  const commitListeners: Array<() => void> = [];
  let hold: (() => Promise<() => void>) | null = null;
  const committed = () => {
    for (const l of commitListeners) l();
  };
  const batches = createWriteBatches({
    db,
    committed,
    acquire: () => mutex.acquire(),
    open: () => {
      const me = { mode: 'write' as const };
      open = me;
      return <T>(work: () => Promise<T>) => units.run(me, work);
    },
    close: () => {
      open = null;
      units.disable();
    },
    maxBatch: opts.maxBatch,
  });
  const unit = async <T>(
    mode: 'write' | 'read',
    work: () => Promise<T>,
    unitOpts?: { batch?: boolean },
  ): Promise<T> => {
    refuseNested();
    if (mode === 'write' && unitOpts?.batch) return batches.run(work);
    const release = await mutex.acquire();
    const me = { mode };
    try {
      db.exec(mode === 'write' ? 'BEGIN IMMEDIATE' : 'BEGIN');
      open = me;
      let out: T;
      try {
        out = await units.run(me, work);
        db.exec('COMMIT');
        if (mode === 'write') committed();
      } catch (e) {
        // A COMMIT that failed can leave the transaction open, as can work that threw.
        if (db.inTransaction) db.exec('ROLLBACK');
        throw e;
      }
      return out;
    } finally {
      open = null;
      units.disable();
      release();
    }
  };
  const store: Store = {
    db,
    file,
    run: (sql, ...params) => {
      if (open !== null) mayWrite();
      const out = prep(sql).run(...params);
      if (!db.inTransaction) committed();
      return out;
    },
    // A statement that writes and returns rows (INSERT ... RETURNING) is a write too.
    get: <T>(sql: string, ...params: SqlParam[]) => {
      const statement = prep(sql);
      if (open !== null && !statement.readonly) mayWrite();
      return statement.get(...params) as T | undefined;
    },
    all: <T>(sql: string, ...params: SqlParam[]) => {
      const statement = prep(sql);
      if (open !== null && !statement.readonly) mayWrite();
      return statement.all(...params) as T[];
    },
    tx: <T>(fn: () => T) => {
      if (open !== null) mayWrite();
      const outermost = !db.inTransaction;
      const out = inTx(fn) as T;
      if (outermost) committed();
      return out;
    },
    exclusive: (fn) => mutex.runSync(fn),
    unit,
    flushBatches: () => batches.flush(),
    nextSeq: (brainUid) => {
      if (open !== null) mayWrite();
      const row = prep('UPDATE brains SET seq = seq + 1 WHERE uid = ? RETURNING seq').get(brainUid) as
        { seq: number } | undefined;
      if (!row) throw new Error(`no brain ${brainUid}`);
      return row.seq;
    },
    currentSeq: (brainUid) =>
      (prep('SELECT seq FROM brains WHERE uid = ?').get(brainUid) as { seq: number }).seq,
    watermarkSecret: Buffer.from(secretHex, 'hex'),
    deviceSecret: Buffer.from(deviceHex, 'hex'),
    checkpoint,
    onCommit: (listener) => void commitListeners.push(listener),
    holdCheckpoints: (h) => void (hold = h),
    emptyLog: async () => {
      const release = hold ? await hold() : null;
      try {
        return await mutex.runSync(checkpoint);
      } finally {
        release?.();
      }
    },
    close: () => {
      if (retry) clearTimeout(retry);
      retry = null;
      if (!db.open) return;
      try {
        db.pragma('wal_checkpoint(TRUNCATE)');
      } catch (e) {
        // On a full or failing disk the log cannot be copied back; it holds every commit, and the next
        // open reads them from it, then empties it. The connection is closed all the same, and the
        // close is a clean one.
        const code = String((e as { code?: unknown } | null)?.code ?? '');
        if (!diskFailure(code)) {
          db.close();
          throw e;
        }
      }
      db.close();
    },
  };
  // A log the disk or a reader keeps is tried again by checkpoint() itself. Anything else it meets (a
  // damaged log) is the requests' to meet and answer as a damaged store's (store_unavailable): an open
  // that threw here would leave the connection open and serve nothing.
  if (leftLog) {
    try {
      checkpoint();
    } catch {
      // Left to the requests, as above.
    }
  }
  return store;
}
