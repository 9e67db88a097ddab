import type Database from 'better-sqlite3-multiple-ciphers';
import { newDatabase } from './sqlite-binding.ts';
import { loadVectorExtension } from './vector-extension.ts';
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
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
 * on: ChaCha20-Poly1305 page encryption, temporary data in memory (temp-store.ts), WAL, synchronous=FULL,
 * foreign keys, secure_delete.
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
 * The pragmas that give a connection the store's key, in order; none for an unencrypted file. Why
 * ChaCha20-Poly1305 (sqleet scheme): authenticated per page, so tampering is detected rather than read
 * as garbage; fast in software without AES-NI; the library's default, best tested.
 */
export function keyPragmas(key: string | Buffer | null): string[] {
  if (key === null) return [];
  if (key.length === 0) throw new Error('the database key is empty');
  return [
    `cipher='chacha20'`,
    typeof key === 'string' ? `key='${key.replaceAll("'", "''")}'` : `hexkey='${key.toString('hex')}'`,
  ];
}

/**
 * Gives a connection the store's key (ChaCha20-Poly1305 page encryption, temporary data in memory) and
 * proves it with a first read. A wrong key is a clear error, never a silent empty store.
 */
export function unlockDatabase(db: Db, file: string, key: string | Buffer | null): void {
  for (const pragma of keyPragmas(key)) db.pragma(pragma);
  // Before anything sorts or journals: temporary files are never encrypted.
  keepTempDataInMemory(db);
  try {
    // The first read decrypts page 1: a wrong key (or a plaintext/foreign file) fails here.
    db.prepare('SELECT count(*) FROM sqlite_master').get();
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'SQLITE_NOTADB') {
      throw new Error(
        `cannot open the Mnemo database ${file}: the database key is wrong (or the file is not a ` +
          'Mnemo database). Use the key it was created with (MNEMO_DB_KEY, --db-key-file or the key file ' +
          'in the config directory); refusing it rather than showing an empty store.',
      );
    }
    throw e;
  }
}
