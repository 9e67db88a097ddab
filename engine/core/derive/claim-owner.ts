import type { Claim, DerivableRecord, DeriveContext } from './deriver.ts';
import { resolveOwner } from './resolve-owner.ts';

/** Whom a claim is about (its subject) and whose it is (its owner). */
export type ClaimOwner = Pick<Claim, 'subject' | 'owner'>;

/**
 * Whom the rules take a Record's claims to be about and whose they are, from its own fields:
 * - fact: its subject, owned as that name resolves (resolve-owner.ts);
 * - message: its speaker, by the name they resolve to (the self's own name for "me", and for the self's
 *   first name alone where the Brain knows nobody else by it: ctx.selfFirstName), owned so;
 * - event: its title, owned by the self when the self takes part in it (a participant resolves to
 *   them), else unresolved;
 * - document: its title, else its source's name; unresolved;
 * - correction: derived into no claim, but a correction stated of one (a correction of a correction's
 *   version whose Memory is not here) is about it as an untitled document is.
 * One rule for the rule deriver and for a correction from another side stated as a Memory of its own
 * (engine/derive/travelled-correction.ts): owned otherwise, it is not found by the same statement the
 * rules derived here, and a Memory of the self's own event reads as nobody's.
 */
export function claimOwner(
  record: Pick<DerivableRecord, 'content' | 'sourceName'>,
  ctx: DeriveContext,
): ClaimOwner {
  const { self, selfFirstName } = ctx;
  const c = record.content;
  switch (c.kind) {
    case 'fact':
      return { subject: c.subject, owner: resolveOwner(c.subject, self) };
    case 'message': {
      const owner = resolveOwner(c.speaker, self, selfFirstName);
      // A blank speaker names nobody, as none does: not a Memory about ''.
      return { subject: owner.entity ?? (c.speaker?.trim() || 'unknown speaker'), owner };
    }
    case 'event': {
      const selfIn = (c.participants ?? []).some(
        (p) => resolveOwner(p, self, selfFirstName).state === 'self',
      );
      return { subject: c.title, owner: selfIn ? resolveOwner('self', self) : { state: 'unresolved' } };
    }
    case 'document':
      return { subject: c.title ?? record.sourceName ?? 'document', owner: { state: 'unresolved' } };
    case 'correction':
      return { subject: record.sourceName ?? 'correction', owner: { state: 'unresolved' } };
  }
}
