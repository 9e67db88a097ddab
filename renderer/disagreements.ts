import type { Memory } from '../engine/contract/index.ts';
import { slotsOf } from './api/conflicts.ts';

/**
 * For each contested Memory, the other values of its slot (grouped by `slot`, so "user · home_city"
 * and "User · Home City" are one; empty when the others were past the pages read: the Memory is still
 * contested).
 */
export function disagreements(contested: readonly Memory[]): Map<string, Memory[]> {
  const slots = slotsOf(contested);
  return new Map(
    contested.map((m) => [
      m.id,
      (m.slot === null ? [] : (slots.get(m.slot)?.values ?? [])).filter(
        (o) => o.id !== m.id && o.statement !== m.statement,
      ),
    ]),
  );
}
