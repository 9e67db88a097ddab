import type Database from 'better-sqlite3-multiple-ciphers';

/**
 * Keeps SQLite's temporary data (sorter spills, temp b-trees of GROUP BY and DISTINCT, statement
 * journals) in memory. SQLite3MultipleCiphers encrypts the store's pages but not its temporary files,
 * and this build is compiled with SQLITE_TEMP_STORE=1 (files unless asked otherwise): left at the
 * default, a sort over Record text writes that text in plaintext to /var/tmp/etilqs_*, unlinked at once
 * but never wiped. Call it on every connection, right after keying where there is a key.
 */
export function keepTempDataInMemory(db: Database.Database): void {
  db.pragma('temp_store = MEMORY');
}
