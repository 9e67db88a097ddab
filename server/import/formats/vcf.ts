import { createHash, type Hash } from 'node:crypto';
import ICAL from 'ical.js';
import { c1AsWindows1252, utf8OrWindows1252 } from '../decode-text.ts';
import { fileTimeOf, skip, type ImportItem, type ParseOptions } from '../import-item.ts';
import { decodedText, detached, fileBytes, foldedTextOf, textLinesWithEnds } from '../text-lines.ts';
import { toIso } from '../zoned-time.ts';
import { errorMessage } from '../../../engine/index.ts';
import { icalValueError } from './ical-message.ts';

/** vCard properties that become facts, and the predicate each is recorded under. */
const predicates: Record<string, string> = {
  email: 'email',
  tel: 'phone',
  bday: 'birthday',
  anniversary: 'anniversary',
  adr: 'address',
  org: 'organization',
  title: 'job title',
  role: 'role',
  url: 'website',
  note: 'note',
  nickname: 'nickname',
  impp: 'instant messaging',
  'x-socialprofile': 'social profile',
  gender: 'gender',
};
/**
 * Properties naming someone the contact is related to: vCard 4's RELATED (TYPE=spouse, child, ...) and
 * Apple's and Google's X-ABRELATEDNAMES, whose relation is the X-ABLabel of its group.
 */
const relations = new Set(['related', 'x-abrelatednames']);
/** Binary or bulky properties never read (dropped before parsing, continuation lines included). */
const bulky = /^(PHOTO|LOGO|SOUND|KEY)[;:]/i;

/**
 * One card of a .vcf as written: its first line's number and its lines. `cutAt` is set for a card
 * that never ends: the line at which the next card begins, or null when the file ends first.
 */
export interface SplitCard {
  line: number;
  lines: string[];
  cutAt?: number | null;
}

/**
 * Splits a .vcf into cards, so one broken card is skipped alone. A byte order mark opening a line is
 * dropped: address books exported one file per contact and then joined (`cat *.vcf`) carry one at the
 * start of each card, where it hid the card's BEGIN (the card was lost without a word) or a
 * property's name (the field was). Cards do not nest, so a BEGIN:VCARD inside one means the one before
 * lost its END; that card is kept, marked cut, to be reported rather than dropped unseen.
 */
export function splitCards(text: string): SplitCard[] {
  return cardsOf(text.split(/\r\n|\r|\n/).map((line, i) => [i + 1, line]));
}

/** splitCards over the file's lines, each with its number. */
function cardsOf(lines: Iterable<[number, string]>): SplitCard[] {
  const cards: SplitCard[] = [];
  let current: SplitCard | null = null;
  for (const [no, marked] of lines) {
    const line = marked.replace(/^\ufeff+/, '');
    if (/^BEGIN:VCARD\s*$/i.test(line)) {
      if (current) cards.push({ ...current, cutAt: no });
      current = { line: no, lines: [] };
    }
    if (current) current.lines.push(line);
    if (current && /^END:VCARD\s*$/i.test(line)) {
      cards.push(current);
      current = null;
    }
  }
  if (current) cards.push({ ...current, cutAt: null });
  return cards;
}

/**
 * The lines of the .vcf at PATH, each with its number, as parseVcf read them from the whole text
 * (readFoldedText, C1 controls as Windows-1252), but read a chunk at a time and with each bulky
 * property (a photo: often most of the file) replaced as it arrives by one line of its name and a
 * digest of its lines: normalizeCard drops it all the same, and a card is still an exact copy of
 * another only when their photos are too. `text`: the file's text without those properties, which
 * names the same UIDs (ParseOptions.onText). A vCard of photos was held whole several times over.
 */
async function readCardLines(path: string): Promise<{ lines: [number, string][]; text: string }> {
  const { bytes, encoding } = await foldedTextOf(fileBytes(path));
  const lines: [number, string][] = [];
  const kept: string[] = [];
  let bulk: { no: number; name: string; hash: Hash } | null = null;
  const endBulk = () => {
    if (bulk !== null) lines.push([bulk.no, `${bulk.name}:${bulk.hash.digest('hex')}`]);
    bulk = null;
  };
  let no = 0;
  for await (const { line: raw, end } of textLinesWithEnds(decodedText(bytes, encoding))) {
    no += 1;
    const line = c1AsWindows1252(raw);
    const unmarked = line.replace(/^\ufeff+/, '');
    // normalizeCard's rule for what a bulky property's value runs on to.
    if (bulk !== null && (/^[ \t]/.test(unmarked) || (unmarked.trim() !== '' && !unmarked.includes(':')))) {
      bulk.hash.update(`\n${unmarked}`);
      continue;
    }
    endBulk();
    const name = bulky.exec(unmarked)?.[1];
    if (name !== undefined) {
      bulk = { no, name, hash: createHash('sha256').update(unmarked) };
      continue;
    }
    lines.push([no, detached(line)]);
    kept.push(detached(raw), end);
  }
  endBulk();
  return { lines, text: kept.join('') };
}

/**
 * CHARSET undefined: the bytes as UTF-8 when they are valid UTF-8, else as Windows-1252, as every
 * other text Mnemo reads without a declared charset (decode-text.ts). An old phone writes Latin-1 there
 * ("Hauptstra=DFe"), which read as UTF-8 was U+FFFD for every accented letter, the letter lost.
 */
function decodeQuotedPrintable(value: string, charset: string | undefined): string {
  const bytes: number[] = [];
  for (let i = 0; i < value.length; i++) {
    const hex = value.slice(i + 1, i + 3);
    if (value[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(...new TextEncoder().encode(value[i]!));
  }
  // A value encoded with its own byte order mark (=EF=BB=BF) keeps none: it is no part of the text. C1
  // controls are read as Windows-1252, as everywhere in a vCard (parseVcf).
  if (charset === undefined)
    return c1AsWindows1252(utf8OrWindows1252(new Uint8Array(bytes)).replace(/^\ufeff/, ''));
  try {
    return c1AsWindows1252(new TextDecoder(charset).decode(new Uint8Array(bytes)));
  } catch {
    return new TextDecoder('utf-8').decode(new Uint8Array(bytes));
  }
}

/**
 * vCard 2.1 written by phones is not something ical.js reads: bare type parameters (`TEL;CELL:`) and
 * quoted-printable values with a CHARSET. This rewrites such lines into vCard 3.0 form; other cards
 * pass through unchanged apart from dropping bulky binary properties.
 */
export function normalizeCard(lines: string[]): string {
  const out: string[] = [];
  let dropping = false;
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!;
    if (bulky.test(line)) {
      dropping = true;
      continue;
    }
    if (dropping && (/^[ \t]/.test(line) || (line.trim() !== '' && !line.includes(':')))) continue;
    dropping = false;
    const colon = line.indexOf(':');
    if (colon < 0 || /^[ \t]/.test(line)) {
      out.push(line);
      continue;
    }
    const [name, ...params] = line.slice(0, colon).split(';');
    const isQp = params.some((p) => /^(ENCODING=)?QUOTED-PRINTABLE$/i.test(p));
    if (isQp) while (line.endsWith('=') && i + 1 < lines.length) line = line.slice(0, -1) + lines[++i]!;
    let value = line.slice(colon + 1);
    const charset = params.find((p) => /^CHARSET=/i.test(p))?.slice(8);
    if (isQp) {
      value = decodeQuotedPrintable(value, charset)
        .replace(/\r\n|\r|\n/g, '\\n')
        .replace(/,/g, '\\,');
    }
    const kept = params
      .filter((p) => !/^(ENCODING|CHARSET)=/i.test(p) && !/^QUOTED-PRINTABLE$/i.test(p))
      .map((p) => (p.includes('=') ? p : `TYPE=${p}`));
    out.push([name, ...kept].join(';') + ':' + value);
  }
  return out.join('\r\n') + '\r\n';
}

/**
 * A property's value as text. vCard 3.0 escapes a semicolon in any text ("chocolate\; hates cilantro",
 * RFC 2426), which ical.js reads unescaped only in a structured value's parts: the backslash was kept.
 */
function textOf(value: unknown): string {
  if (Array.isArray(value)) return value.map(textOf).filter(Boolean).join(', ');
  if (value && typeof value === 'object' && 'toString' in value) return String(value);
  return typeof value === 'string' || typeof value === 'number'
    ? String(value).replace(/\\;/g, ';').trim()
    : '';
}

/** A property's TYPE values, each comma-separated one apart, in lower case. */
function typesOf(p: InstanceType<typeof ICAL.Property>): string[] {
  const t = p.getParameter('type');
  return (Array.isArray(t) ? t : t ? [t] : [])
    .flatMap((x) => String(x).split(','))
    .map((x) => x.toLowerCase());
}

function typeLabel(p: InstanceType<typeof ICAL.Property>): string {
  const types = typesOf(p)
    .filter((x) => !['internet', 'pref', 'voice', 'x400'].includes(x))
    .map((x) => (x === 'cell' ? 'mobile' : x));
  return types.length ? ` (${types.join(', ')})` : '';
}

/**
 * The facts of one parsed card. ical.js decodes values lazily and throws on one it cannot read (a
 * BDAY of "12.04.1985"), so each value is read on its own: a field that cannot be read is skipped
 * alone, named by card and field, and an unreadable REV only costs the facts the card's own time.
 */
function cardItems(
  c: InstanceType<typeof ICAL.Component>,
  line: number,
  /** When a card without a readable REV is dated: its file's time, or null (then the write's). */
  undatedAt: string | null,
  /** How many cards without a UID this file named so far, by name. */
  unidentified: Map<string, number>,
  /** The file's cards' names by their UIDs, for a relation that names its contact by UID. */
  names: ReadonlyMap<string, string>,
): ImportItem[] {
  const ref = `card at line ${line}`;
  const name = cardName(c);
  if (!name) return [skip(ref, 'card has no name (FN, N or ORG)')];
  // A card without a UID is known by its name; a second card of that name in the file (two people, or a
  // duplicate with other numbers) by its place among them, so that neither replaces the other's fields.
  let uid = textOf(c.getFirstPropertyValue('uid'));
  if (!uid) {
    const seen = (unidentified.get(name) ?? 0) + 1;
    unidentified.set(name, seen);
    uid = seen > 1 ? `${name} #${seen}` : name;
  }
  let rev: string | null = null;
  try {
    rev = toIso(textOf(c.getFirstPropertyValue('rev')));
  } catch {
    // Its facts then carry the time they are written, as a card without REV does.
  }
  const items: ImportItem[] = [];
  const used = new Map<string, number>();
  const labels = groupLabels(c);
  for (const p of c.getAllProperties()) {
    const related = relations.has(p.name);
    const base = related
      ? relationOf(p, labels)
      : p.name === 'x-abdate'
        ? datedAs(labelOf(p, labels))
        : predicates[p.name];
    if (!base) continue;
    const unreadable = (why: string) =>
      skip(
        `${name}: ${base}`,
        `card "${name}" at line ${line}: its ${p.name.toUpperCase()} cannot be read and is left out: ${why}`,
      );
    let value: string;
    try {
      const values = p.getValues();
      const wrong = values.map((v) => impossibleDate(v, p)).find((w) => w !== null);
      if (wrong) {
        items.push(unreadable(wrong));
        continue;
      }
      value = values.map(textOf).filter(Boolean).join(', ');
    } catch (e) {
      items.push(unreadable(icalValueError(e)));
      continue;
    }
    // vCard 4 writes numbers and addresses as URIs ("tel:+351-912-345-678", "mailto:…"): the value people read.
    if (p.name === 'tel' || p.name === 'email') value = value.replace(/^(?:tel|mailto):/iu, '');
    value = withoutOmittedYear(p, value);
    if (related) {
      const named = relatedName(value, names);
      if (named === null) {
        items.push(
          skip(
            `${name}: ${base}`,
            `card "${name}" at line ${line}: its ${base} is the contact ${value}, which is not in this file`,
          ),
        );
        continue;
      }
      value = named;
    }
    if (!value) continue;
    // Two work emails are two slots, not one superseding the other; two children are two as well.
    const label = related || p.name === 'x-abdate' ? base : `${base}${typeLabel(p)}`;
    const k = (used.get(label) ?? 0) + 1;
    used.set(label, k);
    const predicate = k > 1 ? `${label} ${k}` : label;
    items.push({
      type: 'record',
      ref: `${name}: ${predicate}`,
      body: {
        content: { kind: 'fact', subject: name, predicate, value: value.slice(0, 10_000) },
        source: { name: 'vcf', external_id: `vcf:${uid}:${predicate}`.slice(0, 2000) },
        ...(rev ? { occurred_at: rev } : undatedAt ? { occurred_at: undatedAt } : {}),
      },
      item: `vcf:${uid}:`,
      // A file's time is no part of what the card says: a copy or a sync changes it, and the card is
      // still unchanged (idempotency-key.ts), as a note dated by its file is.
      ...(!rev && undatedAt ? { occurredAtInKey: null } : {}),
    });
  }
  if (items.length === 0) items.push(skip(ref, `card "${name}" has no fields to record beyond its name`));
  return items;
}

/** The name a card is known by: FN, else N as written, else the organisation's (a company's card). */
function cardName(c: InstanceType<typeof ICAL.Component>): string {
  const n = c.getFirstPropertyValue('n');
  const nameFromN = Array.isArray(n) ? [n[1], n[2], n[0]].map(textOf).filter(Boolean).join(' ') : '';
  return (textOf(c.getFirstPropertyValue('fn')) || nameFromN || textOf(c.getFirstPropertyValue('org'))).slice(
    0,
    2000,
  );
}

/**
 * Apple and Google label a property through a second one in its group (`item3.X-ABLabel`): Apple's own
 * labels as `_$!<Spouse>!$_`, a person's own as written ("Godmother").
 */
function groupLabels(c: InstanceType<typeof ICAL.Component>): Map<string, string> {
  const labels = new Map<string, string>();
  for (const p of c.getAllProperties('x-ablabel')) {
    const group = p.getParameter('group');
    const text = textOf(p.getFirstValue());
    const apple = /^_\$!<(.*)>!\$_$/u.exec(text);
    const label = (apple ? apple[1]! : text).trim();
    if (typeof group === 'string' && label) labels.set(group.toLowerCase(), label);
  }
  return labels;
}

function labelOf(p: InstanceType<typeof ICAL.Property>, labels: Map<string, string>): string | undefined {
  const group = p.getParameter('group');
  return typeof group === 'string' ? labels.get(group.toLowerCase()) : undefined;
}

/** The relation a RELATED or X-ABRELATEDNAMES names, as its predicate: "spouse", "child", "godmother". */
function relationOf(p: InstanceType<typeof ICAL.Property>, labels: Map<string, string>): string {
  const types = typesOf(p)
    .map((x) => x.trim())
    .filter((x) => x !== '' && x !== 'pref');
  return (labelOf(p, labels) ?? types[0] ?? 'related').toLowerCase().slice(0, 200);
}

/** Apple's dates other than the birthday (X-ABDATE): an anniversary, or a date of the person's label. */
function datedAs(label: string | undefined): string {
  if (label === undefined) return 'date';
  const l = label.toLowerCase();
  return l === 'anniversary' ? 'anniversary' : `date (${l.slice(0, 200)})`;
}

/**
 * Whom a relation names: a name as written, a contact of this file named by its UID (vCard 4 writes
 * `urn:uuid:…`), or an address of theirs; null for the UID of a contact not in the file, which says
 * nothing a person could read.
 */
function relatedName(value: string, names: ReadonlyMap<string, string>): string | null {
  const uid = value.replace(/^urn:uuid:/iu, '');
  const named = names.get(value) ?? names.get(uid);
  if (named !== undefined) return named;
  if (/^urn:uuid:/iu.test(value)) return null;
  return value.replace(/^(?:tel|mailto):/iu, '');
}

/**
 * Apple Contacts writes a birthday without a year as a made-up year it names in X-APPLE-OMIT-YEAR
 * (`BDAY;X-APPLE-OMIT-YEAR=1604:1604-12-24`): the date is the day alone, as vCard 4 writes it (--12-24).
 */
function withoutOmittedYear(p: InstanceType<typeof ICAL.Property>, value: string): string {
  const omitted = p.getParameter('x-apple-omit-year');
  const year = Array.isArray(omitted) ? omitted[0] : omitted;
  return typeof year === 'string' && /^\d{4}$/.test(year) && value.startsWith(`${year}-`)
    ? `--${value.slice(5)}`
    : value;
}

/** ` "Name"` for a card cut off, read as if it had ended where it stops; '' when no name can be read. */
function cutCardName(
  lines: string[],
  parse: (lines: string[]) => InstanceType<typeof ICAL.Component>,
): string {
  try {
    const name = cardName(parse([...lines, 'END:VCARD']));
    return name ? ` "${name}"` : '';
  } catch {
    return '';
  }
}

const monthName = (month: number) =>
  new Date(Date.UTC(2000, month - 1, 1)).toLocaleString('en', { month: 'long', timeZone: 'UTC' });

function lastDay(month: number, year: number | null): number {
  if (month !== 2) return [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
  return year === null || (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)) ? 29 : 28;
}

/**
 * Why a date a card gives is no day of the calendar (1970-02-30, --13-01), or null. ical.js reads a
 * vCard date by its digits alone, so such a date was stored as the contact's birthday, a fact no one
 * had; it is a value that cannot be read, skipped and named as one ("12.04.1985") is. A date without
 * a year (vCard 4's --MM-DD, Apple's made-up year in X-APPLE-OMIT-YEAR) may be 29 February. Apple's
 * labelled dates (X-ABDATE) are text to ical.js, and checked when they are written as a date.
 */
function impossibleDate(v: unknown, p: InstanceType<typeof ICAL.Property>): string | null {
  let d: { year: number | null; month: number | null; day: number | null };
  if (v instanceof ICAL.VCardTime) {
    const t = v as unknown as Record<'year' | 'month' | 'day', number | null>;
    d = { year: t.year, month: t.month, day: t.day };
  } else if (p.name === 'x-abdate' && typeof v === 'string') {
    const m = /^(?:(\d{4})|--)-?(\d{2})-?(\d{2})(?!\d)/.exec(v.trim());
    if (!m) return null;
    d = { year: m[1] ? Number(m[1]) : null, month: Number(m[2]), day: Number(m[3]) };
  } else return null;
  const omitted = p.getParameter('x-apple-omit-year');
  if (d.year !== null && String(Array.isArray(omitted) ? omitted[0] : omitted) === String(d.year))
    d.year = null;
  const { year, month, day } = d;
  if (month !== null && (month < 1 || month > 12)) return `not a valid date (there is no month ${month})`;
  if (day === null) return null;
  if (month === null) return day < 1 || day > 31 ? `not a valid date (no month has a day ${day})` : null;
  if (day >= 1 && day <= lastDay(month, year)) return null;
  return year === null
    ? `not a valid date (${monthName(month)} has no day ${day} in any year)`
    : `not a valid date (${monthName(month)} ${year} has no day ${day})`;
}

/** One `fact` Record per field of each card: subject is the contact's name, predicate the field. */
export async function* parseVcf(path: string, o: ParseOptions): AsyncGenerator<ImportItem> {
  // C1 controls (U+0080-U+009F) in text that was valid UTF-8 are Windows-1252 bytes a tool converted as
  // if they were Latin-1 ("\u0093Bordeaux\u0094" for the curly quotes): no address book means them as
  // text, so they are read as Windows-1252 meant them, as a file that is not UTF-8 is.
  const read = await readCardLines(path);
  o.onText?.(read.text);
  const cards = cardsOf(read.lines);
  // A card without REV is as of the file: an address book exported years ago no longer replaces what was
  // said since (dated at the import, it superseded newer values and hid a real disagreement).
  const fileTime = (await fileTimeOf(o)(path))?.toISOString();
  if (cards.length === 0) {
    yield skip(path, 'no BEGIN:VCARD ... END:VCARD block: not a vCard file');
    return;
  }
  const unidentified = new Map<string, number>();
  // An exact copy of a card already read adds nothing (and, without a UID, would count as a second card
  // of its name). It is said, as a duplicate item of any export is: dropped silently, its fields were in
  // neither the imported nor the skipped count.
  const copies = new Map<string, number>();
  const parse = (lines: string[]) => new ICAL.Component(ICAL.parse(normalizeCard(lines)) as never);
  // A relation may name, by UID, a card further down the file: where one does, the cards' names are
  // read first (each card parsed twice, and only then; a file is otherwise read a card at a time).
  const names = new Map<string, string>();
  if (cards.some((c) => c.lines.some((l) => /^(?:[\w-]+\.)?RELATED[;:].*urn:uuid:/iu.test(l))))
    for (const card of cards) {
      try {
        const c = parse(card.lines);
        const uid = textOf(c.getFirstPropertyValue('uid'));
        const name = cardName(c);
        if (uid && name) names.set(uid, name);
      } catch {
        // Said when the card is read below.
      }
    }
  for (const [i, card] of cards.entries()) {
    o.onRead?.(i / cards.length);
    // A card cut off is skipped whole, as the calendar's reader skips an event without END:VEVENT. Its
    // lines may all look complete, but nothing tells a last line cut inside its value ("TEL:+351 91")
    // from a whole one, nor says no field was lost after it, and a fact is read as true: a wrong
    // number stored as the contact's is worse than a card the summary names for the person to fix.
    if (card.cutAt !== undefined) {
      const named = cutCardName(card.lines, parse);
      const end =
        card.cutAt === null
          ? 'no END:VCARD (is the file truncated?)'
          : `no END:VCARD before the next card begins at line ${card.cutAt}`;
      yield skip(`card at line ${card.line}`, `card${named} at line ${card.line} is cut off: ${end}`);
      continue;
    }
    const whole = card.lines.join('\n');
    const first = copies.get(whole);
    if (first !== undefined) {
      yield skip(`card at line ${card.line}`, `an exact copy of the card at line ${first}`);
      continue;
    }
    copies.set(whole, card.line);
    let items: ImportItem[];
    try {
      items = cardItems(parse(card.lines), card.line, fileTime ?? null, unidentified, names);
    } catch (e) {
      items = [skip(`card at line ${card.line}`, `unreadable card: ${errorMessage(e)}`)];
    }
    yield* items;
  }
}
