import type Database from 'better-sqlite3-multiple-ciphers';
import { newDatabase } from './sqlite-binding.ts';
import { loadVectorExtension } from './vector-extension.ts';
import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { keepTempDataInMemory } from './temp-store.ts';

export type Db = Database.Database;

export interface OpenDatabaseOptions {
  file: string;
  /**
   * The database key. null opens the file unencrypted: only for diagnostics and the tests that prove
   * secure deletion on plaintext bytes; the engine's callers always pass a key.
   */
  key: string | Buffer | null;
  /** 'full' (default) fsyncs the WAL on every commit; 'normal' survives process crashes only. */
  durability?: 'full' | 'normal';
}

/**
 * Opens (creating if needed) the store's SQLite file with the connection settings the engine relies
 * on: authenticated page encryption (storeCiphers), temporary data in memory (temp-store.ts), WAL,
 * synchronous=FULL, foreign keys, secure_delete.
 * A wrong key is a startup error with a clear message, never a silent empty store.
 */
export function openDatabase(opts: OpenDatabaseOptions): Db {
  mkdirSync(dirname(opts.file), { recursive: true, mode: 0o700 });
  const fresh = !existsSync(opts.file);
  const db = newDatabase(opts.file);
  // Owner-only, like the key file: SQLite gives the WAL and shm files the main file's mode.
  if (fresh && process.platform !== 'win32') chmodSync(opts.file, 0o600);
  try {
    unlockDatabase(db, opts.file, opts.key);
    db.pragma('journal_mode = WAL');
    // FULL in WAL mode fsyncs the WAL at every commit: an acknowledged write survives a process crash
    // and, on hardware that honours fsync, a power loss too. NORMAL would survive process crashes only.
    // The local engine commits with NORMAL and syncs the WAL itself, off the event loop, before it
    // answers (wal-sync.ts).
    db.pragma(`synchronous = ${opts.durability === 'normal' ? 'NORMAL' : 'FULL'}`);
    db.pragma('foreign_keys = ON');
    db.pragma('secure_delete = ON');
    db.pragma('busy_timeout = 5000');
    // Vector tables (vector-index.ts) and their delete triggers need sqlite-vec on every
    // connection. Pages are decrypted on every read, so what a Context reads should stay cached; the
    // vectors are searched in memory (vector-index.ts), not paged, so the rows and indexes a Context
    // reads are what the cache holds: a 64 MB ceiling (used only as pages are read; 256 MB when vec0
    // scanned the vectors, a quarter of the process's memory at 100k Records: docs/decisions/memory-and-writes.md).
    loadVectorExtension(db);
    db.pragma('cache_size = -65536');
    return db;
  } catch (e) {
    db.close();
    throw e;
  }
}

/**
 * The page ciphers a store may use, the one new stores are made with first; a store made with an
 * older one keeps it and is opened with it. Both authenticate every page, so tampering or a wrong key
 * is an error rather than garbage read as data. AEGIS-256 runs on the AES instructions every x86-64
 * and ARMv8 desktop processor has: a page read from the file costs ~1 µs over plaintext against ~10
 * for ChaCha20-Poly1305, and a Context over a large Brain reads hundreds of pages the cache does not
 * hold (docs/decisions/local-engine.md). Stores made before it use `chacha20` (the sqleet scheme).
 */
export const storeCiphers = ['aegis', 'chacha20'] as const;
export type StoreCipher = (typeof storeCiphers)[number];

/**
 * The pragmas that give a connection the store's key with `cipher`, in order; none for an unencrypted
 * file. A string key goes through the cipher's key derivation (Argon2id for AEGIS, PBKDF2 for
 * ChaCha20), a Buffer is given as hex.
 */
export function keyPragmas(key: string | Buffer | null, cipher: StoreCipher = storeCiphers[0]): string[] {
  if (key === null) return [];
  if (key.length === 0) throw new Error('the database key is empty');
  return [
    `cipher='${cipher}'`,
    typeof key === 'string' ? `key='${key.replaceAll("'", "''")}'` : `hexkey='${key.toString('hex')}'`,
  ];
}

const unlockedWith = new WeakMap<Db, StoreCipher | null>();

/** The cipher unlockDatabase opened a connection's store with (null: unencrypted), for its other connections. */
export function cipherOf(db: Db): StoreCipher | null {
  return unlockedWith.get(db) ?? null;
}

/**
 * A store file opened to be read only, with the store's key (a read transaction of its own, as a
 * backup's, also while a server has the store open). `vectors` loads sqlite-vec, which reading or
 * copying the vector tables needs.
 */
export function openStoreReadOnly(file: string, key: string | Buffer, o: { vectors: boolean }): Db {
  const db = newDatabase(file, { readonly: true, fileMustExist: true });
  try {
    unlockDatabase(db, file, key);
    if (o.vectors) loadVectorExtension(db);
    return db;
  } catch (e) {
    db.close();
    throw e;
  }
}

/**
 * Gives a connection the store's key and proves it with a first read (temporary data in memory). A new
 * (empty) file gets the first of storeCiphers; an existing one is tried with each, newest first, and
 * answers with the one its pages were written with. A wrong key is a clear error, never a silent
 * empty store.
 */
export function unlockDatabase(db: Db, file: string, key: string | Buffer | null): StoreCipher | null {
  const fresh = !existsSync(file) || statSync(file).size === 0;
  const tried = key === null || fresh ? [storeCiphers[0]] : storeCiphers;
  for (const cipher of tried) {
    for (const pragma of keyPragmas(key, cipher)) db.pragma(pragma);
    // Before anything sorts or journals: temporary files are never encrypted.
    keepTempDataInMemory(db);
    if (readsPageOne(db)) {
      const opened = key === null ? null : cipher;
      unlockedWith.set(db, opened);
      return opened;
    }
  }
  throw new Error(
    `cannot open the Mnemo database ${file}: the database key is wrong (or the file is not a ` +
      'Mnemo database). Use the key it was created with (MNEMO_DB_KEY, --db-key-file or the key file ' +
      'in the config directory); refusing it rather than showing an empty store.',
  );
}

/** The first read decrypts page 1: false when the key or the cipher is wrong, or the file is not a store. */
function readsPageOne(db: Db): boolean {
  try {
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    return true;
  } catch (e) {
    if ((e as { code?: string }).code === 'SQLITE_NOTADB') return false;
    throw e;
  }
}
