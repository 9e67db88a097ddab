import { MnemoError } from '../../errors/mnemo-error.ts';

/** Opaque cursors: base64url of the last id served. Anything undecodable is invalid_request_body. */
export function encodeCursor(lastId: string): string {
  return Buffer.from(`c1:${lastId}`).toString('base64url');
}

export function decodeCursor(cursor: string): string {
  const raw = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!raw.startsWith('c1:') || raw.length < 4)
    throw new MnemoError('invalid_request_body', 'cursor: not a cursor this server issued');
  return raw.slice(3);
}

/**
 * A list's cursor: the last id it served, which begins with the list's own prefix. Another list's cursor
 * (a listRecords cursor sent to listMemories) is refused rather than read as "after everything": that
 * answered an empty last page, as if the list had ended.
 */
export function decodeIdCursor(cursor: string, prefix: 'rec_' | 'mem_', list: string): string {
  const id = decodeCursor(cursor);
  if (!id.startsWith(prefix))
    throw new MnemoError('invalid_request_body', `cursor: not a cursor of ${list}; send the one it answered`);
  return id;
}

/**
 * One page of rows already in cursor order and past the cursor: at most `limit` of them, with
 * `next_cursor` naming the last id served when more remain. Pass at least limit + 1 rows to detect more.
 */
export function pageOf<T extends { id: string }>(
  rows: T[],
  limit: number,
): { data: T[]; has_more: boolean; next_cursor: string | null } {
  const data = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  return { data, has_more: hasMore, next_cursor: hasMore ? encodeCursor(data[data.length - 1]!.id) : null };
}
