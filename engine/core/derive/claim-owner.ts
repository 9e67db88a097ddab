import type { SelfEntity } from '../../contract/index.ts';
import type { Claim, DerivableRecord, DeriveContext } from './deriver.ts';
import { facetNote, ownNote } from './own-note.ts';
import { foldName, resolveOwner } from './resolve-owner.ts';
import { saysOfSelf } from './says-of-self.ts';
import { sentences } from './split-text.ts';

/** Whom a claim is about (its subject) and whose it is (its owner). */
export type ClaimOwner = Pick<Claim, 'subject' | 'owner'>;

/**
 * Whom the rules take a Record's claims to be about and whose they are, from its own fields:
 * - fact: its subject, owned as that name resolves (resolve-owner.ts);
 * - message: its speaker, by the name they resolve to (the self's own name for "me", and for the self's
 *   first name alone where the Brain knows nobody else by it: ctx.selfFirstName), owned so;
 * - event: its title, owned by the self when the self takes part in it (a participant resolves to
 *   them), else unresolved;
 * - document: its title, else its source's name; unresolved, except one whose title says it is about
 *   the self ("About me", "Me", "Maya Costa", "About Maya Costa"), a note of hers in the first person
 *   ("Tom and I booked a trip to Porto", own-note.ts), a note of hers about a facet of her ("Health",
 *   #allergies; own-note.ts facetNote: none holding a line of another's, "Mum: …", nor shared, nor an
 *   article) and an agent's note of "the user" (through MCP): the self's, as her messages are;
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
      // "About me", or a note she keeps in her own words ("Tom and I booked a trip..."): the person's
      // own words, as her messages are (aboutSelf, ownNote). A document has no speaker: who wrote it is
      // the person whose Brain it is, unless the Record says otherwise.
      if (
        self !== null &&
        (aboutSelf(c.title, self) ||
          ownNote(c, record.sourceName, self) ||
          facetNote(c, record.sourceName, self, ctx.knownFirstNames) ||
          agentNoteOfUser(c.text, record.sourceName) ||
          agentNoteNamingSelf(c.text, record.sourceName, self))
      )
        return { subject: self.name, owner: resolveOwner('self', self) };
      return { subject: c.title ?? record.sourceName ?? 'document', owner: { state: 'unresolved' } };
    case 'correction':
      return { subject: record.sourceName ?? 'correction', owner: { state: 'unresolved' } };
  }
}

/**
 * A note an agent keeps through MCP (source `mcp`) about "the user", as agents name the person they
 * serve: "User's sister Maya is a nurse.", "The user prefers tea.", "User lives in Leeds." It is about
 * her, as "About me" is, not about the tool that wrote it. Only where a sentence opens so, with "the user", "user's" or "user" and a verb:
 * "User research notes: …" is about research.
 */
const agentSource = 'mcp';
const opensWithUser =
  /(?:^|[.!?][ \t]+|\n[ \t]*(?:[-*][ \t]+)?)(?:the\s+user(?:['’]s)?|user['’]s|user\s+(?:is|was|has|had|does|did|doesn['’]t|didn['’]t|can|can['’]t|will|would|said|says|told|likes|loves|hates|prefers|wants|needs|lives|works|moved|got|went|mentioned|asked|studies|plays|owns|uses|eats|drinks|is(?:n['’]t)?))\s/iu;
const agentNoteOfUser = (text: string, sourceName: string | null): boolean =>
  sourceName === agentSource && opensWithUser.test(text);

/**
 * An agent's note through MCP that says something of the person by her name, as an agent's message
 * does (says-of-self.ts): "Maya prefers tea.", "Reminder: Maya Costa's flight is at 9." It was the
 * tool's ("mcp"), and missing from her Profile.
 */
const agentNoteNamingSelf = (text: string, sourceName: string | null, self: SelfEntity): boolean =>
  sourceName === agentSource && sentences(text).some((x) => saysOfSelf(x.value, self));

/** Titles that say a document is its writer's about herself, folded. */
const aboutMeTitles = new Set(['me', 'about me', 'all about me', 'myself', 'about myself']);

/**
 * Whether a document's title says it is about the Brain's self: "About me", "Me", "About myself", the
 * self's whole name or "About <it>" (folded, a heading's "#" and a closing mark or colon aside). Not
 * the first name alone: "Maya" may be a note about another Maya. A note of another title is hers by
 * what it says and where it comes from (own-note.ts), not by its title.
 */
export function aboutSelf(title: string | undefined, self: SelfEntity): boolean {
  if (title === undefined) return false;
  // A closing mark taken off one at a time: a regex anchored at the end would rescan each run of them.
  let bare = title.replace(/^#+\s*/u, '');
  while (/[\s.:!…-]$/u.test(bare)) bare = bare.slice(0, -1);
  const t = foldName(bare);
  const name = foldName(self.name);
  return aboutMeTitles.has(t) || t === name || t === `about ${name}`;
}
