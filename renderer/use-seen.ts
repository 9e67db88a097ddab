import { useEffect, useState } from 'react';

/**
 * Whether an element has come near the window (within `margin`) at least once: what is far below the
 * fold is not read from the server until the person scrolls towards it. Without IntersectionObserver
 * everything counts as seen.
 */
export function useSeen<T extends Element>(margin = '200px'): [(el: T | null) => void, boolean] {
  const [el, setEl] = useState<T | null>(null);
  const [seen, setSeen] = useState(typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    if (!el || seen) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setSeen(true);
      },
      { rootMargin: margin },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [el, seen, margin]);
  return [setEl, seen];
}
