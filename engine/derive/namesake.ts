import type { SelfEntity, TypedContent } from '../contract/index.ts';
import { foldName, givenName, sameName, selfFirstName } from '../core/derive/resolve-owner.ts';
import type { BrainUnitOfWork } from '../ports/index.ts';

/**
 * The self's first name (folded), when the message `content`, written at step `seq`, is the Brain's
 * first by another person of that first name ("Maya Silva" where the self is "Maya Costa"); else null.
 * Records that named the first name alone before it ("Maya") were derived as the self's, and may be
 * either now: they are derived again (upgrade-derivation.ts relistNaming), as a Record derived after
 * this one is derived as nobody known (derive-context.ts). Asked only of a message whose speaker has
 * that first name and more, so most Records read nothing. `self`: the Brain's, as the job read it.
 */
export async function namesakeArrives(
  uow: Pick<BrainUnitOfWork, 'speakersFirstNamed'>,
  self: SelfEntity | null,
  content: TypedContent,
  seq: number,
): Promise<string | null> {
  if (content.kind !== 'message' || content.speaker === undefined) return null;
  const name = foldName(content.speaker);
  if (!name.includes(' ')) return null;
  const word = givenName(name);
  if (word === null) return null;
  const first = selfFirstName(self);
  const own = foldName(self?.name ?? '');
  if (first === null || word !== first || sameName(name, own)) return null;
  const before = await uow.speakersFirstNamed(first, seq);
  return before.some((n) => n !== own && n !== first) ? null : first;
}
