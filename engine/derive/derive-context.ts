import type { TypedContent } from '../contract/index.ts';
import type { DeriveContext } from '../core/derive/deriver.ts';
import { foldName, selfFirstName } from '../core/derive/resolve-owner.ts';
import type { BrainUnitOfWork } from '../ports/index.ts';

/**
 * What the rules know of the Brain to derive these Records: its self, and, where one of them names the
 * self's first name alone (a chat export's "Maya" for "Maya Costa"), whether that name is the self's:
 * it is, unless another speaker of the Brain has that first name ("Maya Silva"), when "Maya" may be
 * either and is nobody known. Asked only then: most Records never name it, and it reads the messages
 * written since it was last asked (core/derive/speakers-by-first-name.ts). A speaker first seen after "Maya" was derived does not derive her again; each
 * Record is derived by what the Brain held when its turn came (the next rules version derives all).
 */
export async function deriveContext(
  uow: Pick<BrainUnitOfWork, 'self' | 'speakersFirstNamed'>,
  contents: readonly TypedContent[],
): Promise<DeriveContext> {
  const self = await uow.self();
  const first = selfFirstName(self);
  if (first === null || !contents.some((c) => namesAlone(c, first))) return { self };
  const own = foldName(self!.name);
  const others = (await uow.speakersFirstNamed(first)).filter((n) => n !== own && n !== first);
  return { self, selfFirstName: others.length > 0 ? 'ambiguous' : 'self' };
}

/** Whether a Record names someone by `first` alone: a message's speaker, an event's participant. */
function namesAlone(c: TypedContent, first: string): boolean {
  if (c.kind === 'message') return c.speaker !== undefined && foldName(c.speaker) === first;
  if (c.kind === 'event') return (c.participants ?? []).some((p) => foldName(p) === first);
  return false;
}
