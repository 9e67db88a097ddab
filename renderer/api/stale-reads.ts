/**
 * Reads that failed while what they loaded stays on screen: the server could not be reached, it (or a
 * proxy in its place) answered 5xx, or it asked for fewer reads (429). Each is a failure of the moment,
 * not an answer about the data, so a background read again (a poll, a refetch) that meets one keeps
 * the rows loaded before (status.tsx's errorHidesData) and the app's banner says they may be out of
 * date. Any other 4xx does replace them: it says something about the data (a Brain forgotten, a key
 * revoked).
 */
// The typed client itself, not ./client.ts: this module is React-free, for its tests under Node.
import { isMnemoApiError, isProxyAnswer, proxyStatus } from '../../server/client/index.ts';

/** The server could not be reached at all: not an answer from it, and not its fault. */
export function isNetworkError(error: unknown): boolean {
  return isMnemoApiError(error) && error.code === 'network_error';
}

/**
 * The server, or a proxy in its place, failed to answer (5xx), or asked for the reads to slow down
 * (429): either passes, and says nothing about the data.
 */
function isMomentaryFailure(error: unknown): boolean {
  return isMnemoApiError(error) && (error.status >= 500 || error.status === 429);
}

/** Whether a read that failed so leaves the data it loaded before on screen, under the banner. */
export function leavesDataStanding(error: unknown): boolean {
  return isNetworkError(error) || isMomentaryFailure(error);
}

/** The banner's words for such a failure. */
export function staleBanner(error: unknown): string {
  const loaded = 'what you see was loaded before and may be out of date.';
  if (!isMnemoApiError(error) || isNetworkError(error)) return `Mnemo cannot be reached: ${loaded}`;
  if (isProxyAnswer(error)) {
    return (
      'The server could not be reached through its proxy, which answered ' +
      `${proxyStatus(error)} in Mnemo's place: ${loaded}`
    );
  }
  // Mnemo's own words say what is wrong and what mends it (a full disk, a damaged store).
  return `Mnemo could not answer just now (${error.message.trimEnd().replace(/\.$/, '')}): ${loaded}`;
}

/** What the tracker needs of a TanStack query. */
export interface ReadLike {
  queryHash: string;
  state: { data: unknown };
}

/**
 * The failures the banner stands for, one per read: it goes when each such read has succeeded again
 * or left the screen, so one read still failing is not hidden by another's success. Any success
 * shows the server is reachable again, which ends every "cannot be reached".
 */
export function staleReads(onChange: (shown: unknown) => void) {
  const failing = new Map<string, unknown>();
  const publish = () => {
    const all = [...failing.values()];
    onChange(all.find(isNetworkError) ?? all.at(-1) ?? null);
  };
  return {
    failed(error: unknown, read: ReadLike) {
      // A first read that fails with a 5xx or a 429 shows its own error where its rows would be; a lost
      // connection is said in the banner either way, as it concerns every read.
      if (!isNetworkError(error) && !(isMomentaryFailure(error) && read.state.data !== undefined)) return;
      failing.delete(read.queryHash);
      failing.set(read.queryHash, error);
      publish();
    },
    succeeded(read: ReadLike) {
      failing.delete(read.queryHash);
      for (const [hash, e] of failing) if (isNetworkError(e)) failing.delete(hash);
      publish();
    },
    /** The read left the screen (no observer) or the cache: what it loaded is no longer shown. */
    dropped(read: ReadLike) {
      if (failing.delete(read.queryHash)) publish();
    },
  };
}
