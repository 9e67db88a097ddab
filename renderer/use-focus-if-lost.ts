import { useEffect, useRef } from 'react';

/**
 * For what appears where the control just used was removed (a form that gave way to its result, a
 * button gone with what it stopped): on mount, and whenever `shown` changes, focus it when focus fell
 * to <body>, never taking it from where the person (or the page's heading) has it.
 */
export function useFocusIfLost<T extends HTMLElement>(shown: unknown = true) {
  const ref = useRef<T>(null);
  useEffect(() => {
    const now = document.activeElement;
    if (!now || now === document.body) ref.current?.focus();
  }, [shown]);
  return ref;
}
