import type { Memory } from '../../engine/contract/index.ts';

export interface ContestedSlot {
  slot: string;
  subject: string;
  predicate: string;
  values: Memory[];
}

/**
 * Groups active Memories by the slot the engine keys them by and keeps the slots holding more than
 * one value: the engine only leaves two actives in a slot when neither source supersedes the other.
 * Grouped by `slot`, not by subject and predicate as spelled: "user · home_city" and "User · Home City"
 * (or "me" and the Brain's own name) are one slot, and grouping by the spelling showed neither value.
 * Memories without a slot cannot conflict.
 */
export function findConflicts(memories: readonly Memory[]): ContestedSlot[] {
  return [...slotsOf(memories).values()]
    .filter((s) => new Set(s.values.map((v) => v.statement)).size > 1)
    .sort((a, b) => a.subject.localeCompare(b.subject) || a.predicate.localeCompare(b.predicate));
}

/**
 * Contested values whose slot shows only one of them: while the list of contested Memories is read
 * in steps (oldest first), the other values of such a slot are further on, so it is held back, not
 * shown as a conflict of one.
 */
export function valuesAwaitingOthers(memories: readonly Memory[]): number {
  let waiting = 0;
  for (const s of slotsOf(memories).values()) if (s.values.length === 1) waiting += 1;
  return waiting;
}

/** Active Memories by the slot they hold (those holding none left out). */
export function slotsOf(memories: readonly Memory[]): Map<string, ContestedSlot> {
  const slots = new Map<string, ContestedSlot>();
  for (const m of memories) {
    if (m.status !== 'active' || m.slot === null || m.predicate === null) continue;
    const slot = slots.get(m.slot) ?? {
      slot: m.slot,
      subject: m.subject,
      predicate: m.predicate,
      values: [],
    };
    slot.values.push(m);
    slots.set(m.slot, slot);
  }
  return slots;
}

/**
 * The contested list's Memories once more read is added: each once (a slot read again after a change
 * can reach past where the list stopped), in the list's order, by id.
 */
export const inListOrder = (ms: readonly Memory[]): Memory[] =>
  [...new Map(ms.map((m) => [m.id, m])).values()].sort((a, b) => (a.id < b.id ? -1 : 1));
