import type { MemoryRepository, MemoryVersionRow } from '../ports/index.ts';

/**
 * The current statements of no slot of `owner`, known before `beforeMs`, that the Records citing the
 * Memories `of` also said, each lineage once and none of `of`'s: what was said beside a value or a plan
 * in the same Records, which changed-plans.ts and tied-statements.ts close with it when it ends.
 */
export async function sameRecordStatements(
  memories: MemoryRepository,
  of: readonly Pick<MemoryVersionRow, 'id' | 'lineage'>[],
  owner: Pick<MemoryVersionRow, 'owner_state' | 'owner_entity'>,
  beforeMs: number,
): Promise<{ lineage: string; statement: string }[]> {
  if (of.length === 0) return [];
  const records = (
    await memories.citations(
      of.map((m) => m.id),
      { shareableOnly: false },
    )
  ).map((c) => c.record_id);
  if (records.length === 0) return [];
  const skip = new Set(of.map((m) => m.lineage));
  const found: { lineage: string; statement: string }[] = [];
  for (const { id, lineage } of await memories.citing(records)) {
    if (skip.has(lineage)) continue;
    const m = await memories.get(id);
    if (
      m === null ||
      m.status !== 'active' ||
      m.pending ||
      m.slot !== null ||
      m.valid_from_ms >= beforeMs ||
      m.owner_state !== owner.owner_state ||
      m.owner_entity !== owner.owner_entity
    )
      continue;
    skip.add(lineage);
    found.push({ lineage, statement: m.statement });
  }
  return found;
}
