import { useEffect, useState, type RefObject } from 'react';

/** A list longer than this draws only the rows near the window (a Brain's Memories read to the end). */
export const windowedFrom = 300;
/** Rows drawn beyond each edge of the window, so a scroll shows drawn rows while the next are drawn. */
const overscan = 25;
/** Rows drawn either side of the focused row, wherever the window is. */
const focusNeighbours = 3;

/** What a windowed list draws, in order: rows of the list (by index), and spacers of a height, in px. */
export type RowSlot = { row: number } | { gap: number; key: string };

/**
 * Which rows of a long list to draw: those within the window and a margin, the others stood in for by
 * spacers of their estimated height (the distance from one drawn row to the next, on average), so the
 * page's height and its scroll bar stay the list's. 3,000 Memories were 27,000 DOM nodes, all laid out
 * on every change; now the rows drawn are about a window's worth. `body` holds the rows and the
 * spacers: a table's body, or a list (`ul`) whose spacers are items; each row carries its index in the
 * whole list as `data-index`, each spacer `data-spacer`. A short list is drawn whole.
 *
 * The row holding focus stays drawn, and the rows either side of it (for the next Tab or Shift+Tab,
 * however fast the keys come), wherever the window goes: scrolled away from (PageDown, the wheel),
 * it was removed, focus fell to <body>, and the next Tab started from wherever the browser put it.
 */
export function useWindowRows(count: number, body: RefObject<HTMLElement | null>): RowSlot[] {
  const windowed = count > windowedFrom;
  const [shown, setShown] = useState({ start: 0, end: 100, rowHeight: 40 });
  const [focused, setFocused] = useState<number | null>(null);
  useEffect(() => {
    if (!windowed) return;
    let frame = 0;
    const update = () => {
      frame = 0;
      const el = body.current;
      if (!el) return;
      setShown((was) => {
        // Statements wrap to different heights: the rows drawn in a run are measured, and their
        // average places the rest.
        const run = drawnRows(el).filter((r) => r.index >= was.start && r.index < was.end);
        const measured = rowPitch(run.map((r) => r.el));
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
    const rowOf = (target: EventTarget | null) => {
      const el = body.current;
      if (!el || !(target instanceof Node)) return null;
      return drawnRows(el).find((r) => r.el.contains(target))?.index ?? null;
    };
    const focusIn = (e: FocusEvent) => setFocused(rowOf(e.target));
    // Gone to another part of the page: the row may go. Not when the window itself loses focus (the
    // row is still the document's active element, and focus comes back to it).
    const focusOut = (e: FocusEvent) => {
      if (rowOf(e.target) !== null && rowOf(e.relatedTarget) === null && e.relatedTarget !== null)
        setFocused(null);
    };
    schedule();
    // Captured: the window's scroll, or any box the list sits in.
    window.addEventListener('scroll', schedule, { passive: true, capture: true });
    window.addEventListener('resize', schedule);
    window.addEventListener('focusin', focusIn);
    window.addEventListener('focusout', focusOut);
    return () => {
      window.removeEventListener('scroll', schedule, { capture: true });
      window.removeEventListener('resize', schedule);
      window.removeEventListener('focusin', focusIn);
      window.removeEventListener('focusout', focusOut);
      if (frame !== 0) cancelAnimationFrame(frame);
    };
  }, [windowed, count, body]);
  if (!windowed) return Array.from({ length: count }, (_, row) => ({ row }));
  const start = Math.min(shown.start, count);
  const end = Math.min(shown.end, count);
  const slots: RowSlot[] = [];
  // Runs of rows [from, to), the rows between them stood in for: the window's, and the focused row's
  // with its neighbours, so that Tab and Shift+Tab find the next row drawn whatever the window does.
  let runs: Array<[number, number]> = [[start, end]];
  if (focused !== null && focused < count) {
    const near: [number, number] = [
      Math.max(0, focused - focusNeighbours),
      Math.min(count, focused + focusNeighbours + 1),
    ];
    if (near[1] < start) runs = [near, [start, end]];
    else if (near[0] > end) runs = [[start, end], near];
    else runs = [[Math.min(start, near[0]), Math.max(end, near[1])]];
  }
  let next = 0;
  // Keyed by their order, so a spacer is kept, not made again, as the window moves.
  let gaps = 0;
  const gap = (rows: number) => slots.push({ gap: rows * shown.rowHeight, key: `gap-${gaps++}` });
  for (const [from, to] of runs) {
    if (from > next) gap(from - next);
    for (let row = from; row < to; row++) slots.push({ row });
    next = to;
  }
  if (count > next) gap(count - next);
  return slots;
}

/** The rows drawn, each with its index in the whole list. */
function drawnRows(el: HTMLElement): Array<{ el: HTMLElement; index: number }> {
  return [...el.children].flatMap((c) =>
    c instanceof HTMLElement && c.dataset.index !== undefined
      ? [{ el: c, index: Number(c.dataset.index) }]
      : [],
  );
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
