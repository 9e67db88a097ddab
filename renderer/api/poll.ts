/** The longest a poll waits while reads keep failing: it still notices, within this, a server back. */
const longestMs = 30_000;

/** What a poll reads of its query's state (TanStack Query's names). */
interface PollState {
  /** Every failed read so far, never reset. */
  errorUpdateCount: number;
  errorUpdatedAt: number;
  dataUpdatedAt: number;
}

/**
 * A poll's interval that backs off while its reads fail (the server stopped, the network gone): every
 * open screen read again every 2 s, each failure a console error, for as long as the tab stayed open.
 * Doubles with each failure in a row, up to `longestMs`, and is `ms` again once a read succeeds. The
 * failures in a row are those counted since the last success, kept per query.
 */
export function backingOff(ms: number): (q: { state: PollState }) => number {
  const errorsAtSuccess = new WeakMap<object, number>();
  return (q) => {
    const { errorUpdateCount, errorUpdatedAt, dataUpdatedAt } = q.state;
    if (dataUpdatedAt >= errorUpdatedAt) {
      errorsAtSuccess.set(q, errorUpdateCount);
      return ms;
    }
    const inARow = errorUpdateCount - (errorsAtSuccess.get(q) ?? 0);
    return Math.min(longestMs, ms * 2 ** Math.min(inARow, 8));
  };
}
