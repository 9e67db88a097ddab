/**
 * Rows still `processing` in a newest-first list (Records, Traces) turn ready in the background. The
 * list used TanStack's `refetchInterval`, which reads every loaded page again: a Records list shown 20
 * pages deep was read 20 times a second while any one row, usually the newest, was processing (an
 * agent writing, an import being derived). Here only the pages holding such a row are read again, each
 * from its own cursor, and put in place of what it held.
 */
import { useEffect } from 'react';
import { useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { pendingPages, withPageRead, type ListPage, type Loaded, type PendingRow } from './pending-pages.ts';

/** One round: each page holding a processing row is read again (in turn) and put in its place. */
export async function readPendingPages<T extends PendingRow>(
  qc: QueryClient,
  key: QueryKey,
  read: (cursor: string | null) => Promise<ListPage<T>>,
): Promise<void> {
  const data = qc.getQueryData<Loaded<T>>(key);
  if (!data) return;
  for (const at of pendingPages(data)) {
    const cursor = (data.pageParams[at] ?? null) as string | null;
    const fresh = await read(cursor);
    qc.setQueryData<Loaded<T>>(key, (now) =>
      // Only while the page is still where it was read from (Show more or a refetch may have moved it).
      now && (now.pageParams[at] ?? null) === cursor ? withPageRead(now, at, fresh) : now,
    );
  }
}

/** The longest wait between rounds while they fail (the server gone): as the Brain's polls back off. */
const longestMs = 10_000;

/**
 * While a loaded row of the list under `key` is processing, reads the pages holding one again every
 * `everyMs` (doubling, up to 10 s, while reads fail). `read` reads the list's page after a cursor.
 */
export function usePendingRows<T extends PendingRow>(
  key: QueryKey,
  data: Loaded<T> | undefined,
  read: (cursor: string | null) => Promise<ListPage<T>>,
  everyMs: number,
): void {
  const qc = useQueryClient();
  const waiting = pendingPages(data).length > 0;
  const keyText = JSON.stringify(key);
  useEffect(() => {
    if (!waiting) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout>;
    let wait = everyMs;
    const round = async () => {
      try {
        await readPendingPages(qc, key, read);
        wait = everyMs;
      } catch {
        wait = Math.min(longestMs, wait * 2);
      }
      if (!stopped) timer = setTimeout(() => void round(), wait);
    };
    timer = setTimeout(() => void round(), wait);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
    // `key` and `read` are new objects on each render; the list they name is the same while keyText is.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [waiting, keyText, everyMs, qc]);
}
