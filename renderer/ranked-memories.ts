import type { Citation, Memory } from '../engine/contract/index.ts';

/**
 * A Context's Memories in the order the engine ranked their evidence. The API lists them by id (when
 * each was learned), but its `citations` are the ranking (the benchmarks read it so:
 * docs/decisions/retrieval.md): a Memory's place is that of its best-ranked cited Record. Memories
 * whose Records are ranked alike keep the API's order; one citing no ranked Record goes last.
 */
export function rankedMemories(citations: readonly Citation[], memories: readonly Memory[]): Memory[] {
  const rank = new Map<string, number>();
  for (const c of citations) if (!rank.has(c.record_id)) rank.set(c.record_id, rank.size);
  const place = (m: Memory) =>
    Math.min(...m.citations.map((c) => rank.get(c.record_id) ?? Infinity), Infinity);
  return memories
    .map((m, i) => ({ m, i, at: place(m) }))
    .sort((a, b) => a.at - b.at || a.i - b.i)
    .map((x) => x.m);
}
