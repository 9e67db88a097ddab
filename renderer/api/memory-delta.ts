/**
 * A Memories delta (a `since_watermark` read) applied to a loaded Memories list: pure, so it is tested
 * under Node without the React the rest of useFollowBrain needs (a loaded list is TanStack's
 * InfiniteData of pages).
 */
import type { Memory, MemoryPage } from '../../engine/contract/index.ts';
import type { MemoryListParams } from '../../server/client/index.ts';

/** What changed after a watermark: the Memories as they are now, and the ids that left the served set. */
export interface Delta {
  changed: Memory[];
  removed: Set<string>;
}

const matchesStatus = (m: Memory, status: MemoryListParams['status']) =>
  status === 'all' || m.status === (status ?? 'active');

/**
 * A Memory list (ordered by id, `order` as the list asked) with a delta applied: changed rows replaced
 * in place, new ones inserted.
 */
export function applyDeltaToList<L extends { pages: MemoryPage[] }>(
  data: L,
  delta: Delta,
  status: MemoryListParams['status'],
  order: MemoryListParams['order'] = 'asc',
): L {
  // Whether id `a` comes before id `b` in the list: newest first, a new Memory (the highest id) is on top.
  const before = (a: string, b: string) => (order === 'desc' ? a > b : a < b);
  const changed = new Map(delta.changed.map((m) => [m.id, m]));
  const last = data.pages.at(-1);
  const lastId = last?.data.at(-1)?.id;
  const complete = last ? !last.has_more : true;
  const pages = data.pages.map((p) => ({
    ...p,
    data: p.data.flatMap((m) => {
      if (delta.removed.has(m.id)) return [];
      const c = changed.get(m.id);
      changed.delete(m.id);
      if (!c) return [m];
      return matchesStatus(c, status) ? [c] : [];
    }),
  }));
  // New rows: those inside the loaded range go where the list's order puts them; past its end, only when
  // the list is complete (otherwise "Show more" brings them).
  for (const m of changed.values()) {
    if (!matchesStatus(m, status)) continue;
    if (!complete && (lastId === undefined || before(lastId, m.id))) continue;
    const page = pages.find((p) => p.data.length && before(m.id, p.data.at(-1)!.id)) ?? pages.at(-1);
    if (!page) continue;
    const at = page.data.findIndex((x) => before(m.id, x.id));
    if (at === -1) page.data.push(m);
    else page.data.splice(at, 0, m);
  }
  return { ...data, pages };
}
