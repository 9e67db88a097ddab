import type Database from 'better-sqlite3-multiple-ciphers';
import { getLoadablePath } from 'sqlite-vec';

/**
 * The path SQLite itself can open for a file of a packaged app. Electron reads files inside app.asar
 * for Node's own fs, but SQLite's load_extension calls the OS's dlopen, which only sees real files:
 * electron-builder puts unpacked modules beside the archive, in app.asar.unpacked.
 */
export function unpackedPath(path: string): string {
  return path.replace(/([\\/])app\.asar([\\/])/, '$1app.asar.unpacked$2');
}

/** Loads sqlite-vec into a connection (the vector tables and their triggers need it on every one). */
export function loadVectorExtension(db: Database.Database): void {
  db.loadExtension(unpackedPath(getLoadablePath()));
}
