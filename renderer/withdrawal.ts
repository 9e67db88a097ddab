import type { MemoryRevision } from '../engine/contract/index.ts';

const never = (r: MemoryRevision) =>
  r.valid_to !== null && Date.parse(r.valid_to) <= Date.parse(r.valid_from);

/**
 * The value a withdrawal of the version `shownId` leaves current, as the engine settles its slot again
 * without it (engine/core/derive/settle-lineage.ts: the rest form one timeline by world time, and the
 * latest start holds): the latest version that began by `nowMs`, other than one withdrawn already or
 * one a correction replaced where it began (its span is "never"). For a value that starts later, what
 * is current now simply stays. Undefined: nothing takes its place.
 */
export function currentAfterWithdrawal(
  revisions: readonly MemoryRevision[],
  shownId: string,
  nowMs: number,
): MemoryRevision | undefined {
  const shown = revisions.find((r) => r.id === shownId);
  if (!shown) return undefined;
  const others = revisions.filter((r) => r.id !== shownId);
  if (shown.status === 'scheduled') return others.filter((r) => r.status === 'active').at(-1);
  if (shown.status !== 'active') return undefined;
  let best: MemoryRevision | undefined;
  for (const r of others) {
    if (r.status === 'retracted' || r.status === 'scheduled' || never(r)) continue;
    const from = Date.parse(r.valid_from);
    if (from > nowMs) continue;
    const bestFrom = best ? Date.parse(best.valid_from) : -Infinity;
    if (from > bestFrom || (from === bestFrom && best && r.version > best.version)) best = r;
  }
  return best;
}

/**
 * The values current now in place of a version that is no longer (withdrawn or replaced), newest
 * version first: what its page points to. A value starting later is named when nothing is current.
 */
export function currentInstead(revisions: readonly MemoryRevision[], shownId: string): MemoryRevision[] {
  const others = revisions.filter((r) => r.id !== shownId).reverse();
  const active = others.filter((r) => r.status === 'active');
  return active.length > 0 ? active : others.filter((r) => r.status === 'scheduled').slice(0, 1);
}

/**
 * The version that took a replaced version's place: the one starting where it ended (the latest
 * written, if several do). Not always the one in force now: "I live in Lisbon" was replaced by "Ana
 * lives in Porto" even once "Ana no longer lives in Porto" is current, and naming only that would say
 * Lisbon gave way to a statement about Porto. Undefined when none starts there.
 */
export function replacedBy(
  revisions: readonly MemoryRevision[],
  shownId: string,
): MemoryRevision | undefined {
  const shown = revisions.find((r) => r.id === shownId);
  if (!shown || shown.status !== 'superseded' || shown.valid_to === null) return undefined;
  const end = Date.parse(shown.valid_to);
  return revisions
    .filter((r) => r.id !== shownId && r.status !== 'retracted' && !never(r))
    .filter((r) => Date.parse(r.valid_from) === end)
    .at(-1);
}
