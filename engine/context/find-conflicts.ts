import { citationsByMemory } from '../core/shared/memory-shape.ts';
import type { Conflict } from '../contract/index.ts';
import type { ContextReads, ContextReadTime, MemoryReads, SlotValue } from '../ports/index.ts';

/**
 * Slots (subject, predicate) touched by the given Memories that hold two or more served values at the
 * read time: sources that neither supersedes. Returns one Conflict per slot, with each value cited,
 * and the Memory ids involved.
 *
 * A value counts only through the Records this request may see (filters, as_of, hosted local_only):
 * its other citations are left out and a value with none is no value here. Otherwise a conflict would
 * quote a Record the filter excluded, or a local_only one on a hosted deployment, and abstain over it.
 */
export async function findConflicts(
  u: { readonly context: ContextReads; readonly memories: Pick<MemoryReads, 'citations'> },
  memoryIds: string[],
  at: ContextReadTime,
): Promise<{ conflicts: Conflict[]; conflicted: Set<string> }> {
  const conflicts: Conflict[] = [];
  const conflicted = new Set<string>();
  if (memoryIds.length === 0) return { conflicts, conflicted };
  const slots = new Map<string, SlotValue[]>();
  for (const v of await u.context.slotValues(memoryIds, at)) {
    const values = slots.get(v.lineage) ?? [];
    values.push(v);
    slots.set(v.lineage, values);
  }
  const contested = [...slots.values()].filter((values) => values.length >= 2);
  if (contested.length === 0) return { conflicts, conflicted };
  const cites = citationsByMemory(
    await u.memories.citations(
      contested.flat().map((v) => v.id),
      { shareableOnly: false },
    ),
  );
  const visible = await visibleRecords(
    u.context,
    [...cites.values()].flat().map((c) => c.record_id),
    at.scope,
  );
  for (const values of contested) {
    const shown = values
      .map((v) => ({
        memory_id: v.id,
        statement: v.statement,
        valid_from: v.valid_from,
        citations: (cites.get(v.id) ?? []).filter((c) => visible.has(c.record_id)),
      }))
      .filter((v) => v.citations.length > 0);
    if (shown.length < 2) continue;
    conflicts.push({ subject: values[0]!.subject, predicate: values[0]!.predicate, values: shown });
    for (const v of shown) conflicted.add(v.memory_id);
  }
  return { conflicts, conflicted };
}

/** Which of the Records the request may see (filters, as_of, hosted local_only). */
export async function visibleRecords(
  reads: ContextReads,
  recordIds: string[],
  scope: ContextReadTime['scope'],
): Promise<Set<string>> {
  return new Set(await reads.visible([...new Set(recordIds)], scope));
}
