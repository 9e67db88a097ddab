import type { ImportProgress } from '../../engine/contract/index.ts';
import type { ImportRun } from '../api/mutations.ts';
import { plural } from '../format.ts';

/**
 * How far the bar is: by the chosen files (or exports) when there are several, else by the items of
 * the one being read; none (an indeterminate bar) while the upload is planned or its items are read.
 */
function measure(p: ImportProgress | null): { value: number; max: number } | null {
  if (!p) return null;
  if (p.parts_planned > 1) return { value: p.parts_done, max: p.parts_planned };
  const done = p.imported + p.unchanged + p.skipped + p.failed;
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
            {plural(p.imported, 'new item')}, {p.unchanged.toLocaleString()} already here
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
  const written = run.progress?.imported ?? 0;
  return (
    <p className="import-stopped" role="status">
      {written > 0
        ? `Stopped. ${written === 1 ? 'At least 1 item was' : `At least ${written.toLocaleString()} items were`} written; `
        : 'Stopped. Anything written before the stop stays; '}
      importing the same files again finishes the rest without duplicates.
    </p>
  );
}
