import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, renameSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';

export interface LockOptions {
  /** How long to wait for another holder before giving up (default 10 s). */
  timeoutMs?: number;
  /** A lock older than this is a crashed holder's, whoever it names (default 30 s). */
  staleMs?: number;
}

interface LockContent {
  pid: number;
  host: string;
  token: string;
}

const pause = new Int32Array(new SharedArrayBuffer(4));
/** Sleeps without spinning; the registry's callers are synchronous, so the lock is too. */
const sleepSync = (ms: number) => Atomics.wait(pause, 0, 0, ms);

/**
 * Runs `fn` holding the lock file `<path>.lock`, so read-modify-write cycles of `path` by several
 * processes (a running server, `mnemo keys`) never lose each other's updates.
 *
 * The lock is taken by hard-linking a complete file to the lock name, which fails if it exists
 * (atomic, and a reader never sees a half-written lock). A lock whose process is gone (same host) or
 * which is older than `staleMs` is set aside and taken over.
 */
export function withFileLock<T>(path: string, fn: () => T, options: LockOptions = {}): T {
  const lockPath = `${path}.lock`;
  const mine: LockContent = { pid: process.pid, host: hostname(), token: randomBytes(8).toString('hex') };
  const content = JSON.stringify(mine);
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  const staleMs = options.staleMs ?? 30_000;
  // The complete lock file, written once and linked to the lock name at each try.
  const draft = `${lockPath}.${mine.token}`;
  writeFileSync(draft, content, { mode: 0o600 });
  let wait = 1;
  try {
    for (;;) {
      if (tryLock(lockPath, draft)) break;
      if (setAsideIfStale(lockPath, staleMs, mine.token)) continue;
      if (Date.now() > deadline) {
        throw new Error(`${path} is locked by another process (lock file ${lockPath})`);
      }
      sleepSync(wait + Math.random() * wait);
      wait = Math.min(wait * 2, 50);
    }
  } finally {
    unlinkSync(draft);
  }
  try {
    return fn();
  } finally {
    release(lockPath, content);
  }
}

function tryLock(lockPath: string, draft: string): boolean {
  // Its age is what others judge staleness by: taken now, it is as old as now.
  const now = new Date();
  utimesSync(draft, now, now);
  try {
    linkSync(draft, lockPath);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
}

/** True when the lock is gone (or was removed as stale), so taking it may be tried again at once. */
function setAsideIfStale(lockPath: string, staleMs: number, token: string): boolean {
  let seen: string;
  let mtimeMs: number;
  try {
    seen = readFileSync(lockPath, 'utf8');
    mtimeMs = statSync(lockPath).mtimeMs;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw e;
  }
  if (!isStale(seen, mtimeMs, staleMs)) return false;
  const aside = `${lockPath}.stale-${token}`;
  try {
    renameSync(lockPath, aside);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw e;
  }
  // Between reading and renaming, another process may have replaced the stale lock with its live one:
  // then that one goes back. (Should a third process take the lock in that instant too, the link fails
  // and two would hold it; that takes a crashed holder and three racing writers at once.)
  if (readFileSync(aside, 'utf8') !== seen) {
    try {
      linkSync(aside, lockPath);
    } catch {
      // See above.
    }
  }
  unlinkSync(aside);
  return true;
}

function isStale(seen: string, mtimeMs: number, staleMs: number): boolean {
  if (Date.now() - mtimeMs > staleMs) return true;
  let holder: LockContent;
  try {
    holder = JSON.parse(seen) as LockContent;
  } catch {
    return false;
  }
  if (holder.host !== hostname()) return false;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (e) {
    // EPERM: the process exists under another user.
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Removes the lock only while it is still ours (a holder judged stale may have lost it). */
function release(lockPath: string, content: string): void {
  try {
    if (readFileSync(lockPath, 'utf8') === content) unlinkSync(lockPath);
  } catch {
    // Already gone.
  }
}
