import type { Memory } from '../../engine/contract/index.ts';

/** A current Memory of the self, citing its own statement, for the renderer's pure logic. */
export function mem(
  id: string,
  subject: string,
  predicate: string | null,
  statement: string,
  status: Memory['status'] = 'active',
  slot: string | null = predicate === null ? null : `lin_${subject}_${predicate}`,
): Memory {
  return {
    id,
    object: 'memory',
    statement,
    subject,
    predicate,
    slot,
    owner: { state: 'self' },
    valid_from: '2024-01-01T00:00:00Z',
    valid_to: null,
    version: 1,
    status,
    citations: [{ record_id: 'rec_1', quote: statement }],
  };
}
