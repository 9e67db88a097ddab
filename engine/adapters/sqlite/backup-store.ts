import { newDatabase } from './sqlite-binding.ts';
import {
  closeSync,
  copyFileSync,
  existsSync,
  fsyncSync,
  linkSync,
  openSync,
  rmSync,
  rmdirSync,
  renameSync,
  statSync,
  unlinkSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { noteBackupDraft, removeDeadDrafts, restoreDraftName, type LeftDraft } from './backup-drafts.ts';
import { holderFileName, lockDataDir, lockFileName } from './data-dir-lock.ts';
import { latestSchemaVersion } from './migrate.ts';
import { storeOpenFailure } from './open-failure.ts';
import { openStoreReadOnly, unlockDatabase } from './open-database.ts';
import { storeFileName } from './store.ts';
import { nameWithoutReplacing } from '../../files/name-without-replacing.ts';

const neverOverwrites = (out: string) =>
  `${out} exists already: a backup never overwrites a file; name another`;

/** What a backup holds, read from the copy itself once it was written. */
export interface BackupSummary {
  file: string;
  bytes: number;
  schemaVersion: number;
  brains: number;
  records: number;
  memories: number;
}

/** Drafts of backups and restores of this data dir whose processes ended midway, removed now. */
export interface DraftsRemoved {
  removedDrafts: LeftDraft[];
}

/** Checks a store file whole (every page decrypts and authenticates, every index agrees) and counts it. */
function inspect(file: string, key: string | Buffer): BackupSummary {
  const db = openStoreReadOnly(file, key, { vectors: true });
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
  // Read-write: Windows refuses to flush a handle opened for reading only.
  const fd = openSync(path, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The directory entry of a file just renamed or linked there survives a power loss too. */
function fsyncDir(path: string): void {
  if (process.platform === 'win32') return;
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** A self-contained copy of a store file (with what its WAL holds, if one is beside it) into an empty `draft`. */
function copyStore(from: string, draft: string, key: string | Buffer): void {
  const db = openStoreReadOnly(from, key, { vectors: true });
  try {
    db.prepare('VACUUM INTO ?').run(draft);
  } finally {
    db.close();
  }
}

/**
 * Writes a consistent copy of the data dir's store to `out`, while a server may be using it: a read
 * transaction of its own (WAL readers never block the writer) and SQLite's VACUUM INTO, which writes the
 * copy page by page through the same cipher, so the backup is encrypted with the store's key and no
 * plaintext touches the disk (temporary data stays in memory). The copy is written beside `out` under
 * another name, checked whole, synced, and only then given its name; an existing file is never
 * overwritten.
 */
export function backupStore(opts: {
  dataDir: string;
  key: string | Buffer;
  out: string;
}): BackupSummary & DraftsRemoved {
  const source = join(opts.dataDir, storeFileName);
  if (!existsSync(source))
    throw new Error(`there is no Mnemo store in ${opts.dataDir} (no ${storeFileName})`);
  const out = resolve(opts.out);
  if (existsSync(out)) throw new Error(neverOverwrites(out));
  if (!existsSync(dirname(out))) throw new Error(`the folder ${dirname(out)} does not exist`);
  const draft = `${out}.partial-${process.pid}`;
  // Those of backups killed midway go; this one's is noted first, so that the next backup or start
  // removes it should this process be killed too (backup-drafts.ts).
  const removedDrafts = removeDeadDrafts(opts.dataDir);
  const dropNote = noteBackupDraft(opts.dataDir, draft);
  try {
    // Created empty and owner-only first: VACUUM INTO fills an empty file and keeps its mode.
    closeSync(openSync(draft, 'wx', 0o600));
    try {
      copyStore(source, draft, opts.key);
      const summary = inspect(draft, opts.key);
      fsyncFile(draft);
      nameWithoutReplacing(draft, out, neverOverwrites(out));
      fsyncDir(dirname(out));
      return { ...summary, file: out, removedDrafts };
    } catch (e) {
      try {
        unlinkSync(draft);
      } catch {
        // Never created, or gone already.
      }
      throw backupFailure(e, opts.dataDir, out);
    }
  } finally {
    // A draft that could not be removed stays noted, for the next backup to remove.
    if (!existsSync(draft)) dropNote();
  }
}

/** SQLite's words name no file: a full disk is the backup's, anything else the store's (open-failure.ts). */
export function backupFailure(e: unknown, dataDir: string, out: string): unknown {
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^SQLITE_FULL(_|$)/.test(code)) {
    const told = new Error(
      `the disk holding ${dirname(out)} is full (SQLite: ${(e as Error).message}): no backup was written; ` +
        'free some space there or name a file on another disk',
    );
    told.cause = e;
    return told;
  }
  const told = storeOpenFailure(e, dataDir);
  if (told === e) return e;
  (told as Error).message = `no backup was written: ${(told as Error).message}`;
  // A store on a disk mounted read-only (an old machine's, a snapshot): SQLite cannot read it in place.
  if (/^SQLITE_(READONLY|CANTOPEN)(_|$)/.test(String(code)))
    (told as Error).message +=
      '. To back up a store on a read-only disk, copy its data dir to a writable place and back up the copy';
  return told;
}

export interface RestoreSummary extends BackupSummary, DraftsRemoved {
  /** Where the store it replaced was moved (with its WAL), or null when the data dir had none. */
  replaced: string | null;
}

const sidecars = ['-wal', '-shm', '-journal'];

/**
 * Folds the WAL of the store being replaced into its main file, so that file alone is the whole store
 * and the swap below is one rename. Best effort: a store that cannot be opened (another key, damaged)
 * keeps its WAL, which then moves aside beside it.
 */
function foldWal(file: string, key: string | Buffer): void {
  try {
    const db = newDatabase(file, { fileMustExist: true });
    try {
      unlockDatabase(db, file, key);
      db.pragma('wal_checkpoint(TRUNCATE)');
    } finally {
      db.close();
    }
  } catch {
    // Moved aside as it is.
  }
}

/**
 * Puts a backup in place as the data dir's store. Only while no server has the data dir (its lock is
 * taken for the whole restore). The backup is copied with VACUUM INTO, like a backup (so what a WAL
 * beside it holds comes too), checked whole with the key, and one written by a newer Mnemo is refused.
 * The copy gets a new watermark secret: watermarks a client got from the store after this backup was
 * taken name steps the restored store will reuse for other changes, so every earlier watermark is
 * refused (`invalid_watermark`) and delta readers read afresh rather than silently miss changes.
 * The store it replaces is not deleted: its WAL is folded in and it is kept under another name (hard
 * link, or a copy), any WAL, shm or journal left beside the store moves aside too, and the copy takes the
 * store's name in one rename: a crash at any point leaves the old store or the new one in place.
 * The next start migrates an older backup as any older store.
 */
export function restoreStore(opts: {
  dataDir: string;
  key: string | Buffer;
  from: string;
  now?: () => Date;
}): RestoreSummary {
  const from = resolve(opts.from);
  if (!existsSync(from)) throw new Error(`there is no backup at ${from}`);
  // A restore that fails must not leave a data dir behind (with its lock file) that it made itself.
  const madeDataDir = !existsSync(opts.dataDir);
  let lock: ReturnType<typeof lockDataDir>;
  try {
    lock = lockDataDir(opts.dataDir);
  } catch (e) {
    throw storeOpenFailure(e, opts.dataDir);
  }
  let restored = false;
  try {
    const target = join(opts.dataDir, storeFileName);
    // A restore killed midway left its draft here; the lock says no restore runs now.
    const removedDrafts = removeDeadDrafts(opts.dataDir);
    const draft = restoreDraftName(opts.dataDir);
    let checked: BackupSummary;
    try {
      closeSync(openSync(draft, 'w', 0o600));
      copyStore(from, draft, opts.key);
      checked = inspect(draft, opts.key);
      if (checked.schemaVersion > latestSchemaVersion)
        throw new Error(
          `${from} was written by a newer Mnemo (schema ${checked.schemaVersion}; this one knows up to ` +
            `${latestSchemaVersion}): restore it with that version`,
        );
      newWatermarkSecret(draft, opts.key);
      fsyncFile(draft);
    } catch (e) {
      try {
        unlinkSync(draft);
      } catch {
        // Never created.
      }
      throw namingBackup(e, from, opts.dataDir);
    }
    let replaced: string | null = null;
    const present = ['', ...sidecars].filter((suffix) => existsSync(`${target}${suffix}`));
    if (present.length > 0) {
      const stamp = (opts.now?.() ?? new Date()).toISOString().replaceAll(':', '-');
      replaced = `${target}.replaced-${stamp}`;
      if (present.includes('')) foldWal(target, opts.key);
      // Under the names SQLite looks for beside the kept file (a WAL that could not be folded in).
      for (const suffix of sidecars)
        if (existsSync(`${target}${suffix}`)) renameSync(`${target}${suffix}`, `${replaced}${suffix}`);
      if (existsSync(target)) {
        try {
          linkSync(target, replaced);
        } catch {
          copyFileSync(target, replaced);
        }
      }
    }
    renameSync(draft, target);
    restored = true;
    fsyncDir(opts.dataDir);
    return { ...checked, file: target, bytes: statSync(target).size, replaced, removedDrafts };
  } finally {
    // Its lock files go while the lock is still held (after, another process may have taken them).
    if (madeDataDir && !restored) removeLockFiles(opts.dataDir);
    lock.release();
    if (madeDataDir && !restored) removeIfEmpty(opts.dataDir);
  }
}

/** The lock's files of a data dir this restore made. */
function removeLockFiles(dataDir: string): void {
  for (const name of [holderFileName, lockFileName]) {
    try {
      rmSync(join(dataDir, name), { force: true });
    } catch {
      // Windows keeps an open file; the folder then stays, which is all this costs.
    }
  }
}

function removeIfEmpty(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    // Something else is in it: it stays.
  }
}

/** SQLite's own words ("database disk image is malformed") say nothing of which file; these do. */
function namingBackup(e: unknown, from: string, dataDir: string): unknown {
  if (!(e instanceof Error) || e.message.includes(from)) return e;
  // Not the backup's fault: the copy it was being made into had no room.
  if (/^SQLITE_FULL(_|$)/.test(String((e as { code?: unknown }).code))) {
    const full = new Error(
      `cannot restore ${from}: the disk holding ${dataDir} is full (SQLite: ${e.message}); nothing was ` +
        'restored and the store there is as it was. Free some space there, then try again',
    );
    full.cause = e;
    return full;
  }
  const named = new Error(`cannot restore ${from}: ${e.message} (is the file whole, and a Mnemo backup?)`);
  named.cause = e;
  return named;
}

function newWatermarkSecret(file: string, key: string | Buffer): void {
  const db = newDatabase(file, { fileMustExist: true });
  try {
    unlockDatabase(db, file, key);
    // A backup of a store that had no device secret yet keeps the one its pseudonyms were keyed by.
    db.prepare(
      "INSERT OR IGNORE INTO meta (key, value) SELECT 'device_secret', value FROM meta WHERE key = 'watermark_secret'",
    ).run();
    db.prepare("UPDATE meta SET value = ? WHERE key = 'watermark_secret'").run(
      randomBytes(32).toString('hex'),
    );
  } finally {
    db.close();
  }
}
