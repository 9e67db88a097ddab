import { join } from 'node:path';
import { storeUnavailableError } from '../../errors/store-unavailable.ts';
import { damagedStoreAdvice } from './open-failure.ts';
import { storeFileName } from './store-file-name.ts';

/**
 * SQLite failures of the store rather than of a job: another connection holds the write lock (or wrote
 * since this batch began reading), the disk is full or failing, memory ran out. The same job succeeds
 * once they pass.
 */
export function storeFailure(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return (
    typeof code === 'string' &&
    /^SQLITE_(BUSY|LOCKED|FULL|IOERR|NOMEM|READONLY|PROTOCOL|INTERRUPT|CANTOPEN)(_|$)/.test(code)
  );
}

/**
 * The disk, not the moment, stopped a checkpoint or a close: full, failing, read-only, out of memory.
 * It passes: the checkpoint is retried, and the WAL holds every commit for the next open.
 */
export function diskFailure(code: string): boolean {
  return /^SQLITE_(FULL|IOERR|NOMEM|READONLY|CANTOPEN)(_|$)/.test(code);
}

/** The store's disk is full: SQLite's SQLITE_FULL, or ENOSPC from syncing the WAL (wal-sync.ts). */
function diskFull(code: string): boolean {
  return /^SQLITE_FULL(_|$)/.test(code) || code === 'ENOSPC';
}

/**
 * The store's file is damaged: a page fails its cipher's authentication or SQLite finds the file's
 * structure broken (changed bytes, a lost stretch). Waiting mends nothing; a backup does.
 */
export function storeDamaged(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^SQLITE_(CORRUPT|NOTADB)(_|$)/.test(code);
}

/**
 * The server log's line for a damaged store in `dataDir`: the file, SQLite's words, and the way back,
 * which a caller's store_unavailable points to (it names no path).
 */
export function damagedStoreReport(dataDir: string, e: unknown): string {
  return (
    `the Mnemo store ${join(dataDir, storeFileName)} is damaged (SQLite: ${(e as Error).message}): ` +
    `requests that read its damaged part get store_unavailable. ${damagedStoreAdvice(dataDir)}`
  );
}

/** The store's file cannot be written or read now: made read-only, on a failing or vanished disk. */
function fileUnusable(code: string): boolean {
  return /^SQLITE_(IOERR|READONLY|CANTOPEN)(_|$)/.test(code) || ['EIO', 'EROFS'].includes(code);
}

/**
 * A failure of the store's disk or file as the caller is told of it: `store_unavailable` (503; retry
 * after a pause, or, for a damaged file, restore a backup), as the PostgreSQL engine says of a database
 * out of disk, rather than an unhandled `internal_error` that tells a person or an importer nothing
 * they can act on. Other failures pass through as they are. A write failed this way may have been kept only if it failed as the WAL was
 * synced, hence the advice to resend with the same Idempotency-Key.
 */
export function asStoreError(e: unknown): unknown {
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return e;
  if (code === 'MNEMO_WAL_SYNC_FAILED')
    return storeUnavailableError(
      "This Mnemo store could not make its writes durable (its disk failed a sync; the server's log says " +
        'how), so it takes no more requests until Mnemo is restarted, which recovers it from what is on disk',
      e,
    );
  if (storeDamaged(e))
    return storeUnavailableError(
      "This Mnemo store's file is damaged: part of it can no longer be read, so requests that need that " +
        "part fail (the server's log names the file). Put your latest backup in its place: File → " +
        'Restore… in the desktop app, or stop the server and run `mnemo restore --from FILE`, which keeps ' +
        'the damaged file beside it',
      e,
      { writeKept: false },
    );
  const what = diskFull(code)
    ? 'The disk holding this Mnemo store is full: free some space there, then retry'
    : fileUnusable(code)
      ? "This Mnemo store's file cannot be written or read now (its disk is failing or gone, or it " +
        "was made read-only; the server's log says which): retry once that is mended"
      : null;
  return what === null ? e : storeUnavailableError(what, e);
}
