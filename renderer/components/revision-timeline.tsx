import { useState } from 'react';
import type { MemoryRevision } from '../../engine/contract/index.ts';
import { memoryDays } from '../all-day.ts';
import { formatDate, formatDateTime, statusLabels, truthPhrase } from '../format.ts';
import { Link } from '../router.tsx';
import { paths } from '../routes.ts';

/**
 * How each version came to be, said of the version it is shown on: `cause` is why that version was
 * written (engine/derive), not what happened to it later. `superseded_by_record` is a version from a
 * Record written after the slot already had one (it may start before or after the others).
 */
const causes: Record<MemoryRevision['cause'], string> = {
  derived: 'worked out from a Record',
  superseded_by_record: 'from a newer Record about the same thing',
  correction: 'a person’s correction',
  rederived: 'worked out again after a Record was forgotten',
};

/**
 * Every version of the slot on one world-time axis (when each value held true), then the same as a
 * list with the transaction time (when the Brain learned it). The list is the accessible version.
 */
export function RevisionTimeline({
  brainId,
  revisions,
  currentId,
  said,
  ended = () => false,
}: {
  brainId: string;
  revisions: MemoryRevision[];
  currentId: string;
  /** A version's statement as the page says it (statementLabel with the Memory's subject). */
  said: (r: MemoryRevision) => string;
  /**
   * Whether a version ends the slot's value rather than holding one ("Ana no longer lives in Berlin"):
   * drawn as an outline, or the chart would show a home held to now.
   */
  ended?: (r: MemoryRevision) => boolean;
}) {
  // Read once: the chart is drawn as of when it was opened.
  const [now] = useState(() => Date.now());
  const starts = revisions.map((r) => Date.parse(r.valid_from));
  const closedEnds = revisions.map((r) => (r.valid_to ? Date.parse(r.valid_to) : null));
  const min = Math.min(...starts);
  // The right edge is labelled "now" when a version is still open, so the axis must reach now: ended at
  // the last change, a version open since then would be a sliver at the edge, its predecessor the whole.
  const open = closedEnds.some((t) => t === null);
  const max = Math.max(
    ...starts,
    ...closedEnds.filter((t): t is number => t !== null),
    ...(open ? [now] : []),
    min + 1,
  );
  // Versions of all-day events: the axis is in days of the calendar too.
  const inUtc = revisions.every((r) => memoryDays(r) !== null);
  const W = 600;
  const rowH = 22;
  const x = (t: number) => 10 + ((t - min) / (max - min)) * (W - 20);
  return (
    <div className="timeline">
      <svg
        viewBox={`0 0 ${W} ${revisions.length * rowH + 24}`}
        width="100%"
        aria-hidden="true"
        focusable="false"
      >
        {revisions.map((r, i) => {
          const x0 = x(starts[i] ?? min);
          const end = closedEnds[i];
          // An open-ended version (still true) runs to the right edge, labelled "now".
          const x1 = Math.max(end == null ? W - 10 : x(end), x0 + 4);
          return (
            <g key={r.id}>
              <rect
                x={x0}
                y={i * rowH + 4}
                width={x1 - x0}
                height={rowH - 8}
                rx={4}
                className={`timeline-bar ${r.id === currentId ? 'current' : r.status}${ended(r) ? ' ended' : ''}`}
              />
              <text
                x={x0 + 4}
                y={i * rowH + rowH / 2 + 4}
                className={`timeline-text${ended(r) ? ' ended' : ''}`}
              >
                v{r.version}
                {ended(r) ? ' ended' : ''}
              </text>
            </g>
          );
        })}
        <text x={10} y={revisions.length * rowH + 18} className="chart-label">
          {formatDate(new Date(min).toISOString(), inUtc)}
        </text>
        <text x={W - 10} y={revisions.length * rowH + 18} textAnchor="end" className="chart-label">
          {revisions.some((r) => r.valid_to === null)
            ? 'now'
            : formatDate(new Date(max).toISOString(), inUtc)}
        </text>
      </svg>
      <ol className="revisions" aria-label="Versions, oldest first">
        {revisions.map((r) => (
          <li
            key={r.id}
            aria-current={r.id === currentId ? 'true' : undefined}
            className={r.id === currentId ? 'current' : ''}
          >
            <p>
              <strong>Version {r.version}</strong>
              {r.id === currentId ? <span className="badge">shown here</span> : null}
              <span className={`badge ${r.status === 'active' ? 'ok' : 'muted'}`}>
                {statusLabels[r.status]}
              </span>
            </p>
            <p>{r.id === currentId ? said(r) : <Link to={paths.memory(brainId, r.id)}>{said(r)}</Link>}</p>
            <p className="meta">
              <span className="capitalize-first">
                {truthPhrase(r.valid_from, r.valid_to, memoryDays(r) !== null)}
              </span>
              <span>learned {formatDateTime(r.learned_at)}</span>
              <span>{causes[r.cause]}</span>
            </p>
          </li>
        ))}
      </ol>
    </div>
  );
}
