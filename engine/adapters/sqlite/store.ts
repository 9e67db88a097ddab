import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Statement } from 'better-sqlite3-multiple-ciphers';
import { migrate } from './migrate.ts';
import { openDatabase, type Db } from './open-database.ts';
import { foldText } from '../../core/shared/fold-text.ts';

export type SqlParam = string | number | bigint | Buffer | null;

/** The opened, migrated store: cached statements, transactions, the per-Brain sequence. */
export interface Store {
  readonly db: Db;
  readonly file: string;
  run(sql: string, ...params: SqlParam[]): { changes: number };
  get<T>(sql: string, ...params: SqlParam[]): T | undefined;
  all<T>(sql: string, ...params: SqlParam[]): T[];
  /** Runs fn in a transaction (a savepoint when nested); throws roll it back whole. */
  tx<T>(fn: () => T): T;
  /** Advances and returns the Brain's transaction sequence (call inside the write's transaction). */
  nextSeq(brainUid: string): number;
  currentSeq(brainUid: string): number;
  /** Secret for signing watermarks, created with the store and kept inside it (encrypted). */
  readonly watermarkSecret: Buffer;
  /** Moves the WAL into the main file and truncates it, so deleted bytes do not linger in the WAL. */
  /** true when the WAL was emptied now; else it is tried again until it can be. */
  checkpoint(): boolean;
  close(): void;
}

export interface OpenStoreOptions {
  dataDir: string;
  key: string | Buffer | null;
  durability?: 'full' | 'normal';
}

export const storeFileName = 'mnemo.db';

/** Opens the encrypted store in dataDir, migrating it to the newest schema. */
export function openStore(opts: OpenStoreOptions): Store {
  const file = join(opts.dataDir, storeFileName);
  const db = openDatabase({ file, key: opts.key, durability: opts.durability ?? 'full' });
  try {
    migrate(db);
  } catch (e) {
    db.close();
    throw e;
  }
  // Searches of Memories compare folded text (foldText: Unicode case and accents, which SQL cannot):
  // mnemo_has_words(text, words) is 1 when every word (folded, NUL-separated) occurs in the folded
  // text, which is folded once per row whatever the number of words.
  db.function('mnemo_has_words', { deterministic: true }, (text: unknown, words: unknown) => {
    if (typeof text !== 'string' || typeof words !== 'string') return 0;
    const folded = foldText(text);
    return words.split('\u0000').every((w) => folded.includes(w)) ? 1 : 0;
  });
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
  /**
   * Moves the WAL into the main file and empties it, so forgotten bytes leave the log. A reader holding
   * an older snapshot (a `mnemo backup` running, another process) keeps the log from being emptied:
   * then it is tried again each second until it can be, rather than waited for on the event loop
   * (busy_timeout would hold every request for up to 5 s).
   */
  let retry: NodeJS.Timeout | null = null;
  const checkpoint = (): boolean => {
    if (!db.open) return false;
    db.pragma('busy_timeout = 0');
    let emptied: boolean;
    try {
      const [r] = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
      emptied = r?.busy === 0;
    } catch (e) {
      if (!(e as { code?: string }).code?.startsWith('SQLITE_BUSY')) throw e;
      emptied = false;
    } finally {
      db.pragma('busy_timeout = 5000');
    }
    if (!emptied && !retry) {
      retry = setTimeout(() => {
        retry = null;
        checkpoint();
      }, 1000);
      retry.unref();
    }
    return emptied;
  };
  // One transaction function for every tx: db.transaction() builds four wrappers and their properties
  // per call, a cost paid by each write and batch. The wrapper only runs what it is given, so nesting
  // (a savepoint) and rollback are as before.
  const inTx = db.transaction((fn: () => unknown) => fn());
  return {
    db,
    file,
    run: (sql, ...params) => prep(sql).run(...params),
    get: <T>(sql: string, ...params: SqlParam[]) => prep(sql).get(...params) as T | undefined,
    all: <T>(sql: string, ...params: SqlParam[]) => prep(sql).all(...params) as T[],
    tx: <T>(fn: () => T) => inTx(fn) as T,
    nextSeq: (brainUid) => {
      const row = prep('UPDATE brains SET seq = seq + 1 WHERE uid = ? RETURNING seq').get(brainUid) as
        { seq: number } | undefined;
      if (!row) throw new Error(`no brain ${brainUid}`);
      return row.seq;
    },
    currentSeq: (brainUid) =>
      (prep('SELECT seq FROM brains WHERE uid = ?').get(brainUid) as { seq: number }).seq,
    watermarkSecret: Buffer.from(secretHex, 'hex'),
    checkpoint,
    close: () => {
      if (retry) clearTimeout(retry);
      retry = null;
      if (db.open) {
        db.pragma('wal_checkpoint(TRUNCATE)');
        db.close();
      }
    },
  };
}
