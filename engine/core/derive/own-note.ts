import type { SelfEntity } from '../../contract/index.ts';
import { notSaid } from './not-said.ts';

/**
 * Imports whose documents hold other people's words: a calendar event's description (its organiser's),
 * the text of a file attached to an AI chat, and any document a mail, chat or contacts import may write.
 * Only a person's notes (markdown, obsidian), the app's own note form and a client's own writes are hers.
 */
const othersDocuments = new Set(['ics', 'chatgpt', 'claude', 'mbox', 'whatsapp', 'slack', 'vcf']);

/** The first person, singular or plural ("I", "Tom and I", "we", "my", "our"). */
const firstPerson =
  /(?<![\p{L}\p{N}'’])(?:I|I['’](?:m|ve|d|ll)|(?:me|my|mine|myself|we|us|our|ours|ourselves)|we['’](?:re|ve|d|ll))(?![\p{L}\p{N}'’])/giu;

/** The importers' own lines beside a note's words (rule-deriver.ts): its footer, an attachment. */
const importerLine = /^(?:Tags: #|Links: \[\[|\[attachment: [^\]\n]*\]$)/u;

/** A title a mail client gives what it forwards or answers: the words under it are another's too. */
const mailTitle = /^\s*(?:(?:re|fwd?|fw|tr|aw|wg)\s*:|forward(?:ed)?\b)/iu;

/** The tag a web clipper gives an article it saves ("clippings", Obsidian's), in a note's footer. */
const clippedTag = /#(?:clippings?|clipped|web-?clip(?:s|pings?)?)(?![\p{L}\p{N}_/-])/iu;

/**
 * A line that says "I", "we" or "my": not "US" (the country), and a lower-case "i" only before a word
 * ("tom and i booked", as a phone types it), not a numbering's "i." or "i.e.".
 */
export function speaksFirstPerson(line: string): boolean {
  for (const m of line.matchAll(firstPerson)) {
    if (m[0] === 'US') continue;
    if (m[0] === 'i' && !/^\s+\p{L}/u.test(line.slice(m.index + 1))) continue;
    return true;
  }
  return false;
}

/** A daily note's title, its day alone: "2026-11-13", "13.11.2026", "11/13/2026". */
export const dayTitle = /^(?:\d{4}-\d{1,2}-\d{1,2}|\d{1,2}[./-]\d{1,2}[./-]\d{4})$/u;

/**
 * Whether a document is the self's own words: a note the person keeps, written in the
 * first person ("Tom and I booked a trip to Porto for May."), whose writer is the person whose Brain it
 * is, as nothing in the Record says otherwise. It says otherwise when the Brain's self is no person
 * (an org's "I" is one of its people), when the Record comes from an import of others' words (a
 * calendar's description, a chat's attachment: othersDocuments), or when the note holds someone else's
 * words beside hers: a pasted mail (its header lines, an "… wrote:" quote, a forwarded message:
 * not-said.ts), a quoted line ("> …"), a title a mail client gives ("Fwd:", "Re:"), or a web clipper's
 * tag (#clippings). A note that never says "I", "we" or "my" shows no writer and stays nobody's: a
 * clipped article without its tag, a pasted fact; but a daily note (titled by its day alone) is a
 * journal, the vault's keeper's: "Moved into the new flat today. Boxes everywhere."
 */
export function ownNote(
  doc: { title?: string | undefined; text: string },
  sourceName: string | null,
  self: SelfEntity | null,
): boolean {
  if (self?.type !== 'person') return false;
  if (sourceName !== null && othersDocuments.has(sourceName)) return false;
  if (doc.title !== undefined && mailTitle.test(doc.title)) return false;
  if (notSaid(doc.text).length > 0) return false;
  const lines = doc.text.split('\n').map((l) => l.trim());
  if (lines.some((l) => l.startsWith('>'))) return false;
  if (lines.some((l) => l.startsWith('Tags: #') && clippedTag.test(l))) return false;
  if (doc.title !== undefined && dayTitle.test(doc.title.trim())) return true;
  return lines.some((l) => !importerLine.test(l) && speaksFirstPerson(l));
}
