/**
 * Which of `ids` may be read now: the first `limit` not yet read (nor failed), in the order given, so
 * what is needed first is read first and the server never sees more than `limit` of these at once.
 */
export function readsToStart(
  ids: readonly string[],
  settled: (id: string) => boolean,
  limit: number,
): Set<string> {
  const start = new Set<string>();
  for (const id of ids) {
    if (start.size >= limit) break;
    if (!settled(id)) start.add(id);
  }
  return start;
}
