import type { SelfEntity } from '../../contract/index.ts';
import { months, weekdays } from '../retrieve/time-expressions.ts';
import { relation } from './about-another.ts';
import { notSaid } from './not-said.ts';
import { foldName, selfFirstName } from './resolve-owner.ts';
import { kinWords } from './slot-sentences.ts';
import { matchesOf } from '../../contract/matches-of.ts';

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
  for (const m of matchesOf(firstPerson, line)) {
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
 * Someone a line names by who they are to her: the derive folder's kin and role words (about-another.ts
 * `relation`, slot-sentences.ts `kinWords`), the forms a question or a sentence of hers names family by
 * (rule-deriver.ts kinOpens), a plural ("kids", "parents"), and the Croatian, German and Portuguese kin
 * words the sync redactor knows (local/sync/redact-people.ts). Not a pet: "Allergy: cat dander" is hers.
 */
const kinWord = new RegExp(
  String.raw`^(?:${relation}|${kinWords}|kids?|child|children|parents?|baby|babies|mama|mamma|tata|mommy|mummy|daddy|papa|granny|gran|nana|grandparents?|brat|sestra|majka|otac|sin|kći|kćer|ujak|stric|teta|baka|djed|bruder|schwester|mutter|vater|sohn|tochter|onkel|tante|oma|opa|mãe|pai|filho|filha|irmão|irmã|avó|avô)s?$`,
  'iu',
);
const pets = new Set(['dog', 'dogs', 'cat', 'cats', 'puppy', 'puppies', 'kitten', 'kittens']);
const lineWord = /[\p{L}\p{M}'’-]+/gu;
/** "Baby aspirin" is a dose, not a baby. */
const notKin = /^baby\s+aspirin/iu;

/** Whether a line names someone by a kin or role word ("Mum: blood pressure 150/90", "For Grandma: …"). */
function namesKin(line: string): boolean {
  for (const m of matchesOf(lineWord, line)) {
    const w = m[0].replace(/['’]s?$/u, '');
    if (kinWord.test(w) && !pets.has(w.toLowerCase()) && !notKin.test(line.slice(m.index))) return true;
  }
  return false;
}

/** "Peanuts (Leo).", "Penicillin (Maya Costa)": whom a list's line is of, a name in parentheses. */
const nameInParentheses = /\(\s*(?<name>\p{Lu}[\p{Ll}\p{M}'’-]+(?: \p{Lu}[\p{Ll}\p{M}'’-]+)?)\s*\)/gu;
/** "For Leo: …", "Für Oma: …": a key saying whom what follows is for. */
const forSomeone = /^(?:for|für|za|para)\s+\p{Lu}/u;
const calendarWords = new Set([...months, ...weekdays]);

/**
 * Whether a line of a facet note is someone else's: keyed by another person ("Ana Petrović: nuts", "Ana:
 * nuts" where the Brain knows one Ana: `known`, "For Leo: …"), naming someone by a kin or role word
 * anywhere ("Mum: blood pressure 150/90", "Dad: LDL 190", "For Grandma: Warfarin 3 mg") or by a name in
 * parentheses ("Peanuts (Leo)."). Her own name is hers: "- Maya Lindqvist: penicillin", "(Maya)".
 */
function namesAnother(
  line: string,
  self: SelfEntity,
  known: ReadonlyMap<string, string> | undefined,
): boolean {
  const own = foldName(self.name);
  const ownFirst = selfFirstName(self);
  const hers = (name: string) => foldName(name) === own || foldName(name) === ownFirst;
  const key = keyed.exec(line)?.groups?.['key']?.trim();
  if (key !== undefined && !hers(key)) {
    if (wholeName.test(key) || known?.has(foldName(key)) === true || forSomeone.test(key)) return true;
  }
  if (namesKin(line)) return true;
  for (const m of matchesOf(nameInParentheses, line)) {
    const name = m.groups!['name']!;
    if (!hers(name) && !calendarWords.has(name.toLowerCase())) return true;
  }
  return false;
}

/** A line saying the note is shared, or family's: "Shared vault: family", "Shared with Ivo", "Family". */
const sharedOrFamily =
  /(?<![\p{L}\p{N}])(?:shared|sharing|family|families|familie|obitelj|família)(?![\p{L}\p{N}])/iu;

/**
 * A line that says the note is another's words, as an article saved whole says them: where it comes
 * from ("Source: nytimes.com", a clipper's "source: https://…" or "url: https://…" property), or its
 * writer ("By Jane Brody", a clipper's "author: …" property).
 */
const sourceLine =
  /^(?:[-*+]\s+)?(?:\*\*)?(?:source|sources|original|via|quelle|izvor|fonte|clipped from|read more|author|authors)(?:\*\*)?\s*:\s*\S/iu;
const urlProperty = /^(?:url|link)\s*:\s*<?https?:\/\//iu;
const byLine =
  /^(?:[Bb]y|[Vv]on|[Aa]utor|[Aa]uthor)\s+\p{Lu}[\p{L}\p{M}.'’-]*(?:\s+\p{Lu}[\p{L}\p{M}.'’-]*){0,3}$/u;

/**
 * Whether a note reads as an article: a line naming its source or its writer (sourceLine, byLine), or
 * prose a person's own notes of her health are not: two paragraphs of 30 words or more, or one of 60,
 * none a list (facetNote is asked only of a note that never says "I", "we" or "my").
 */
function readsAsArticle(lines: readonly string[]): boolean {
  if (lines.some((l) => sourceLine.test(l) || urlProperty.test(l) || byLine.test(l))) return true;
  const paragraphs: string[][] = [[]];
  for (const l of lines) {
    if (l === '') paragraphs.push([]);
    else paragraphs.at(-1)!.push(l);
  }
  const words = paragraphs
    .filter((p) => p.length > 0 && !p.some((l) => /^(?:[-*+]|\d+[.)]|#|\|)/u.test(l)))
    .map((p) => p.join(' ').split(/\s+/u).length);
  return words.some((n) => n >= 60) || words.filter((n) => n >= 30).length >= 2;
}

/**
 * Whether a note of hers (nothing in it says it holds another's words: ownNote's reasons) is about a
 * facet of her: titled for it alone ("Health", "Allergies", "My medications"), or tagged for it
 * (#health, #allergies, #diet, ...) under a title that names no one ("Blood tests 2026", not "Ana's
 * meds", "Dad's health" nor a people folder's "Ana Petrović"), neither tagged as a people folder's note
 * (#people, #family, ...) nor holding a line of someone else's (namesAnother: "- Ana: nuts", "Mum:
 * blood pressure 150/90", "Peanuts (Leo)."), nor saying it is shared or family's ("Shared vault:
 * family"), nor reading as an article (readsAsArticle: "Source: nytimes.com"). Such a note says
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
    !title.split(' ').some((w) => known?.has(w) === true) &&
    !namesKin(doc.title) &&
    !sharedOrFamily.test(doc.title);
  const about =
    facets.has(title) || (namesNoOne && tags.some((t) => t.split('/').some((p) => facetTags.has(p))));
  if (!about) return false;
  const said = lines.filter((l) => !importerLine.test(l));
  if (said.some((l) => sharedOrFamily.test(l)) || readsAsArticle(said)) return false;
  return !said.some((l) => namesAnother(l, self!, known));
}
