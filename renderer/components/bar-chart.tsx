import { useCallback, useRef, useState } from 'react';
import { barLayout } from '../bar-layout.ts';

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

/** How wide the chart's box is, followed as it changes (a window narrowed, a phone turned). */
function useWidth(fallback: number): [(el: HTMLElement | null) => void, number] {
  const [width, setWidth] = useState(fallback);
  const observer = useRef<ResizeObserver | null>(null);
  const ref = useCallback(
    (el: HTMLElement | null) => {
      observer.current?.disconnect();
      observer.current = null;
      if (!el) return;
      setWidth(el.clientWidth || fallback);
      observer.current = new ResizeObserver(([entry]) => {
        if (entry) setWidth(entry.contentRect.width || fallback);
      });
      observer.current.observe(el);
    },
    [fallback],
  );
  return [ref, width];
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
  const [box, boxWidth] = useWidth(820);
  const l = barLayout(boxWidth);
  const max = Math.max(...bars.map((b) => Math.abs(b.value)), 1e-9);
  const height = Math.max(bars.length, 1) * l.rowH + 4;
  const note = (b: Bar) => b.note ?? `${Number.isInteger(b.value) ? b.value : b.value.toFixed(3)}${unit}`;
  return (
    <figure className="chart" ref={box}>
      <figcaption title={code}>{title}</figcaption>
      <svg
        aria-hidden="true"
        focusable="false"
        viewBox={`0 0 ${l.width} ${height}`}
        width={l.width}
        height={height}
      >
        {bars.map((b, i) => {
          const y = i * l.rowH + 2;
          const w = Math.max((Math.abs(b.value) / max) * l.barW, b.value === 0 ? 0 : 2);
          const valueX = l.barX + w + 6;
          return (
            <g key={`${b.label}-${i}`}>
              <text
                x={l.stacked ? 0 : l.labelW - 8}
                y={y + l.labelY}
                textAnchor={l.stacked ? 'start' : 'end'}
                className="chart-label"
              >
                {fit(b.label, l.stacked ? l.width : l.labelW - 8)}
              </text>
              <rect
                x={l.barX}
                y={y + l.barY}
                width={w}
                height={l.barH}
                rx={3}
                className={`chart-bar ${b.tone ?? 'default'}`}
              />
              <text x={valueX} y={y + l.valueY} className="chart-value">
                {fit(note(b), l.width - valueX)}
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
