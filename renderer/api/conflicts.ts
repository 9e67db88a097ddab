import type { Memory } from '../../engine/contract/index.ts';

export interface ContestedSlot {
  subject: string;
  predicate: string;
  values: Memory[];
}

/**
 * Groups active Memories by slot (subject + predicate) and keeps the slots holding more than one
 * value: the engine only leaves two actives in a slot when neither source supersedes the other.
 * Memories without a predicate hold no slot and cannot conflict.
 */
export function findConflicts(memories: readonly Memory[]): ContestedSlot[] {
  const slots = new Map<string, ContestedSlot>();
  for (const m of memories) {
    if (m.status !== 'active' || m.predicate === null) continue;
    const key = `${m.subject}\u0000${m.predicate}`;
    const slot = slots.get(key) ?? { subject: m.subject, predicate: m.predicate, values: [] };
    slot.values.push(m);
    slots.set(key, slot);
  }
  return [...slots.values()]
    .filter((s) => new Set(s.values.map((v) => v.statement)).size > 1)
    .sort((a, b) => a.subject.localeCompare(b.subject) || a.predicate.localeCompare(b.predicate));
}
