// Apart from sqlite-binding.ts so that callers can recognise the failure without loading the binding.

export type BindingFailureCause = 'abi-mismatch' | 'missing' | 'unloadable';

/** The store's SQLite binding cannot be loaded in this runtime: nothing was opened, nothing changed. */
export class SqliteBindingError extends Error {
  override readonly name = 'SqliteBindingError';
  constructor(
    message: string,
    readonly failure: BindingFailureCause,
    /** The one command that fixes it, or null in a packaged app (reinstalling it is the fix). */
    readonly fix: string | null,
    /** For 'abi-mismatch': the NODE_MODULE_VERSION the file was built for, and the one this runtime needs. */
    readonly abi: { builtFor: number; needed: number } | null = null,
  ) {
    super(message);
  }
}
