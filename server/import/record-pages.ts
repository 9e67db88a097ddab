import type { RecordPage } from '../../engine/contract/index.ts';

/** What a page of a Brain's Records is asked with, beside the caller's own filters. */
export interface PageQuery {
  limit: number;
  cursor?: string;
}

/**
 * Each page of Records LISTPAGE (listRecords of the engine or of the API client) answers for Q, 200 at a
 * time, following next_cursor to the last. A page read as null (nothing the caller may read) is yielded
 * as null and ends it: the caller tells "may not read" from "none".
 */
export async function* recordPages<Q extends object>(
  listPage: (q: Q & PageQuery) => Promise<RecordPage | null>,
  q: Q,
): AsyncGenerator<RecordPage | null> {
  let cursor: string | undefined;
  do {
    const page = await listPage({ ...q, limit: 200, ...(cursor ? { cursor } : {}) });
    yield page;
    if (page === null) return;
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
}
