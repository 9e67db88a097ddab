import type { Citation, Memory, MemoryStatus } from '../../contract/index.ts';
import { MnemoError } from '../../errors/mnemo-error.ts';
import type { CitationRow, MemoryVersionRow } from '../../ports/index.ts';

/** What a Memory shows of its stored version. */
export type MemoryFields = Pick<
  MemoryVersionRow,
  | 'id'
  | 'statement'
  | 'subject'
  | 'predicate'
  | 'slot'
  | 'lineage'
  | 'owner_state'
  | 'owner_entity'
  | 'valid_from'
  | 'valid_to'
  | 'version'
>;

/**
 * A version as the contract shows it, with its effective status and the citations the reader may
 * see. A Memory without citations is a bug and is never served: a reader that may see only some
 * Records must have selected versions that keep one.
 */
export function toMemory(r: MemoryFields, status: MemoryStatus, citations: Citation[]): Memory {
  if (citations.length === 0) {
    throw new MnemoError('memory_without_lineage', `Memory ${r.id} has no supporting Records`);
  }
  return {
    id: r.id,
    object: 'memory',
    statement: r.statement,
    subject: r.subject,
    predicate: r.predicate,
    // A lineage is exactly the versions of one slot (migration 014), so its id names the slot.
    slot: r.slot !== null ? r.lineage : null,
    owner:
      r.owner_entity !== null ? { state: r.owner_state, entity: r.owner_entity } : { state: r.owner_state },
    valid_from: r.valid_from,
    valid_to: r.valid_to,
    version: r.version,
    status,
    citations,
  };
}

/** Citations grouped by Memory, each group in the order they came (by Memory, then Record id). */
export function citationsByMemory(cites: readonly CitationRow[]): Map<string, Citation[]> {
  const out = new Map<string, Citation[]>();
  for (const c of cites) {
    const list = out.get(c.memory_id) ?? [];
    list.push({ record_id: c.record_id, quote: c.quote });
    out.set(c.memory_id, list);
  }
  return out;
}
