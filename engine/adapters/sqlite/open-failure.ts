import { join } from 'node:path';
import { storeFileName } from './store-file-name.ts';

const sqliteCode = (e: unknown): string => {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
};

/** The way back from a damaged store in `dataDir`, for the refusal to open it and the server's log. */
export function damagedStoreAdvice(dataDir: string): string {
  return (
    `Put your latest backup in its place with 'mnemo restore --from FILE --data-dir ${dataDir}', which ` +
    'keeps the damaged file beside it'
  );
}

/**
 * What a person is told when the store in `dataDir` cannot be opened. SQLite's own words ("database disk
 * image is malformed", "attempt to write a readonly database") name no file and no way out; these name
 * both, and that nothing was changed. Failures that are not SQLite's, or say so already, pass as they are.
 */
export function storeOpenFailure(e: unknown, dataDir: string): unknown {
  const code = sqliteCode(e);
  const said = (e as Error).message;
  const store = join(dataDir, storeFileName);
  let message: string | null = null;
  if (/^SQLITE_(CORRUPT|NOTADB)(_|$)/.test(code))
    message = `the Mnemo store ${store} is damaged (SQLite: ${said}); it was not changed. ${damagedStoreAdvice(dataDir)}`;
  else if (/^SQLITE_(READONLY|CANTOPEN|PERM|AUTH)(_|$)/.test(code))
    message =
      `cannot write in the data dir ${dataDir} (SQLite: ${said}): Mnemo writes its store, the store's log ` +
      'and its lock file there even to read. Check that this user owns the dir and its files and may write ' +
      'to them, and that its disk is not mounted read-only';
  else if (/^SQLITE_FULL(_|$)/.test(code))
    message = `the disk holding the data dir ${dataDir} is full (SQLite: ${said}): free some space there, then try again`;
  else if (/^SQLITE_IOERR(_|$)/.test(code))
    message =
      `reading or writing the data dir ${dataDir} failed (SQLite: ${said}): its disk may be failing or gone; ` +
      'copy the store off it (or restore a backup elsewhere) before anything else';
  if (message === null) return e;
  const told = new Error(message);
  told.cause = e;
  return told;
}
