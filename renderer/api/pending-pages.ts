/**
 * The pure part of reading again only the pages of a list that hold a row still processing
 * (pending-rows.ts): which pages, and a page read again put in place. Free of React, so it is tested
 * under Node.
 */
export interface PendingRow {
  id: string;
  status: string;
}

export interface ListPage<T> {
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

/** A loaded list: its pages, each read from the cursor (null: the first) at the same place in pageParams. */
export interface Loaded<T> {
  pages: ListPage<T>[];
  pageParams: unknown[];
}

const pending = (page: ListPage<PendingRow>) => page.data.some((r) => r.status === 'processing');

/** Which loaded pages hold a row still processing. */
export const pendingPages = <T extends PendingRow>(data: Loaded<T> | undefined): number[] =>
  (data?.pages ?? []).flatMap((p, i) => (pending(p) ? [i] : []));

/**
 * Loaded page `at` of a list ordered by id, newest first, with `fresh` (that page read again from its
 * own cursor) in place of what it held. Rows of the old page that `fresh` covers and no longer has
 * (forgotten, or no longer matching the filters) go; rows older than the old page's last one belong
 * to the next page and are not taken; rows the fresh read did not reach (more new rows than a page)
 * stay as they were. The first page also takes the rows newer than it held.
 */
export function withPageRead<T extends PendingRow>(
  data: Loaded<T>,
  at: number,
  fresh: ListPage<T>,
): Loaded<T> {
  const old = data.pages[at];
  if (!old || old.data.length === 0) return data;
  const oldest = old.data.at(-1)!.id;
  const reached = fresh.has_more ? (fresh.data.at(-1)?.id ?? null) : null;
  const taken = fresh.data.filter((r) => r.id >= oldest);
  const unreached = reached === null ? [] : old.data.filter((r) => r.id < reached);
  const pages = data.pages.slice();
  pages[at] = { ...old, data: [...taken, ...unreached] };
  return { ...data, pages };
}
