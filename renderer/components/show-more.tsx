/** The "next page" button under an infinite list; renders nothing once the last page is in. */
export function ShowMore({
  list,
  label,
}: {
  list: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => Promise<unknown> };
  label: string;
}) {
  if (!list.hasNextPage) return null;
  return (
    <button type="button" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
      {list.isFetchingNextPage ? 'Loading…' : label}
    </button>
  );
}
