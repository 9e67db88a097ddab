import { useState, type ReactNode } from 'react';

/** How many items of a long list (a Memory's evidence) are drawn before "Show all". */
export const foldedAt = 20;

/**
 * A list that may be long (a Memory cited by hundreds of Records): its first `first` items, and a
 * button to show the rest and fold them again. Every item drawn at once was 7 DOM nodes a citation:
 * 2,200 for a Memory 300 Records repeat.
 */
export function useFolded<T>(
  items: readonly T[],
  what: string,
  first = foldedAt,
): { shown: readonly T[]; toggle: ReactNode } {
  const [open, setOpen] = useState(false);
  if (items.length <= first) return { shown: items, toggle: null };
  return {
    shown: open ? items : items.slice(0, first),
    toggle: (
      <button type="button" className="link-button" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? `Show the first ${first} only` : `Show all ${items.length.toLocaleString()} ${what}`}
      </button>
    ),
  };
}
