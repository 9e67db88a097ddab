import { useEffect, useRef } from 'react';

/**
 * The "next page" button under an infinite list. While a page loads it stays focusable (aria-disabled,
 * not disabled: a disabled button drops keyboard focus to <body>). Once the last page is in it gives
 * way to a short "end of the list" line, which takes focus if the button had it.
 */
export function ShowMore({
  list,
  label,
}: {
  list: {
    hasNextPage: boolean;
    isFetching: boolean;
    isFetchingNextPage: boolean;
    fetchNextPage: (options?: { cancelRefetch?: boolean }) => Promise<unknown>;
    data?: { pages: unknown[] } | undefined;
  };
  label: string;
}) {
  const hadFocus = useRef(false);
  const end = useRef<HTMLParagraphElement>(null);
  const done = !list.hasNextPage;
  useEffect(() => {
    if (done && hadFocus.current) end.current?.focus();
    hadFocus.current = false;
  }, [done]);
  if (done) {
    return (list.data?.pages.length ?? 0) > 1 ? (
      <p className="muted small" tabIndex={-1} ref={end}>
        That is the whole list.
      </p>
    ) : null;
  }
  const busy = list.isFetchingNextPage;
  return (
    <button
      type="button"
      aria-disabled={busy || undefined}
      onClick={(e) => {
        if (busy) return;
        hadFocus.current = document.activeElement === e.currentTarget;
        // A second click before the label turns to "Loading…" waits for the page on its way, rather
        // than cancel it and ask for the same page again. A refetch of the pages held (the list kept
        // up with the Brain) is no next page: waited on, it swallowed the click, so it gives way.
        void list.fetchNextPage({ cancelRefetch: list.isFetching && !list.isFetchingNextPage });
      }}
    >
      {busy ? 'Loading…' : label}
    </button>
  );
}
