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
