import type { Memory } from '../engine/contract/index.ts';

/**
 * For each contested Memory, the other values of its slot (grouped by `slot`, so "user · home_city"
 * and "User · Home City" are one; empty when the others were past the pages read: the Memory is still
 * contested).
 */
export function disagreements(contested: readonly Memory[]): Map<string, Memory[]> {
  const bySlot = new Map<string, Memory[]>();
  for (const m of contested) if (m.slot !== null) bySlot.set(m.slot, [...(bySlot.get(m.slot) ?? []), m]);
  return new Map(
    contested.map((m) => [
      m.id,
      (m.slot === null ? [] : (bySlot.get(m.slot) ?? [])).filter(
        (o) => o.id !== m.id && o.statement !== m.statement,
      ),
    ]),
  );
}
