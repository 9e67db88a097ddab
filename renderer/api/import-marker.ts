/**
 * What outlives the page of an import that did not finish. Reloading or closing the tab closes the
 * import's request, which stops the server between items (as Cancel does), and the query cache that
 * held the import's state goes with the page. So each import leaves a marker in localStorage (counts
 * only: no file names, no key) while it runs, and holds a Web Lock named after it: the browser lets go
 * of the lock when the page goes, so a marker whose lock nobody holds is an import cut short. A
 * finished import removes its marker; a cancelled or failed one keeps it, marked so, until the person
 * dismisses it or imports into the Brain again.
 */
import type { ImportProgress } from '../../engine/contract/index.ts';

export interface ImportMarker {
  id: string;
  files: number;
  startedAt: string;
  /** Counts the server last sent (null before it planned the import). */
  progress:
    | (Pick<ImportProgress, 'imported' | 'unchanged' | 'skipped' | 'failed'> &
        Partial<Pick<ImportProgress, 'replaced'>>)
    | null;
  /** Absent while it runs (or ran until the page went); else how it ended short of finishing. */
  ended?: 'cancelled' | 'failed';
}

const storageKey = (brainId: string) => `mnemo.import.${brainId}`;
const lockName = (id: string) => `mnemo.import.${id}`;
/** Said in this page when a marker is written or removed (other pages hear the `storage` event). */
export const importMarkerEvent = 'mnemo:import-marker';

export function readImportMarker(brainId: string): ImportMarker | null {
  try {
    const raw = window.localStorage.getItem(storageKey(brainId));
    const m = raw ? (JSON.parse(raw) as Partial<ImportMarker>) : null;
    return m && typeof m.id === 'string' && typeof m.files === 'number' ? (m as ImportMarker) : null;
  } catch {
    return null;
  }
}

export function writeImportMarker(brainId: string, marker: ImportMarker, announce = false): void {
  try {
    window.localStorage.setItem(storageKey(brainId), JSON.stringify(marker));
  } catch {
    // Storage full or refused: the import runs on, only its interruption would go unsaid.
  }
  if (announce) window.dispatchEvent(new Event(importMarkerEvent));
}

/** Removes the Brain's marker (only the import `id`'s, when given: a newer import's stays). */
export function clearImportMarker(brainId: string, id?: string): void {
  if (id !== undefined && readImportMarker(brainId)?.id !== id) return;
  try {
    window.localStorage.removeItem(storageKey(brainId));
  } catch {
    // Nothing to do: the marker stays until dismissed.
  }
  window.dispatchEvent(new Event(importMarkerEvent));
}

/** Holds the import's lock until `done` settles (or the page goes). */
export function holdImportLock(id: string, done: Promise<unknown>): void {
  void navigator.locks?.request(lockName(id), () => done.catch(() => undefined)).catch(() => undefined);
}

/** Whether a page still runs the import; null when the browser has no Web Locks (an insecure origin). */
export async function runningSomewhere(id: string): Promise<boolean | null> {
  if (!navigator.locks) return null;
  const state = await navigator.locks.query();
  return (state.held ?? []).some((l) => l.name === lockName(id));
}
