/**
 * SIGTERM/SIGINT/SIGHUP received before a command could handle them (bin/mnemo.mjs holds them while the
 * modules load). `release()` stops holding and returns what arrived, oldest first; later calls
 * return nothing.
 */
export interface HeldSignals {
  release(): NodeJS.Signals[];
}

/** For callers of main() that hold nothing (tests, other entry points). */
export const noHeldSignals: HeldSignals = { release: () => [] };

/** What main() gives every command's register(). */
export interface CommandContext {
  heldSignals: HeldSignals;
}
