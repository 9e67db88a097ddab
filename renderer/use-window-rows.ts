import { useEffect, useState, type RefObject } from 'react';

/** A list longer than this draws only the rows near the window (a Brain's Memories read to the end). */
export const windowedFrom = 300;
/** Rows drawn beyond each edge of the window, so a scroll shows drawn rows while the next are drawn. */
const overscan = 25;

export interface RowWindow {
  /** The rows drawn: [start, end) of the list. */
  start: number;
  end: number;
  /** The height left for the rows not drawn above and below them, in px. */
  above: number;
  below: number;
}

/**
 * Which rows of a long list to draw: those within the window and a margin, the others stood in for by
 * two spacers of their estimated height (the average of the rows drawn), so the page's height and its
 * scroll bar stay the list's. 3,000 Memories were 27,000 DOM nodes, all laid out on every change; now
 * the rows drawn are about a window's worth. `body` holds the rows and the spacers, the top spacer
 * first: a table's body, or a list (`ul`) whose spacers are items. A short list is drawn whole.
 *
 * A row that takes focus (Tab, Shift+Tab, a script's focus()) is kept `overscan` rows from either edge
 * of those drawn, at once rather than on the next frame: the next Tab then finds the next row drawn,
 * however fast the keys come, instead of leaving the list past its last drawn row.
 */
export function useWindowRows(count: number, body: RefObject<HTMLElement | null>): RowWindow {
  const windowed = count > windowedFrom;
  const [shown, setShown] = useState({ start: 0, end: 100, rowHeight: 40 });
  useEffect(() => {
    if (!windowed) return;
    let frame = 0;
    const update = () => {
      frame = 0;
      const el = body.current;
      if (!el) return;
      // Statements wrap to different heights: the rows drawn are measured, and their average places
      // the rest.
      const rows = [...el.children].filter(
        (c): c is HTMLElement => c instanceof HTMLElement && !c.dataset.spacer,
      );
      setShown((was) => {
        const measured = rowPitch(rows);
        const rowHeight = measured > 0 && Math.abs(measured - was.rowHeight) > 2 ? measured : was.rowHeight;
        // The top of the list's first row (the top spacer's), against the window.
        const top = el.getBoundingClientRect().top;
        const start = Math.max(0, Math.floor(-top / rowHeight) - overscan);
        const end = Math.max(start, Math.ceil((window.innerHeight - top) / rowHeight) + overscan);
        return was.start === start && was.end === end && was.rowHeight === rowHeight
          ? was
          : { start, end, rowHeight };
      });
    };
    const schedule = () => {
      if (frame === 0) frame = requestAnimationFrame(update);
    };
    const focused = (e: FocusEvent) => {
      const el = body.current;
      if (!el || !(e.target instanceof Node) || !el.contains(e.target)) return;
      let row: Node | null = e.target;
      while (row && row.parentNode !== el) row = row.parentNode;
      if (!(row instanceof HTMLElement) || row.dataset.spacer) return;
      // Its place in the whole list: the rows drawn are the list's from `start` on.
      const drawn = [...el.children].filter((c) => !(c instanceof HTMLElement && c.dataset.spacer));
      const at = drawn.indexOf(row);
      setShown((was) => {
        const i = was.start + at;
        const start = Math.min(was.start, Math.max(0, i - overscan));
        const end = Math.max(was.end, i + overscan + 1);
        return start === was.start && end === was.end ? was : { ...was, start, end };
      });
    };
    schedule();
    // Captured: the window's scroll, or any box the list sits in.
    window.addEventListener('scroll', schedule, { passive: true, capture: true });
    window.addEventListener('resize', schedule);
    window.addEventListener('focusin', focused);
    return () => {
      window.removeEventListener('scroll', schedule, { capture: true });
      window.removeEventListener('resize', schedule);
      window.removeEventListener('focusin', focused);
      if (frame !== 0) cancelAnimationFrame(frame);
    };
  }, [windowed, count, body]);
  if (!windowed) return { start: 0, end: count, above: 0, below: 0 };
  const start = Math.min(shown.start, count);
  const end = Math.min(shown.end, count);
  return { start, end, above: start * shown.rowHeight, below: (count - end) * shown.rowHeight };
}

/**
 * The average distance from one drawn row's top to the next's: a list's items have margins between
 * them, which their heights leave out (a Record's card, 0.6rem), and which the spacers must count.
 */
function rowPitch(rows: HTMLElement[]): number {
  const first = rows[0];
  const last = rows.at(-1);
  if (!first || !last) return 0;
  const span = last.getBoundingClientRect().bottom - first.getBoundingClientRect().top;
  return (span + marginBelow(last)) / rows.length;
}

const marginBelow = (el: HTMLElement) => parseFloat(getComputedStyle(el).marginBottom) || 0;
