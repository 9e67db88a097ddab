import type { SelfEntity } from '../../contract/index.ts';
import { notSaid } from './not-said.ts';
import { foldName } from './resolve-owner.ts';

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
  const lines = keptLines(doc, sourceName, self);
  if (lines === null) return false;
  if (doc.title !== undefined && dayTitle.test(doc.title.trim())) return true;
  return lines.some((l) => !importerLine.test(l) && speaksFirstPerson(l));
}

/**
 * A note's lines, trimmed, where nothing in it says it holds someone else's words (ownNote's reasons:
 * the Brain's self is no person, an import of others' words, a mail client's title, a pasted mail, a
 * quoted line, a web clipper's tag); null where something does.
 */
function keptLines(
  doc: { title?: string | undefined; text: string },
  sourceName: string | null,
  self: SelfEntity | null,
): string[] | null {
  if (self?.type !== 'person') return null;
  if (sourceName !== null && othersDocuments.has(sourceName)) return null;
  if (doc.title !== undefined && mailTitle.test(doc.title)) return null;
  if (notSaid(doc.text).length > 0) return null;
  const lines = doc.text.split('\n').map((l) => l.trim());
  if (lines.some((l) => l.startsWith('>'))) return null;
  if (lines.some((l) => l.startsWith('Tags: #') && clippedTag.test(l))) return null;
  return lines;
}

/**
 * Facets of a person a note of hers is kept about, folded: its title alone ("Health", "My allergies")
 * or one of its tags ("#health", "#health/allergies") says the note is about her, as "About me" does.
 */
const facets = new Set(
  `health|health notes|health info|health record|health records|health and fitness|health & fitness|
   fitness|medical|medical history|medical info|medical information|medical notes|medical records|
   allergies|allergy|allergies and intolerances|intolerances|food intolerances|medications|medication|
   meds|prescriptions|vaccinations|diet|dietary requirements|dietary restrictions`
    .split('|')
    .map((f) => f.trim()),
);
const facetTags = new Set([
  'health',
  'medical',
  'allergies',
  'allergy',
  'medication',
  'medications',
  'meds',
  'diet',
]);
/** Tags a people folder gives its notes: a note so tagged is about the person it is named after. */
const peopleTags = new Set(['people', 'person', 'contact', 'contacts', 'family', 'friend', 'friends', 'crm']);

/** A note's tags as its importer's footer lists them ("Tags: #health #people/family"), each folded. */
function footerTags(lines: readonly string[]): string[] {
  return lines
    .filter((l) => l.startsWith('Tags: #'))
    .flatMap((l) => l.slice('Tags: '.length).split(/\s+/u))
    .filter((t) => t.startsWith('#'))
    .map((t) => t.slice(1).toLowerCase());
}

/** A title folded as facets are: a heading's "#", "my " and a closing mark or colon aside. */
function bareTitle(title: string): string {
  let bare = title.replace(/^#+\s*/u, '');
  while (/[\s.:!…-]$/u.test(bare)) bare = bare.slice(0, -1);
  return foldName(bare).replace(/^my /u, '');
}

/**
 * A key line whose key is a person's whole name ("Ana Petrović: nuts"), or a first name the Brain knows
 * one person by (`known`, derive-context.ts: "Ana: nuts"): a list of what holds for each of them.
 */
const keyed = /^(?:[-*+]\s+)?(?:\*\*)?(?<key>[^:\n]{1,40}?)(?:\*\*)?:\s/u;
const wholeName = /^\p{Lu}[\p{Ll}\p{M}'’-]+(?: \p{Lu}[\p{Ll}\p{M}'’-]+){1,2}$/u;
/** A word of a title that is someone's: "Ana's", "Jonas'". */
const possessive = /^\p{Lu}[\p{L}\p{M}-]*['’]s?$/u;

/**
 * Whether a note of hers (nothing in it says it holds another's words: ownNote's reasons) is about a
 * facet of her: titled for it alone ("Health", "Allergies", "My medications"), or tagged for it
 * (#health, #allergies, #diet, ...) under a title that names no one ("Blood tests 2026", not "Ana's
 * meds" nor a people folder's "Ana Petrović"), neither tagged as a people folder's note (#people,
 * #family, ...) nor listing what holds for others by their names ("- Ana: nuts"). Such a note says
 * "Allergy: penicillin (rash, 2019)." of its keeper without an "I": that line was nobody's, and her
 * Profile had no health line. A sentence in it that opens with another person stays theirs.
 */
export function facetNote(
  doc: { title?: string | undefined; text: string },
  sourceName: string | null,
  self: SelfEntity | null,
  known?: ReadonlyMap<string, string>,
): boolean {
  const lines = keptLines(doc, sourceName, self);
  if (lines === null || doc.title === undefined) return false;
  const tags = footerTags(lines);
  if (tags.some((t) => peopleTags.has(t.split('/')[0]!))) return false;
  const title = bareTitle(doc.title);
  const namesNoOne =
    !doc.title.split(/\s+/u).some((w) => possessive.test(w)) &&
    !wholeName.test(doc.title.trim()) &&
    !title.split(' ').some((w) => known?.has(w) === true);
  const about =
    facets.has(title) || (namesNoOne && tags.some((t) => t.split('/').some((p) => facetTags.has(p))));
  if (!about) return false;
  const own = foldName(self!.name);
  return !lines.some((l) => {
    const key = keyed.exec(l)?.groups?.['key']?.trim();
    if (key === undefined || foldName(key) === own) return false;
    return wholeName.test(key) || known?.has(foldName(key)) === true;
  });
}
