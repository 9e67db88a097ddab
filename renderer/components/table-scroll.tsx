import { useEffect, useRef, useState, type ReactNode } from 'react';

/**
 * A table's box that scrolls sideways when the table is wider than the screen (a phone's). While it
 * scrolls it is a named region a keyboard can reach and scroll with the arrow keys: otherwise the
 * columns past the edge (a Memory's status, a key's Revoke) could be reached by touch or mouse only.
 * Not a stop for Tab while everything fits.
 */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const el = box.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const measure = () => setScrolls(el.scrollWidth > el.clientWidth + 1);
    const watch = new ResizeObserver(measure);
    watch.observe(el);
    if (el.firstElementChild) watch.observe(el.firstElementChild);
    measure();
    return () => watch.disconnect();
  }, []);
  return (
    <div
      ref={box}
      className="table-scroll"
      {...(scrolls ? { role: 'region', 'aria-label': `${label} (scrolls sideways)`, tabIndex: 0 } : {})}
    >
      {children}
    </div>
  );
}
