import type { TypedContent } from '../contract/index.ts';
import type { DeriveContext } from '../core/derive/deriver.ts';
import { selfFirstNameOf } from '../core/derive/resolve-owner.ts';
import type { BrainUnitOfWork } from '../ports/index.ts';

/**
 * What the rules know of the Brain to derive these Records: its self, and, where one of them names the
 * self's first name alone (a chat export's "Maya" for "Maya Costa"), whether that name is the self's:
 * it is, unless another speaker of the Brain has that first name ("Maya Silva"), when "Maya" may be
 * either and is nobody known (resolve-owner.ts selfFirstNameOf, the rule a Context's speaker checks
 * read too). Asked only then: most Records never name it, and it reads the messages written since it
 * was last asked (core/derive/speakers-by-first-name.ts). Each Record is derived by what the Brain
 * held when its turn came; a namesake's first message lists "Maya"'s earlier Records to be derived
 * again (namesake.ts).
 */
export async function deriveContext(
  uow: Pick<BrainUnitOfWork, 'self' | 'speakersFirstNamed'>,
  contents: readonly TypedContent[],
): Promise<DeriveContext> {
  const self = await uow.self();
  const selfFirstName = await selfFirstNameOf(self, contents.flatMap(namesIn), (first) =>
    uow.speakersFirstNamed(first),
  );
  return selfFirstName === undefined ? { self } : { self, selfFirstName };
}

/** Whom a Record names as a person: a message's speaker, an event's participants. */
function namesIn(c: TypedContent): Array<string | undefined> {
  if (c.kind === 'message') return [c.speaker];
  if (c.kind === 'event') return c.participants ?? [];
  return [];
}
