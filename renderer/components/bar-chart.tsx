export interface Bar {
  label: string;
  value: number;
  /** Shown after the bar instead of the raw value. */
  note?: string;
  tone?: 'default' | 'muted' | 'warn';
  /** The engine's own name for the row (a stage's key), for a developer: in the tooltip only. */
  code?: string;
}

/**
 * About how many characters of chart text fit in a width (the chart's font is 12px). Counted for wide
 * letters: at 6.6 px a label of capitals and digits ran past the chart's left edge ("#12" read "¹12").
 */
const charsIn = (px: number) => Math.max(4, Math.floor(px / 7.2));

/** Text cut to fit a width, with an ellipsis: SVG text does not wrap, and the rest would be clipped. */
function fit(text: string, px: number): string {
  const n = charsIn(px);
  return text.length > n ? `${text.slice(0, n - 1)}…` : text;
}

/**
 * Horizontal bars in plain SVG, every value written as text beside its bar, and the rows in full as a
 * list under it: the chart shortens long labels to fit, its tooltips need a mouse, and a picture says
 * nothing to a screen reader, so the list is what assistive tech reads (the picture is hidden from it)
 * and what anyone opens to read a label whole.
 */
export function BarChart({
  bars,
  title,
  unit = '',
  code,
}: {
  bars: readonly Bar[];
  title: string;
  unit?: string;
  /** The engine's own name for what the chart shows (a lane's), as the caption's tooltip. */
  code?: string;
}) {
  const rowH = 26;
  // Labels are what tell the rows apart (three phone numbers of one person): they get the room.
  const labelW = 320;
  const barW = 240;
  const width = labelW + barW + 260;
  const max = Math.max(...bars.map((b) => Math.abs(b.value)), 1e-9);
  const height = Math.max(bars.length, 1) * rowH + 4;
  const note = (b: Bar) => b.note ?? `${Number.isInteger(b.value) ? b.value : b.value.toFixed(3)}${unit}`;
  return (
    <figure className="chart">
      <figcaption title={code}>{title}</figcaption>
      <svg
        aria-hidden="true"
        focusable="false"
        viewBox={`0 0 ${width} ${height}`}
        width="100%"
        preserveAspectRatio="xMinYMin meet"
      >
        {bars.map((b, i) => {
          const y = i * rowH + 2;
          const w = Math.max((Math.abs(b.value) / max) * barW, b.value === 0 ? 0 : 2);
          return (
            <g key={`${b.label}-${i}`}>
              <text x={labelW - 8} y={y + rowH / 2 + 4} textAnchor="end" className="chart-label">
                {fit(b.label, labelW - 8)}
              </text>
              <rect
                x={labelW}
                y={y + 4}
                width={w}
                height={rowH - 8}
                rx={3}
                className={`chart-bar ${b.tone ?? 'default'}`}
              />
              <text x={labelW + w + 6} y={y + rowH / 2 + 4} className="chart-value">
                {fit(note(b), width - (labelW + w + 6))}
              </text>
              {/* The whole label and note, as a tooltip, where the chart had to shorten them. */}
              <title>{`${b.label}${b.code ? ` (${b.code})` : ''}: ${note(b)}`}</title>
            </g>
          );
        })}
      </svg>
      <details className="chart-rows">
        <summary>
          Every row in full<span className="visually-hidden">: {title}</span>
        </summary>
        <ol>
          {bars.map((b, i) => (
            <li key={`${b.label}-${i}`} title={b.code}>
              {b.label}: {note(b)}
            </li>
          ))}
        </ol>
      </details>
    </figure>
  );
}
