import {
  endedHead,
  factLine,
  factSentence,
  factSentenceHead,
  humanizePredicate,
  type SubjectWords,
} from '../engine/contract/fact-line.ts';
import { selfSpeakerNames, type TypedContent } from '../engine/contract/index.ts';
import { importedMailHeader } from '../engine/contract/mail-header.ts';
import { eventTimesWorded } from './all-day.ts';
import { oneLine } from './format.ts';

/** Whether a speaker is named by one of the engine's words for the Brain's own person ("self", "user"). */
export const isSelfSpeaker = (speaker: string) => selfSpeakerNames.has(speaker.trim().toLowerCase());

/** A speaker as a person reads it: the Brain's own person is "You", not "self". */
export const speakerLabel = (speaker: string) => (isSelfSpeaker(speaker) ? 'You' : speaker);

/** A Memory's subject as a person reads it: the Brain's own person is "You", as a speaker is. */
export const subjectLabel = speakerLabel;

/**
 * What a Memory is about, as a person reads it: "You · phone number", not the engine's key
 * "self · phone_number". The key stays where it is a key (an Object's, an address's); here it is words.
 */
export const aboutLabel = (m: { subject: string; predicate?: string | null | undefined }): string =>
  m.predicate ? `${subjectLabel(m.subject)} · ${humanizePredicate(m.predicate)}` : subjectLabel(m.subject);

/** A Memory's owner as the contract gives it: `entity` is the owner's name, when resolved. */
interface OwnerName {
  state: string;
  entity?: string | undefined;
}

/** A Memory's line as the labels below read it: its words, whom and what it is about, whose it is. */
interface LineOf {
  statement: string;
  subject: string;
  predicate?: string | null | undefined;
  owner?: OwnerName | undefined;
}

/**
 * A Memory's statement as a person reads it. The engine's own statements speak of the Brain's person
 * in the third person, by name ("Ana works at Acme", "Ana's favourite colour is green"), and are shown
 * as written: turned into "you" they could misquote. A fact's Memory is stored as the engine writes a
 * fact's line, "self favourite colour: green", "Marko birthday: March 13": it reads as a sentence
 * (factSentence, engine/contract/fact-line.ts), "Marko's birthday is March 13"; about the person
 * (subject "self", "user", ...) with the owner's name, "Ana's favourite colour is green", or "Your
 * favourite colour is green" where the name is not known (`owner` not given or unresolved). Display
 * only: the Memory is not changed. `predicate`: the Memory's, or undefined where the caller does not
 * have it (a Profile line: then the line's first ": " ends the predicate); null is a Memory that holds
 * no slot, left as it is.
 */
export function statementLabel(m: LineOf): string {
  return eventTimesWorded(factWording(m));
}

/** A fact's line read back into its parts, or null for a line that is no fact's line of `m`'s slot. */
interface FactLineParts {
  /** The line up to its value, as stored: "self favourite colour: ". */
  storedHead: string;
  /** The line's value, as stored: "green". */
  value: string;
  subject: string;
  predicate: string;
  how: SubjectWords;
}

function factLineParts(m: LineOf): FactLineParts | null {
  if (m.predicate === null) return null;
  const head = `${m.subject} `;
  if (!m.statement.startsWith(head)) return null;
  const line = m.statement.slice(head.length);
  const said =
    m.predicate === undefined
      ? line.slice(0, Math.max(0, line.indexOf(': ')))
      : humanizePredicate(m.predicate);
  if (said === '' || !line.startsWith(`${said}: `)) return null;
  const storedHead = `${head}${said}: `;
  const value = m.statement.slice(storedHead.length);
  // A fact's line about the person reads as one about anyone does, with their name or "you".
  const how: SubjectWords = isSelfSpeaker(m.subject)
    ? { you: { selfName: m.owner?.state === 'self' ? m.owner.entity : undefined } }
    : {};
  return { storedHead, value, subject: m.subject, predicate: said, how };
}

/** statementLabel's wording of a fact's line, without an event's times: what tells a line worded. */
function factWording(m: LineOf): string {
  const f = factLineParts(m);
  return f === null ? m.statement : factSentence(f, f.how);
}

/**
 * Where a person corrects a fact's Memory: the sentence it starts from, its value as stored (a date
 * stays "1990-05-04", not the "May 4, 1990" shown, so saving it unchanged changes nothing), and the
 * heads of both, so what is written after the sentence's head is sent after the stored line's head
 * ("Lucía's blood type is B+" is sent "self blood type: B+": the slot's value stays comparable with a
 * later fact's). Null for a Memory that is no fact's line.
 */
export function factToCorrect(
  m: LineOf,
): { shown: string; shownHead: string; storedHead: string; value: string } | null {
  const f = factLineParts(m);
  if (f === null) return null;
  const shownHead = factSentenceHead(f.subject, f.predicate, f.how, f.value);
  return { shown: shownHead + f.value, shownHead, storedHead: f.storedHead, value: f.value };
}

/**
 * A line that may be a fact's about the person, worded as statementLabel words it, read by its own
 * first word and predicate ("self home city: Porto" as "Maya's home city is Porto"): a fact's line a
 * Memory in other words cites (factQuoteLabel), a version of a slot a sentence holds that a fact gave
 * another wording. `selfName`: the Brain's person, when known. (A quote shown with no Memory beside
 * it, as a Trace's, is worded from its Record: citedQuoteLabel.)
 */
export function factLineLabel(line: string, selfName?: string): string {
  // Only "self", the word a fact about the person is written with: "I moved to Porto: finally" or
  // "user story: …" quoted from a message are words someone said.
  const subject = line.split(' ')[0] ?? '';
  if (subject !== 'self' || !line.includes(': ')) return line;
  const owner = selfName ? { state: 'self', entity: selfName } : undefined;
  return statementLabel({ statement: line, subject, predicate: undefined, owner });
}

/**
 * Whether a line is shown in its source's own words, word for word: a sentence that holds its slot as
 * said (rules-v28), a correction's statement, a fact's line as stored. Shown as a quotation, apart from
 * the engine's statements (and the fact lines the page words for the person, statementLabel).
 */
export const inOwnWords = (m: LineOf & { citations: readonly { quote: string }[] }): boolean =>
  !wordedForThePerson(m) && m.citations.some((c) => !quoteAddsWords(c.quote, m));

/**
 * Whether the page words a line from a structured Record's fields, so it is nobody's own words: a
 * fact's line ("Ana's phone number is …") or an event's, whose times the engine writes as instants
 * ("Dinner with Tomás; when: 2026-12-05T19:00:00Z; …", shown as a date).
 */
export const wordedForThePerson = (m: LineOf): boolean =>
  factWording(m) !== m.statement || eventTimesWorded(m.statement) !== m.statement;

/** Another version of `m`'s slot said as `m` is (its statement read with `m`'s subject and predicate). */
export const versionLabel =
  (m: Omit<LineOf, 'statement'>) =>
  (version: { statement: string }): string => {
    const said = statementLabel({ ...m, statement: version.statement });
    if (said !== version.statement) return said;
    // A version a fact gave in other words ("self home city: Porto" in the slot "I moved to …" holds).
    return factLineLabel(version.statement, m.owner?.state === 'self' ? m.owner.entity : undefined);
  };

/**
 * Whether a version of `m`'s slot is an ending, not a value: "Ana no longer lives in Berlin" holds the
 * slot from "I don't live in Berlin anymore" on (rules-v29), with no home in it. The contract does not
 * mark one, so it is read from the words the engine writes for it (endedHead, shared with the engine).
 */
export const endsValue =
  (m: { subject: string; predicate?: string | null | undefined }) =>
  (version: { statement: string }): boolean =>
    !!m.predicate && version.statement.startsWith(endedHead(m.subject, m.predicate));

/**
 * A quote of a Memory's evidence as shown beside it. A fact's Record has no words of its own: its
 * citable text is the engine's line for it, which is the Memory's statement, so it reads as the
 * statement does ("Your favourite colour is green"), and so does one that is not the statement when the
 * Record is known to be a fact (`kind`, the Evidence's). Any other quote is the Record's own words, as
 * they are.
 */
export function quoteLabel(quote: string, m: LineOf, kind?: string): string {
  if (quote === m.statement) return statementLabel(m);
  return kind === 'fact' ? factQuoteLabel(quote, m) : quote;
}

/**
 * A fact Record's line cited by a Memory said in other words ("Lucía lives in Tokyo" cites "self home
 * city: Tokyo"), worded as a fact's line is everywhere else: "Lucía's home city is Tokyo", "Tom's
 * birthday is March 14". Only where the Record is known to be a fact (`kind`): a message's "self care:
 * went for a run" is someone's words, and stays as said.
 */
function factQuoteLabel(quote: string, m: LineOf): string {
  if (quote.startsWith(`${m.subject} `)) {
    const said = statementLabel({
      statement: quote,
      subject: m.subject,
      predicate: undefined,
      owner: m.owner,
    });
    if (said !== quote) return said;
  }
  return factLineLabel(quote, m.owner?.state === 'self' ? m.owner.entity : undefined);
}

/** Words as a reader compares them: case, spacing and a closing mark make no difference. */
const wordsOf = (s: string) =>
  s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
    // Only the run that starts after the last other character: linear on any string.
    .replace(/(?<![\s.!?;,:])[\s.!?;,:]+$/u, '');

/**
 * Whether a quote of `m`'s evidence says something `m`'s line does not, so is worth showing beside it.
 * A version worded as the person's own sentence ("I live in Lisbon with my partner Tom.", rules-v28)
 * is its quote, and a fact's line is its Record's citable line: shown under the line, such a quote
 * repeated it word for word. Compared as both are shown (statementLabel, quoteLabel).
 */
export const quoteAddsWords = (quote: string, m: LineOf, kind?: string): boolean =>
  wordsOf(quoteLabel(quote, m, kind)) !== wordsOf(statementLabel(m));

/** What stands for a quote that only repeats its line: the line is the source's own words. */
export const saidInTheseWords = 'said in these words';

/**
 * What stands for a quote that only repeats `m`'s line, as the line is shown: "said in these words"
 * where it is shown word for word; a line the page words for the person (wordedForThePerson) was said
 * in no one's words, so its source is named as what it is: a fact, an event, or a correction (which
 * keeps the wording of the fact it corrects). `kind`: the quoted Record's, where the caller knows it.
 */
export function sameWordsLabel(m: LineOf, kind?: string): string {
  if (!wordedForThePerson(m)) return saidInTheseWords;
  if (kind === 'correction') return 'from a correction';
  return eventTimesWorded(m.statement) !== m.statement ? 'from an event' : 'from a fact';
}

/**
 * A note's text without the heading that only repeats its title: a note named "Reading list" opening
 * "# Reading list" was summed up "Reading list — # Reading list - …".
 */
function withoutTitleHeading(text: string, title: string): string {
  const m = /^\s*#{1,6}[ \t]+([^\n]*)\n?/u.exec(text);
  return m && m[1]!.trim() === title.trim() ? text.slice(m[0].length).trimStart() : text;
}

/**
 * An imported mail as a person names it: its subject, then its body, without the header lines the
 * importer opened its text with ("Subject: …", "From: …", "To: …"), which read as a form, not a mail.
 * Null for a text without them, or with them alone and no subject.
 */
export function mailSummary(text: string): string | null {
  const header = importedMailHeader(text);
  if (header === null) return null;
  const body = text.slice(header.end).trim();
  // Header lines alone, with no subject: nothing else names it.
  if (header.subject === null) return body === '' ? null : body;
  return body === '' ? header.subject : `${header.subject} — ${body}`;
}

/** An imported mail's subject, which names it as a document's title does; null for any other Record. */
export function mailSubject(content: TypedContent): string | null {
  return content.kind === 'message' ? (importedMailHeader(content.text)?.subject ?? null) : null;
}

/**
 * One line of plain words for a Record's content, whatever its kind. `selfName`: the name of the
 * Brain's person, which a fact's line about them is worded with (statementLabel), when known.
 */
export function recordSummary(content: TypedContent, selfName?: string): string {
  switch (content.kind) {
    case 'message': {
      const text = mailSummary(content.text) ?? content.text;
      return content.speaker ? `${speakerLabel(content.speaker)}: ${text}` : text;
    }
    case 'document':
      return content.title
        ? `${content.title} — ${withoutTitleHeading(content.text, content.title)}`
        : content.text;
    case 'event':
      return [content.title, content.place ? `at ${content.place}` : ''].filter(Boolean).join(' ');
    case 'fact':
      return factSentence(content, isSelfSpeaker(content.subject) ? { you: { selfName } } : {});
    case 'correction':
      return (
        (content.statement !== undefined ? `Correction: ${content.statement}` : 'Withdrawal of a Memory') +
        (content.reason ? ` (why: ${content.reason})` : '')
      );
  }
}

/**
 * A quote shown on its own, with no Memory beside it (Ask's "Also quoted", a Trace's citations): a fact
 * Record's line, which is no one's words, as the fact's sentence, as the Records page says it ("Lea is
 * vegetarian", not "Lea vegetarian: yes"); any other quote, or one whose Record is not read yet
 * (`content` undefined), as said. Display only: the citation's quote stays a span of its Record.
 */
export function citedQuoteLabel(quote: string, content: TypedContent | undefined, selfName?: string): string {
  return content?.kind === 'fact' && factLine(content) === quote ? recordSummary(content, selfName) : quote;
}

/**
 * A correction Record named with the Memory it changed, where that Memory could be read (`target`, its
 * statementLabel): "Withdrawal of “Stay dry!”", "Correction of “Ana lives in Porto”: Ana lives in
 * Braga". Any other Record, or a target unknown, as recordSummary says it.
 */
export function correctionSummary(content: TypedContent, target: string | null, selfName?: string): string {
  if (content.kind !== 'correction' || target === null) return recordSummary(content, selfName);
  const of = `“${oneLine(target, 120)}”`;
  return (
    (content.statement !== undefined ? `Correction of ${of}: ${content.statement}` : `Withdrawal of ${of}`) +
    (content.reason ? ` (why: ${content.reason})` : '')
  );
}

/**
 * What forgetting a correction Record undoes, said before it is done: the Memory it withdrew or
 * corrected is as it was again. Null for any other Record.
 */
export function correctionUndone(content: TypedContent, target: string | null): string | null {
  if (content.kind !== 'correction') return null;
  const memory = target === null ? 'the Memory it names' : `the Memory “${oneLine(target, 120)}”`;
  return content.statement !== undefined
    ? `This Record corrected ${memory}: forgetting it brings that Memory back as it was before.`
    : `This Record withdrew ${memory}: forgetting it brings that Memory back as current.`;
}

export const kindLabels: Record<TypedContent['kind'], string> = {
  message: 'Message',
  document: 'Document',
  event: 'Event',
  fact: 'Fact',
  correction: 'Correction',
};

export const visibilityLabels = {
  shareable: 'Shareable',
  redacted_summary: 'Summary only',
  local_only: 'This device only',
} as const;
