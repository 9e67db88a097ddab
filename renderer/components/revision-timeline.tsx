import { useState } from 'react';
import type { MemoryRevision } from '../../engine/contract/index.ts';
import { memoryDays } from '../all-day.ts';
import {
  formatDate,
  formatDateTime,
  heldNoTime,
  statusLabels,
  truthPhrase,
  validitySpan,
} from '../format.ts';
import { Link } from '../router.tsx';
import { paths } from '../routes.ts';
import { replacedAtStart } from '../replaced-at-start.ts';

/**
 * How each version came to be, said of the version it is shown on: `cause` is why that version was
 * written (engine/derive), not what happened to it later. `superseded_by_record` is a version from a
 * Record written after the slot already had one (it may start before or after the others).
 */
const causes: Record<MemoryRevision['cause'], string> = {
  derived: 'worked out from a Record',
  superseded_by_record: 'from a newer Record about the same thing',
  correction: 'a correction',
  rederived: 'worked out again after a Record was forgotten',
};

/**
 * When a version was true, or, for one that held for no time, what happened to it ("replaced from
 * its start by a correction", linked to the version that took its place), not a bare "never true".
 */
export function TruthSpan({
  brainId,
  revisions,
  r,
  phrase = false,
}: {
  brainId: string;
  revisions: readonly MemoryRevision[];
  r: Pick<MemoryRevision, 'id' | 'status' | 'statement' | 'valid_from' | 'valid_to'>;
  /** "true since …" (a line of the history), rather than the span alone (beside a "True" label). */
  phrase?: boolean;
}) {
  const what = replacedAtStart(revisions, r);
  const inUtc = memoryDays(r) !== null;
  if (what === null)
    return (
      <>
        {phrase
          ? truthPhrase(r.valid_from, r.valid_to, inUtc, r.status)
          : validitySpan(r.valid_from, r.valid_to, inUtc, r.status)}
      </>
    );
  return (
    <>
      {what.text}
      {what.by && what.by.id !== r.id ? (
        <>
          {' '}
          (<Link to={paths.memory(brainId, what.by.id)}>version {what.by.version}</Link>)
        </>
      ) : null}
    </>
  );
}

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
  // A version still open holds to now, so the axis reaches now: ended at the last change, a version
  // open since then would be a sliver at the edge, its predecessor the whole. Where every version starts
  // later than now (a move next month), the axis starts at now, and runs on past the last start, so a
  // value to come is drawn from its day, not as holding already.
  const open = closedEnds.some((t) => t === null);
  const min = Math.min(...starts, ...(open ? [now] : []));
  const last = Math.max(
    ...starts,
    ...closedEnds.filter((t): t is number => t !== null),
    ...(open ? [now] : []),
    min + 1,
  );
  const max = open && last > now ? last + (last - min) / 5 : last;
  // Versions of all-day events: the axis is in days of the calendar too.
  const inUtc = revisions.every((r) => memoryDays(r) !== null);
  const W = 600;
  const rowH = 22;
  // The narrowest box drawn, and a label character's width at the chart's 12px (a little wide, so a
  // label said to fit does).
  const minBar = 8;
  const charW = 7.5;
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
          const end = closedEnds[i];
          // Every version gets a box that can be seen: one a correction replaced from its start (no
          // time at all) or a day in years would otherwise be a sliver, its label unreadable.
          const x0 = Math.min(x(starts[i] ?? min), W - 10 - minBar);
          // An open-ended version (still true) runs to the right edge, labelled "now".
          const x1 = Math.max(end == null ? W - 10 : x(end), x0 + minBar);
          const label = `v${r.version}${ended(r) ? ' ended' : ''}`;
          // The label inside its box where it fits; else beside it, on the side with room.
          const textW = label.length * charW;
          const inside = textW + 8 <= x1 - x0;
          const after = x1 + 4 + textW <= W;
          const kind = `${r.id === currentId ? 'current' : r.status}${ended(r) ? ' ended' : ''}${heldNoTime(r) ? ' no-time' : ''}`;
          return (
            <g key={r.id}>
              <rect
                x={x0}
                y={i * rowH + 4}
                width={x1 - x0}
                height={rowH - 8}
                rx={4}
                className={`timeline-bar ${kind}`}
              />
              <text
                x={inside ? x0 + 4 : after ? x1 + 4 : x0 - 4}
                y={i * rowH + rowH / 2 + 4}
                textAnchor={inside || after ? 'start' : 'end'}
                className={`timeline-text${ended(r) ? ' ended' : ''}${inside ? '' : ' outside'}`}
              >
                {label}
              </text>
            </g>
          );
        })}
        <text x={10} y={revisions.length * rowH + 18} className="chart-label">
          {min === now ? 'now' : formatDate(new Date(min).toISOString(), inUtc)}
        </text>
        <text x={W - 10} y={revisions.length * rowH + 18} textAnchor="end" className="chart-label">
          {open && max === now ? 'now' : open ? 'later' : formatDate(new Date(max).toISOString(), inUtc)}
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
                <TruthSpan brainId={brainId} revisions={revisions} r={r} phrase />
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
