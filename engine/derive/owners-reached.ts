import type { OwnerClaim } from '../core/derive/deriver.ts';
import type { MemoryVersionRow } from '../ports/index.ts';

/**
 * Whose statements a change said by `owner` may reach (a plan moved, a task done), in the order they
 * are tried: the owner's own, and, for the Brain's person, statements of no known owner too. A checklist
 * or a note written with no speaker is unresolved (it may be anyone's), yet "I renewed my passport" is
 * said of the to-do list in her notes.
 */
export function ownersReached(
  owner: OwnerClaim,
): Array<Pick<MemoryVersionRow, 'owner_state' | 'owner_entity'>> {
  const own = { owner_state: owner.state, owner_entity: owner.entity ?? null };
  return owner.state === 'self' ? [own, { owner_state: 'unresolved', owner_entity: null }] : [own];
}
