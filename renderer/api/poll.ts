/**
 * The longest a poll waits while reads keep failing: it still notices, within this, a server back. At
 * 30 s a desktop app restarted under the person's eyes still said "cannot be reached" half a minute on.
 */
const longestMs = 10_000;

/** What a poll reads of its query's state (TanStack Query's names). */
interface PollState {
  /** Every failed read of the query so far. */
  errorUpdateCount: number;
  /** When the last read failed, and when the last one succeeded (0: none yet). */
  errorUpdatedAt: number;
  dataUpdatedAt: number;
}

/**
 * A poll's interval that backs off while its reads fail (the server stopped, the network gone): every
 * open screen read again every 2 s, each failure a console error, for as long as the tab stayed open.
 * While reads fail it waits as long as they have been failing since the last success (2, 4, 8, … s: it
 * doubles), up to `longestMs`, and is `ms` again once a read succeeds. A query that never succeeded
 * doubles by its count of failures, all of them in a row. Read from the query's state alone, so any
 * copy of the options computes the same wait.
 */
export function backingOff(ms: number): (q: { state: PollState }) => number {
  return ({ state }) => {
    if (state.dataUpdatedAt >= state.errorUpdatedAt) return ms;
    const failing =
      state.dataUpdatedAt === 0
        ? ms * 2 ** Math.min(state.errorUpdateCount, 8)
        : state.errorUpdatedAt - state.dataUpdatedAt;
    return Math.min(longestMs, Math.max(ms, failing));
  };
}
