import type Database from 'better-sqlite3-multiple-ciphers';
import { newDatabase, SqliteBindingError } from './sqlite-binding.ts';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { keepTempDataInMemory } from './temp-store.ts';
import { processAlive } from './process-alive.ts';

export const lockFileName = 'mnemo.lock';
/** Who holds the lock, for the refusal's message only: the lock itself is the OS lock on mnemo.lock. */
export const holderFileName = 'mnemo.lock.json';

export interface DataDirLock {
  release(): void;
}

interface Holder {
  pid: number;
  host: string;
  since: string;
}

/** A second engine on a data dir another one has open. */
export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: Holder | null,
  ) {
    super(inUseMessage(dataDir, holder));
    this.name = 'DataDirInUseError';
  }
}

/**
 * Takes the data dir for this engine alone, or throws DataDirInUseError naming the process that has it.
 *
 * Two engines on one store race each other's transactions (a derive batch then fails with
 * SQLITE_BUSY), so the second must not start. The lock is SQLite's own write lock on an empty file
 * (fcntl on POSIX, LockFileEx on Windows), held by an open transaction: the OS drops it when the process
 * dies however it dies, and a pid reused after a crash or a reboot cannot keep it, as it could a lock
 * file judged by the pid it names (engine/auth/file-lock.ts, made for locks held for milliseconds).
 */
export function lockDataDir(dataDir: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const lockPath = join(dataDir, lockFileName);
  const fresh = !existsSync(lockPath);
  let db: Database.Database;
  try {
    // timeout 0: a held lock is an answer, not something to wait for.
    db = newDatabase(lockPath, { timeout: 0 });
  } catch (e) {
    // A binding that cannot load says so itself, with its fix; it is not about this file.
    if (e instanceof SqliteBindingError) throw e;
    // SQLite's own message ("unable to open database file") names no file.
    throw new Error(`cannot open ${lockPath}: ${(e as Error).message}`);
  }
  // Owner-only like every file of the data dir (SQLite makes it 0644); empty, but not for others to open.
  if (fresh && process.platform !== 'win32') chmodSync(lockPath, 0o600);
  try {
    // It holds no data, but every connection gets the setting: no exception to reason about.
    keepTempDataInMemory(db);
    db.exec('BEGIN IMMEDIATE');
  } catch (e) {
    db.close();
    if ((e as { code?: string }).code?.startsWith('SQLITE_BUSY')) {
      throw new DataDirInUseError(dataDir, readHolder(dataDir));
    }
    throw e;
  }
  const holderPath = join(dataDir, holderFileName);
  const mine: Holder = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
  const content = `${JSON.stringify(mine)}\n`;
  try {
    // Whole or not at all: a contender reading it mid-write would name no one.
    const draft = `${holderPath}.${process.pid}.tmp`;
    writeFileSync(draft, content, { mode: 0o600 });
    renameSync(draft, holderPath);
  } catch {
    // Only the refusal's message of another process needs it.
  }
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      try {
        if (readFileSync(holderPath, 'utf8') === content) unlinkSync(holderPath);
      } catch {
        // Already gone.
      }
      // Rolls the open transaction back, which is what lets the lock go.
      db.close();
    },
  };
}

function readHolder(dataDir: string): Holder | null {
  try {
    const h = JSON.parse(readFileSync(join(dataDir, holderFileName), 'utf8')) as Holder;
    if (!Number.isInteger(h.pid) || typeof h.host !== 'string') return null;
    // The lock is held, so this names its holder unless that holder crashed and a new one has not
    // written its own yet: a pid that is gone is not named.
    if (h.host === hostname() && !processAlive(h.pid)) return null;
    return h;
  } catch {
    return null;
  }
}

function inUseMessage(dataDir: string, holder: Holder | null): string {
  const who = !holder
    ? 'another process'
    : holder.pid === process.pid && holder.host === hostname()
      ? `this process (pid ${holder.pid}), which opened it already`
      : `another Mnemo process (pid ${holder.pid}${holder.host === hostname() ? '' : ` on ${holder.host}`}, since ${holder.since})`;
  return (
    `the data directory ${dataDir} is in use by ${who}: one store serves one process at a time. ` +
    'Stop that process first, or use another data directory.'
  );
}
