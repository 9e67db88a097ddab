import { newId } from '../ids.ts';
import type { OwnerClaim } from '../core/derive/deriver.ts';
import type { MemoryCause, MemoryRepository } from '../ports/index.ts';

export interface NewMemory {
  brainUid: string;
  lineage: string;
  slot: string | null;
  version: number;
  statement: string;
  norm: string;
  subject: string;
  predicate: string | null;
  owner: OwnerClaim;
  sourceKey: string;
  validFrom: string;
  validFromMs: number;
  corrects: string | null;
  seq: number;
  learnedAt: string;
  cause: MemoryCause;
  citations: { recordId: string; quote: string }[];
}

/**
 * Writes one Memory version with its citations. Status starts active; the caller settles the lineage
 * afterwards.
 */
export async function insertMemory(
  memories: Pick<MemoryRepository, 'insert'>,
  m: NewMemory,
): Promise<string> {
  if (m.citations.length === 0)
    throw new Error('memory_without_lineage: refusing to write a Memory without citations');
  const id = newId('mem');
  await memories.insert(
    { id, brain_uid: m.brainUid, ...versionFields(m), pending: false, corrects: m.corrects },
    m.citations.map((c) => ({ record_id: c.recordId, quote: c.quote })),
  );
  return id;
}

/**
 * Writes the Memory version `m` as insertMemory does, or, given `adopt`, into that Memory's row
 * instead: its id and every citation it has kept, the new version's citations added, everything else
 * as a new version's. The upgrade pass re-owns a Memory so (upgrade-derivation.ts, reown): what the same Record says of the same thing,
 * now another's, is placed as its claim would be and keeps the id a client holds. Returns the id.
 */
export async function placeMemory(
  memories: Pick<MemoryRepository, 'insert' | 'update' | 'addCitation'>,
  m: NewMemory,
  adopt: string | undefined,
): Promise<string> {
  if (adopt === undefined) return insertMemory(memories, m);
  await memories.update(adopt, versionFields(m));
  // Its citations are kept; those the new version has beside them (an address's city) are added.
  for (const c of m.citations)
    await memories.addCitation({ memory_id: adopt, record_id: c.recordId, quote: c.quote }, m.seq);
  return adopt;
}

/** What a version written anew holds, whether into a new row or into one it re-owns. */
function versionFields(m: NewMemory) {
  return {
    lineage: m.lineage,
    slot: m.slot,
    version: m.version,
    statement: m.statement,
    norm: m.norm,
    subject: m.subject,
    predicate: m.predicate,
    owner_state: m.owner.state,
    owner_entity: m.owner.entity ?? null,
    source_key: m.sourceKey,
    valid_from: m.validFrom,
    valid_from_ms: m.validFromMs,
    valid_to: null,
    valid_to_ms: null,
    status: 'active' as const,
    retracted_by: null,
    revised_by: null,
    seq: m.seq,
    learned_at: m.learnedAt,
    cause: m.cause,
  };
}

/** The version a new one of a lineage takes: one past the highest of `versions` (none: 1). */
export const nextVersion = (versions: readonly { version: number }[]): number =>
  versions.reduce((max, v) => Math.max(max, v.version), 0) + 1;
