import Database from 'better-sqlite3-multiple-ciphers';
import * as sqliteVec from 'sqlite-vec';
import {
  chmodSync,
  closeSync,
  copyFileSync,
  existsSync,
  fsyncSync,
  linkSync,
  openSync,
  renameSync,
  statSync,
  unlinkSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { lockDataDir } from './data-dir-lock.ts';
import { latestSchemaVersion } from './migrate.ts';
import { unlockDatabase, type Db } from './open-database.ts';
import { storeFileName } from './store.ts';

/** What a backup holds, read from the copy itself once it was written. */
export interface BackupSummary {
  file: string;
  bytes: number;
  schemaVersion: number;
  brains: number;
  records: number;
  memories: number;
}

/** A store file opened to be read only, with the store's key. */
function openReadOnly(file: string, key: string | Buffer): Db {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    unlockDatabase(db, file, key);
    // The vector tables are sqlite-vec's: copying and checking them needs the module.
    sqliteVec.load(db);
    return db;
  } catch (e) {
    db.close();
    throw e;
  }
}

/** Checks a store file whole (every page decrypts and authenticates, every index agrees) and counts it. */
function inspect(file: string, key: string | Buffer): BackupSummary {
  const db = openReadOnly(file, key);
  try {
    const check = db.pragma('integrity_check') as { integrity_check: string }[];
    if (check.length !== 1 || check[0]!.integrity_check !== 'ok')
      throw new Error(`${file} is damaged: ${check.map((c) => c.integrity_check).join('; ')}`);
    const count = (table: string) =>
      (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    return {
      file,
      bytes: statSync(file).size,
      schemaVersion: db.pragma('user_version', { simple: true }) as number,
      brains: count('brains'),
      records: count('records'),
      memories: count('memories'),
    };
  } finally {
    db.close();
  }
}

function fsyncFile(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The directory entry of a file just renamed or linked there survives a power loss too. */
function fsyncDir(path: string): void {
  if (process.platform === 'win32') return;
  fsyncFile(path);
}

/**
 * Writes a consistent copy of the data dir's store to `out`, while a server may be using it: a read
 * transaction of its own (WAL readers never block the writer) and SQLite's VACUUM INTO, which writes the
 * copy page by page through the same cipher, so the backup is encrypted with the store's key and no
 * plaintext touches the disk (temporary data stays in memory). The copy is written beside `out` under
 * another name, checked whole, synced, and only then given its name; an existing file is never
 * overwritten.
 */
export function backupStore(opts: { dataDir: string; key: string | Buffer; out: string }): BackupSummary {
  const source = join(opts.dataDir, storeFileName);
  if (!existsSync(source))
    throw new Error(`there is no Mnemo store in ${opts.dataDir} (no ${storeFileName})`);
  const out = resolve(opts.out);
  if (existsSync(out))
    throw new Error(`${out} exists already: a backup never overwrites a file; name another`);
  if (!existsSync(dirname(out))) throw new Error(`the folder ${dirname(out)} does not exist`);
  const draft = `${out}.partial-${process.pid}`;
  // Created empty and owner-only first: VACUUM INTO fills an empty file and keeps its mode.
  closeSync(openSync(draft, 'wx', 0o600));
  try {
    const db = openReadOnly(source, opts.key);
    try {
      db.prepare('VACUUM INTO ?').run(draft);
    } finally {
      db.close();
    }
    const summary = inspect(draft, opts.key);
    fsyncFile(draft);
    // A hard link, not a rename: it fails rather than replace a file that appeared meanwhile.
    linkSync(draft, out);
    unlinkSync(draft);
    fsyncDir(dirname(out));
    return { ...summary, file: out };
  } catch (e) {
    try {
      unlinkSync(draft);
    } catch {
      // Never created, or gone already.
    }
    throw e;
  }
}

export interface RestoreSummary extends BackupSummary {
  /** Where the store it replaced was moved (with its WAL), or null when the data dir had none. */
  replaced: string | null;
}

/**
 * Puts a backup in place as the data dir's store. Only while no server has the data dir (its lock is
 * taken for the whole restore); the backup is checked whole with the key first, and one written by a
 * newer Mnemo is refused. The store it replaces is not deleted: it is moved aside with its WAL, so a
 * restore of the wrong file loses nothing. The next start migrates an older backup as any older store.
 */
export function restoreStore(opts: {
  dataDir: string;
  key: string | Buffer;
  from: string;
  now?: () => Date;
}): RestoreSummary {
  const from = resolve(opts.from);
  if (!existsSync(from)) throw new Error(`there is no backup at ${from}`);
  const checked = inspect(from, opts.key);
  if (checked.schemaVersion > latestSchemaVersion)
    throw new Error(
      `${from} was written by a newer Mnemo (schema ${checked.schemaVersion}; this one knows up to ` +
        `${latestSchemaVersion}): restore it with that version`,
    );
  const lock = lockDataDir(opts.dataDir);
  try {
    const target = join(opts.dataDir, storeFileName);
    // The copy is whole before anything of the current store moves.
    const draft = `${target}.restoring-${process.pid}`;
    try {
      copyFileSync(from, draft);
      if (process.platform !== 'win32') chmodSync(draft, 0o600);
      fsyncFile(draft);
    } catch (e) {
      try {
        unlinkSync(draft);
      } catch {
        // Never created.
      }
      throw e;
    }
    let replaced: string | null = null;
    const moved: string[] = [];
    try {
      if (existsSync(target)) {
        const stamp = (opts.now?.() ?? new Date()).toISOString().replaceAll(':', '-');
        replaced = `${target}.replaced-${stamp}`;
        // The WAL may hold committed transactions not yet in the main file: it moves with it, under
        // the name SQLite looks for beside the moved file.
        for (const suffix of ['-wal', '-shm', '']) {
          if (!existsSync(`${target}${suffix}`)) continue;
          renameSync(`${target}${suffix}`, `${replaced}${suffix}`);
          moved.push(suffix);
        }
      }
      renameSync(draft, target);
    } catch (e) {
      // Put back what had moved: a failed restore leaves the store as it was.
      for (const suffix of moved) renameSync(`${replaced}${suffix}`, `${target}${suffix}`);
      try {
        unlinkSync(draft);
      } catch {
        // Gone already.
      }
      throw e;
    }
    fsyncDir(opts.dataDir);
    return { ...checked, file: target, bytes: statSync(target).size, replaced };
  } finally {
    lock.release();
  }
}
