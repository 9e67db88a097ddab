import type { ImportProgress } from '../../engine/contract/index.ts';
import type { ImportRun } from '../api/mutations.ts';
import type { ImportLeftover } from '../api/use-import-leftover.ts';
import { formatDateTime, plural } from '../format.ts';
import { useFocusIfLost } from '../use-focus-if-lost.ts';

/**
 * How far the bar is: by the chosen files (or exports) when there are several, else by the items of
 * the one being read; none (an indeterminate bar) while the upload is planned or its items are read.
 */
function measure(p: ImportProgress | null): { value: number; max: number } | null {
  if (!p) return null;
  if (p.parts_planned > 1) return { value: p.parts_done, max: p.parts_planned };
  const done = p.imported + p.replaced + p.unchanged + p.skipped + p.failed;
  return p.items_read > 0 ? { value: Math.min(done, p.items_read), max: p.items_read } : null;
}

/** A running import: a bar, the counts so far, what is being read, and the way to stop it. */
export function ImportRunning({ run }: { run: ImportRun }) {
  const p = run.progress;
  const bar = measure(p);
  return (
    <div className="import-progress">
      {/* Only this sentence is live: counts that change four times a second would drown a screen reader. */}
      <p className="status loading" role="status">
        Reading and importing {plural(run.files, 'file')}. Large exports take a while; you can look at other
        tabs meanwhile.
      </p>
      {/* A style prop, not a stylesheet rule: it goes through the CSSOM, which the CSP allows. */}
      <progress aria-label="Import progress" style={{ width: '100%', maxWidth: '32rem' }} {...(bar ?? {})} />
      {p ? (
        <>
          <p className="small">
            {p.parts_planned > 1
              ? `${p.parts_done.toLocaleString()} of ${plural(p.parts_planned, 'file')} read: `
              : ''}
            {plural(p.imported, 'new item')}
            {p.replaced ? `, ${p.replaced.toLocaleString()} replaced` : ''}, {p.unchanged.toLocaleString()}{' '}
            already here
            {p.skipped ? `, ${p.skipped.toLocaleString()} skipped` : ''}
            {p.failed ? `, ${p.failed.toLocaleString()} could not be stored` : ''}
          </p>
          {p.current ? (
            <p className="small">
              Now: <span className="mono">{p.current_item ?? p.current}</span>
            </p>
          ) : null}
        </>
      ) : (
        <p className="small">Sending the files…</p>
      )}
      <button type="button" onClick={() => run.cancel?.()}>
        Cancel import
      </button>
    </div>
  );
}

/** After Cancel: what happened to what was written, and how to finish. */
export function ImportStoppedNotice({ run }: { run: ImportRun }) {
  const written = (run.progress?.imported ?? 0) + (run.progress?.replaced ?? 0);
  // Cancel import is gone with the import it stopped: focus comes here, not to <body>.
  const ref = useFocusIfLost<HTMLParagraphElement>();
  return (
    <p className="import-stopped" role="status" tabIndex={-1} ref={ref}>
      {written > 0
        ? `Stopped. ${written === 1 ? 'At least 1 item was' : `At least ${written.toLocaleString()} items were`} written; `
        : 'Stopped. Anything written before the stop stays; '}
      importing the same files again finishes the rest without duplicates.
    </p>
  );
}

const howItEnded = {
  interrupted: 'did not finish: the page was reloaded or closed while it ran, which stops an import',
  cancelled: 'was stopped with Cancel import',
  failed: 'stopped part way with an error',
} as const;

/**
 * The Brain's last import when this page does not run it: cut short (a reload, a closed tab), stopped
 * or failed before a reload, or running in another tab. Said until dismissed or imported again.
 */
export function ImportLeftoverNotice({
  leftover,
  onDismiss,
}: {
  leftover: ImportLeftover;
  onDismiss: () => void;
}) {
  const { marker } = leftover;
  const started = `started ${formatDateTime(marker.startedAt)}, ${plural(marker.files, 'file')}`;
  if (leftover.state === 'elsewhere')
    return (
      <p className="notice" role="status">
        An import into this Brain is running in another tab ({started}). What has been imported grows as it
        goes.
      </p>
    );
  // A marker left by an import before `replaced` was counted has none.
  const written = (marker.progress?.imported ?? 0) + (marker.progress?.replaced ?? 0);
  return (
    <div className="notice import-leftover" role="status">
      <p>
        The last import into this Brain ({started}) {howItEnded[leftover.state]}.{' '}
        {written > 0
          ? `At least ${plural(written, 'item was', 'items were')} written before it stopped`
          : 'What was written before it stopped stays'}
        ; importing the same files again finishes the rest without duplicates.
      </p>
      <button type="button" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}
