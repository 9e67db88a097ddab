import type { SelfEntity, TypedContent } from '../contract/index.ts';
import type { DeriveContext } from '../core/derive/deriver.ts';
import { firstNameWords, oneKnownPerson } from '../core/derive/known-first-name.ts';
import { foldName, namesFirstName, selfFirstName, selfFirstNameOf } from '../core/derive/resolve-owner.ts';
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
  uow: Pick<BrainUnitOfWork, 'self' | 'speakersFirstNamed' | 'memories'>,
  contents: readonly TypedContent[],
): Promise<DeriveContext> {
  const self = await uow.self();
  const ask = (name: string) => uow.speakersFirstNamed(name);
  const known = await knownFirstNames(uow, self, contents);
  const withKnown = (ctx: DeriveContext): DeriveContext =>
    known.size > 0 ? { ...ctx, knownFirstNames: known } : ctx;
  const spoken = await selfFirstNameOf(self, contents.flatMap(namesIn), ask);
  if (spoken !== undefined) return withKnown({ self, selfFirstName: spoken });
  // Her first name in a message's words is hers where nobody else known has it. Where somebody does,
  // it stays another person's name, as it was before words were read for it ("Maya's birthday …" of
  // a "Maya"): a speaker "Maya" alone is nobody known then, which says no more.
  const first = selfFirstName(self);
  const written =
    first !== null && contents.some((c) => c.kind === 'message' && namesFirstName(c.text, first))
      ? await selfFirstNameOf(self, [first], ask)
      : undefined;
  return withKnown(written === 'self' ? { self, selfFirstName: written } : { self });
}

/**
 * Other people's first names the Records' words say alone, each to the one whole name the Brain knows
 * by it from a slot ("marko" to "Marko Babić"; known-first-name.ts oneKnownPerson): one read of the
 * slot index for the capitalised words of messages and notes, and the speakers' only for a first name
 * some slot's whole name begins with. Not the self's first name (selfFirstNameOf's). What the Brain
 * knows when the Record is derived: a "Marko" said before any "Marko Babić" is known stays a "Marko"
 * until the Record is derived again (a rules upgrade).
 */
async function knownFirstNames(
  uow: Pick<BrainUnitOfWork, 'speakersFirstNamed' | 'memories'>,
  self: SelfEntity | null,
  contents: readonly TypedContent[],
): Promise<Map<string, string>> {
  const own = selfFirstName(self);
  const words = [
    ...new Set(
      contents.flatMap((c) =>
        c.kind === 'message' || c.kind === 'document'
          ? firstNameWords(c.text).filter((w) => foldName(w) !== own)
          : [],
      ),
    ),
  ].slice(0, 256);
  const known = new Map<string, string>();
  if (words.length === 0) return known;
  const bySubject = new Map<string, string[]>();
  for (const r of await uow.memories.subjectsFirstNamed(words))
    bySubject.set(r.first, [...(bySubject.get(r.first) ?? []), r.subject]);
  for (const [first, subjects] of bySubject) {
    const whole = oneKnownPerson(first, subjects, await uow.speakersFirstNamed(foldName(first)));
    if (whole !== null) known.set(foldName(first), whole);
  }
  return known;
}

/** Whom a Record names as a person: a message's speaker, an event's participants. */
function namesIn(c: TypedContent): Array<string | undefined> {
  if (c.kind === 'message') return [c.speaker];
  if (c.kind === 'event') return c.participants ?? [];
  return [];
}
