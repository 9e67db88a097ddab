import type { TypedContent } from '../contract/index.ts';
import type { DeriveContext } from '../core/derive/deriver.ts';
import { namesFirstName, selfFirstName, selfFirstNameOf } from '../core/derive/resolve-owner.ts';
import type { BrainUnitOfWork } from '../ports/index.ts';

/**
 * What the rules know of the Brain to derive these Records: its self, and, where one of them names the
 * self's first name alone (a chat export's "Maya" for "Maya Costa"), whether that name is the self's:
 * it is, unless another speaker of the Brain has that first name ("Maya Silva"), when "Maya" may be
 * either and is nobody known (resolve-owner.ts selfFirstNameOf, the rule a Context's speaker checks
 * read too). Asked only then: most Records never name it, and it reads the messages written since it
 * was last asked (core/derive/speakers-by-first-name.ts). Each Record is derived by what the Brain
 * held when its turn came; a namesake's first message lists "Maya"'s earlier Records to be derived
 * again (namesake.ts). A message whose words name her by it ("Maya's birthday is May 4." in her
 * partner's) has it read as hers too, only where it is hers (`self`).
 */
export async function deriveContext(
  uow: Pick<BrainUnitOfWork, 'self' | 'speakersFirstNamed'>,
  contents: readonly TypedContent[],
): Promise<DeriveContext> {
  const self = await uow.self();
  const ask = (name: string) => uow.speakersFirstNamed(name);
  const spoken = await selfFirstNameOf(self, contents.flatMap(namesIn), ask);
  if (spoken !== undefined) return { self, selfFirstName: spoken };
  // Her first name in a message's words is hers where nobody else known has it. Where somebody does,
  // it stays another person's name, as it was before words were read for it ("Maya's birthday …" of
  // a "Maya"): a speaker "Maya" alone is nobody known then, which says no more.
  const first = selfFirstName(self);
  const written =
    first !== null && contents.some((c) => c.kind === 'message' && namesFirstName(c.text, first))
      ? await selfFirstNameOf(self, [first], ask)
      : undefined;
  return written === 'self' ? { self, selfFirstName: written } : { self };
}

/** Whom a Record names as a person: a message's speaker, an event's participants. */
function namesIn(c: TypedContent): Array<string | undefined> {
  if (c.kind === 'message') return [c.speaker];
  if (c.kind === 'event') return c.participants ?? [];
  return [];
}
