import matter from 'gray-matter';
import { realpath, stat } from 'node:fs/promises';
import { basename, relative, sep } from 'node:path';
import { errorMessage, escapeRegExp, fencedLines } from '../../../engine/index.ts';
import { readText } from '../decode-text.ts';
import { fileTimeOf, skip, type FileTime, type ImportItem, type ParseOptions } from '../import-item.ts';
import { readAhead } from '../read-ahead.ts';
import { walkFolder, type WalkEntry } from '../walk-folder.ts';
import {
  atOffset,
  isValidWallTime,
  toIso,
  wallTimeToDate,
  wallTimeWithOffset,
  type WallTime,
} from '../zoned-time.ts';
import {
  dayFromFormat,
  readDailyNotes,
  readTemplateFolders,
  readTemplateNotes,
  type DailyNotes,
} from './vault-settings.ts';
import { canvasText } from './canvas.ts';
import { isCanvasFile, isNoteFile, noteName } from './note-file.ts';
import { noteIdentities, type NoteIdentity } from './note-identity.ts';
import { propertyLines } from './note-properties.ts';
import { matchesOf } from '../../../engine/contract/matches-of.ts';

// gray-matter can eval `---js` front matter; an imported note must never run code.
const refuseEngine = () => {
  throw new Error('only YAML front matter is read');
};
const matterOptions = { engines: { js: refuseEngine, javascript: refuseEngine, coffee: refuseEngine } };

function asStringList(v: unknown): string[] {
  if (typeof v === 'string') return v.split(/[,\s]+/).filter(Boolean);
  if (Array.isArray(v))
    return v.filter((x): x is string | number => typeof x === 'string' || typeof x === 'number').map(String);
  return [];
}

/** The body without its fenced code blocks (fencedLines): a shell comment in one is no heading, a colour no tag. */
function outsideFences(body: string): string {
  const lines = body.split('\n');
  const fenced = fencedLines(lines);
  return lines.filter((_, i) => !fenced[i]).join('\n');
}

/** The body without its code: fenced blocks and inline code spans. */
function withoutCode(body: string): string {
  return outsideFences(body)
    .replace(/```[\s\S]*?```/g, '')
    .replace(/`[^`\n]*`/g, '');
}

/** `#tag` and `#nested/tag` outside code; headings (`# Title`) are not tags. */
export function inlineTags(body: string): string[] {
  const tags = new Set<string>();
  for (const m of matchesOf(/(?:^|[\s(])#([\p{L}\p{N}_][\p{L}\p{N}_/-]*)/gu, withoutCode(body))) {
    if (!/^\d+$/.test(m[1]!)) tags.add(m[1]!);
  }
  return [...tags];
}

/** Targets of `[[Note]]`, `[[Note|alias]]` and `[[Note#Heading]]`. */
export function wikilinks(body: string): string[] {
  const out = new Set<string>();
  for (const m of matchesOf(/!?\[\[([^[\]|#\n]+)(?:#[^[\]|\n]*)?(?:\|[^[\]\n]*)?\]\]/g, body))
    out.add(m[1]!.trim());
  return [...out];
}

/**
 * A front-matter block: `---` (or `---yaml`, `---js`, …) as the first line, closed by a line `---`.
 * Returns where the note's body begins, or null when the file has no such block: without its closing
 * line, a leading `---` is a rule in the text, as Obsidian shows it (gray-matter would take the whole
 * file for front matter).
 */
function frontMatterEnd(text: string): number | null {
  const open = /^---(?:[^\n-][^\n]*)?\n/.exec(text);
  if (!open) return null;
  const close = /\n---[ \t]*(?:\n|$)/g;
  close.lastIndex = open[0].length - 1;
  const m = close.exec(text);
  return m ? m.index + m[0].length : null;
}

interface FrontMatter {
  data: Record<string, unknown>;
  /** The block as written, for what parsing loses (whether a time carried an offset). */
  raw: string;
  body: string;
  /** Why a block that is there was not read. */
  problem?: string;
}

/**
 * Front matter and body. A block that cannot be read (invalid YAML, or a `---js` block, which is
 * never run) is dropped and the body kept: the note is what matters, and Obsidian still shows it;
 * `problem` says what was lost.
 */
function readFrontMatter(text: string): FrontMatter {
  const end = frontMatterEnd(text);
  if (end === null) return { data: {}, raw: '', body: text };
  try {
    const parsed = matter(text, matterOptions);
    const data = parsed.data as unknown;
    if (data === null || (typeof data === 'object' && !Array.isArray(data)))
      return { data: (data ?? {}) as Record<string, unknown>, raw: parsed.matter, body: parsed.content };
    // Valid YAML, but a line of text or a list: no properties, but the note's own words between two
    // rules ("---" / "Just a rule first." / "---"), as Obsidian shows them. They were dropped.
    return { data: {}, raw: '', body: text };
  } catch (e) {
    return {
      data: {},
      raw: '',
      body: text.slice(end),
      problem: errorMessage(e).split('\n')[0]!.replace(/:$/, ''),
    };
  }
}

/**
 * A date or date-time as a note's front matter writes it, with an optional offset. js-yaml's own
 * timestamps are a subset, so a value it turned into a Date is read from its text again here.
 */
const writtenTime =
  /^(\d{4})-(\d{1,2})-(\d{1,2})(?:(?:[Tt]|[ \t]+)(\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(?:[ \t]*(Z|z|[+-]\d{1,2}(?::?\d{2})?))?)?$/;

/** The text of a top-level `key: value` line of the block, comment dropped. */
function rawValue(raw: string, name: string): string | undefined {
  // A property's name is the note's, which may hold any character.
  const key = escapeRegExp(name);
  const m = new RegExp(`^(?:${key}|"${key}"|'${key}')[ \\t]*:[ \\t]*(.*)$`, 'm').exec(raw);
  return m?.[1]!.replace(/(?<![ \t])[ \t]+#.*$/, '').trim();
}

/** `05/01/2024`, `5.1.2024 10:30`: a day and a month in either order, then a four-digit year. */
const dayMonthYear = /^(\d{1,2})([./-])(\d{1,2})\2(\d{4})(?:[ \t]+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;

/**
 * A numeric date's wall time, or null for another form. Dots are the day first (as German and most
 * of Europe write them); with slashes or dashes a part over 12 says which is the day, and otherwise
 * `dateOrder` does (the import's, month first by default, as JavaScript reads such a date).
 */
export function numericDate(text: string, dateOrder: 'dmy' | 'mdy'): WallTime | null {
  const m = dayMonthYear.exec(text);
  if (!m) return null;
  const [a, b] = [Number(m[1]), Number(m[3])];
  const dayFirst = m[2] === '.' || a > 12 || (b <= 12 && dateOrder === 'dmy');
  return {
    year: Number(m[4]),
    month: dayFirst ? b : a,
    day: dayFirst ? a : b,
    hour: Number(m[5] ?? 0),
    minute: Number(m[6] ?? 0),
    second: Number(m[7] ?? 0),
  };
}

/** A front-matter date read: the instant, and whether it was a date alone (no time of day). */
interface FrontMatterDate {
  /** With the offset of the zone it was read in ("2024-08-15T00:00:00+01:00"), where it was read in one. */
  at: string;
  /** The same instant as UTC writes it: what a note's key held before `at` kept its offset. */
  instant: string;
  dateOnly: boolean;
}

/**
 * When a front-matter date says the note occurred. A time without an offset is wall-clock time in
 * `timeZone` (the import's, else this machine's), whether js-yaml parsed it (`2024-01-05 10:30:00`,
 * which it reads as UTC) or left it a string (`2024-01-05 10:30`); a date alone is that day's start
 * there. Other strings are read as JavaScript's Date reads them; null when not a date.
 */
export function frontMatterTime(
  value: unknown,
  written: string | undefined,
  timeZone?: string,
  dateOrder: 'dmy' | 'mdy' = 'mdy',
): string | null {
  return frontMatterDate(value, written, timeZone, dateOrder)?.at ?? null;
}

/** frontMatterTime, and whether the value was a date alone (its instant then depends on `timeZone`). */
function frontMatterDate(
  value: unknown,
  written: string | undefined,
  timeZone: string | undefined,
  dateOrder: 'dmy' | 'mdy',
): FrontMatterDate | null {
  const text = typeof value === 'string' ? value.trim() : value instanceof Date ? written : undefined;
  const numeric = text === undefined ? null : numericDate(text, dateOrder);
  if (numeric) {
    if (!isValidWallTime(numeric)) return null;
    const instant = wallTimeToDate(numeric, timeZone);
    return {
      at: wallTimeWithOffset(numeric, instant),
      instant: instant.toISOString(),
      dateOnly: dayMonthYear.exec(text!)![5] === undefined,
    };
  }
  const m = text === undefined ? null : writtenTime.exec(text);
  if (!m) {
    const at = toIso(value);
    return at === null ? null : { at, instant: at, dateOnly: false };
  }
  const t = {
    year: Number(m[1]),
    month: Number(m[2]),
    day: Number(m[3]),
    hour: Number(m[4] ?? 0),
    minute: Number(m[5] ?? 0),
    second: Number(m[6] ?? 0),
  };
  if (!isValidWallTime(t)) return null;
  const ms = Number((m[7] ?? '').slice(0, 3).padEnd(3, '0'));
  const zone = m[8];
  if (zone === undefined) {
    // The day and hour as written, with the zone's offset: the same instant read in UTC is the day
    // before for a date alone east of Greenwich, and a prompt reads the date as written.
    const instant = new Date(wallTimeToDate(t, timeZone).getTime() + ms);
    return {
      at: wallTimeWithOffset(t, instant),
      instant: instant.toISOString(),
      dateOnly: m[4] === undefined,
    };
  }
  const [, sign, hh, mm] = /^([+-])(\d{1,2}):?(\d{2})?$/.exec(zone) ?? [];
  const offsetMin = sign ? (sign === '-' ? -1 : 1) * (Number(hh) * 60 + Number(mm ?? 0)) : 0;
  const utc = Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second, ms);
  const instant = new Date(utc - offsetMin * 60_000);
  // "…+01:00" as written (atOffset); "Z" as UTC writes it.
  const at = sign ? atOffset(instant, offsetMin) : instant.toISOString();
  return { at, instant: instant.toISOString(), dateOnly: false };
}

/**
 * A note's time from the first of `date`, `created`, `updated` its front matter gives as a date, and
 * what its Idempotency-Key holds in its place (ImportRecord.occurredAtInKey): for a date alone, that
 * date read in UTC, so the key does not depend on the zone the note was read in. A date alone read in
 * UTC is keyed as before; a time (with or without an offset) keys its instant, as it always did.
 */
function writtenNoteTime(fm: FrontMatter, o: ParseOptions): { at: string; inKey?: string } | null {
  for (const key of ['date', 'created', 'updated']) {
    if (fm.data[key] === undefined) continue;
    const written = rawValue(fm.raw, key);
    const d = frontMatterDate(fm.data[key], written, o.timeZone, o.dateOrder ?? 'mdy');
    if (!d) continue;
    // A time keys its instant as UTC writes it, as it did before the offset was kept.
    if (!d.dateOnly) return d.at === d.instant ? { at: d.at } : { at: d.at, inKey: d.instant };
    return { at: d.at, inKey: frontMatterDate(fm.data[key], written, 'UTC', o.dateOrder ?? 'mdy')!.at };
  }
  return null;
}

/**
 * The day a note's file name begins with (`2024-03-04.md`, `2024_03_04.md` as Logseq names journals,
 * `2024-03-04 Standup.md`), read as a date alone in front matter is: a daily note is about its day,
 * where its file's time is when it was last edited, or the day it was copied or synced.
 */
function namedNoteDay(
  file: string,
  o: ParseOptions,
  daily: { settings: DailyNotes; inVault: string } | null = null,
): { at: string; inKey: string } | null {
  const m = /^(\d{4})[-_.](\d{2})[-_.](\d{2})(?!\d)/.exec(basename(file));
  const vaultDay = m || daily === null ? null : dayInVaultFormat(daily.settings, daily.inVault);
  if (!m && !vaultDay) return null;
  const pad = (n: number) => String(n).padStart(2, '0');
  const day = m
    ? `${m[1]}-${m[2]}-${m[3]}`
    : `${vaultDay!.year}-${pad(vaultDay!.month)}-${pad(vaultDay!.day)}`;
  const here = frontMatterDate(day, day, o.timeZone, 'mdy');
  const utc = frontMatterDate(day, day, 'UTC', 'mdy');
  return here && utc ? { at: here.at, inKey: utc.at } : null;
}

/**
 * The day a vault's Daily notes format names a note by ("DD-MM-YYYY" names "04-03-2024.md"): its file
 * name, or its path in the daily notes' folder where the format makes folders ("YYYY/MM/DD").
 */
function dayInVaultFormat(settings: DailyNotes, inVault: string): ReturnType<typeof dayFromFormat> {
  const path = inVault.replace(/\.(?:md|markdown)$/iu, '');
  if (!settings.format.includes('/')) return dayFromFormat(path.split('/').at(-1)!, settings.format);
  const under =
    settings.folder === ''
      ? path
      : path.startsWith(`${settings.folder}/`)
        ? path.slice(settings.folder.length + 1)
        : null;
  return under === null ? null : dayFromFormat(under, settings.format);
}

/** Notes read at once (each a few file-system calls): enough to keep the thread pool busy. */
const readAheadNotes = 16;

/** The most characters a Record's text holds (the contract's `content.text`). */
const maxRecordChars = 1_000_000;

/**
 * A note's body cut into parts that each fit a Record with `room` characters left for its footer: at
 * the last paragraph break before the limit, else the last line break, else the limit itself. A journal
 * kept in one file passes a million characters; it was skipped whole.
 */
export function noteParts(body: string, room: number): string[] {
  const max = Math.max(maxRecordChars / 2, maxRecordChars - room);
  const parts: string[] = [];
  let rest = body;
  while (rest.length > max) {
    const window = rest.slice(0, max);
    const paragraph = window.lastIndexOf('\n\n');
    const line = window.lastIndexOf('\n');
    const cut = paragraph > max / 2 ? paragraph : line > max / 2 ? line : max;
    parts.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  if (rest) parts.push(rest);
  return parts;
}

/** When a note occurred, and what its key holds in that time's place (ImportRecord.occurredAtInKey). */
type NoteTime = { at: string; inKey?: string };

/** What a note file's text says, read by its kind: what its Record is made of. */
interface NoteContent {
  title: string;
  body: string;
  /** Tags given beside the text (a note's front matter); those written in it are found in `body`. */
  tags: string[];
  /** The time the file's text gives (front matter); null: its name's day, else its file's time. */
  dated: NoteTime | null;
  /** What of the file was not read, for the report. */
  problem?: string;
}

/** A Markdown note's content, or why it is a skip. */
function markdownContent(text: string, file: string, o: ParseOptions): NoteContent | string {
  const fm = readFrontMatter(text);
  // Properties first, where Obsidian shows them; a note of properties alone (a person's card) is a note.
  const properties = propertyLines(fm.data, (key) => rawValue(fm.raw, key));
  const written = fm.body.trim();
  const body = [properties.join('\n'), written].filter((x) => x !== '').join('\n\n');
  if (!body) return 'empty note';
  // Code spans stay: a heading may name code ("# The `useEffect` hook").
  const heading = /^#[ \t]+(\S.*)$/m.exec(outsideFences(written))?.[1]?.trim();
  return {
    title: (typeof fm.data.title === 'string' && fm.data.title.trim()) || heading || noteName(file),
    body,
    tags: [...asStringList(fm.data.tags), ...asStringList(fm.data.tag)],
    dated: writtenNoteTime(fm, o),
    ...(fm.problem ? { problem: `front matter not read (${fm.problem}); imported without it` } : {}),
  };
}

/**
 * A canvas's content (canvas.ts), or why it is a skip. Its cards carry no title or date: it is named
 * as Obsidian shows it, by its file, and dated as a note without front matter is.
 */
function canvasContent(text: string, file: string): NoteContent | string {
  let body: string;
  try {
    body = canvasText(text);
  } catch (e) {
    return `cannot be read: ${errorMessage(e)}`;
  }
  if (!body) return 'empty canvas: no text, file or link on it';
  return { title: noteName(file), body, tags: [], dated: null };
}

/**
 * One note file as its Records (one, or its parts: noteParts), or a skip with the reason. `real`: its
 * real path, when the walk knows it.
 */
async function readNote(
  file: string,
  real: string | null,
  ref: string,
  identify: (realFile: string) => Promise<NoteIdentity>,
  fileTime: FileTime,
  o: ParseOptions,
  vaultNotes: (vault: string) => Promise<VaultNotes>,
): Promise<ImportItem[]> {
  if (/\.excalidraw\.md$/iu.test(file)) return [skip(ref, 'an Excalidraw drawing, not a note')];
  let id: NoteIdentity;
  let realFile: string;
  try {
    realFile = real ?? (await realpath(file));
    id = await identify(realFile);
  } catch (e) {
    return [skip(ref, `cannot be read: ${errorMessage(e)}`)];
  }
  const vaultSettings = id.vault === undefined ? null : await vaultNotes(id.vault);
  const inVault = id.inVault ?? null;
  if (inVault !== null && vaultSettings?.templates.some((t) => inVault.startsWith(`${t}/`)))
    return [skip(ref, "a template in the vault's templates folder, not a note")];
  if (inVault !== null && vaultSettings?.templateNotes.some((t) => inVault.replace(/\.md$/iu, '') === t))
    return [skip(ref, "the vault's daily notes template, not a note")];
  let text: string;
  try {
    // Line ends are one `\n`, as every other format's text is and as the footer below writes them.
    text = (await readText(file)).replace(/\r\n?/g, '\n');
  } catch (e) {
    return [skip(ref, `cannot be read: ${errorMessage(e)}`)];
  }
  const content = isCanvasFile(file) ? canvasContent(text, file) : markdownContent(text, file, o);
  if (typeof content === 'string') return [skip(ref, content)];
  const settings = vaultSettings?.daily ?? null;
  const daily = settings === null || inVault === null ? null : { settings, inVault };
  const dated = content.dated ?? namedNoteDay(file, o, daily);
  const fromFile = dated ? null : ((await fileTime(file))?.toISOString() ?? null);
  return noteRecords(ref, id, content, { dated, fromFile });
}

/**
 * A note's content as its Records, each with the footer of its tags and links so they stay searchable.
 * `fromFile`: the file's time, when that is what dates it (no part of its key then).
 */
function noteRecords(
  ref: string,
  id: NoteIdentity,
  { title, body, tags: given, problem }: NoteContent,
  { dated, fromFile }: { dated: NoteTime | null; fromFile: string | null },
): ImportItem[] {
  // One tag once, whether the front matter writes it with its "#" or not.
  const tags = [...new Set([...given, ...inlineTags(body)].map((t) => t.replace(/^#/, '')))];
  // Links in code are code ("`[[not a link]]`" in a note about Obsidian's syntax), as tags there are.
  const links = wikilinks(withoutCode(body));
  const footer = [
    tags.length ? `Tags: ${tags.map((t) => `#${t}`).join(' ')}` : '',
    links.length ? `Links: ${links.map((l) => `[[${l}]]`).join(' ')}` : '',
  ].filter(Boolean);
  const occurred = dated?.at ?? fromFile;
  const tail = footer.length ? `\n\n${footer.join('\n')}` : '';
  // Each part is a Record of its own, the first under the note's own id (so a note that grows past the
  // limit keeps its first Record), and each with the footer, so its tags and links find every part.
  const parts = noteParts(body, tail.length);
  const problems = [
    problem ?? '',
    parts.length > 1
      ? `${body.length.toLocaleString('en')} characters, more than a Record holds: imported in ${parts.length} parts`
      : '',
  ].filter(Boolean);
  return parts.map((part, i) => ({
    type: 'record',
    ref: parts.length > 1 ? `${ref} (part ${i + 1} of ${parts.length})` : ref,
    body: {
      content: {
        kind: 'document',
        title: (parts.length > 1 ? `${title} (part ${i + 1} of ${parts.length})` : title).slice(0, 2000),
        text: part + tail,
      },
      source: { name: id.source, external_id: i === 0 ? id.externalId : `${id.externalId}#part-${i + 1}` },
      ...(occurred ? { occurred_at: occurred } : {}),
    },
    ...(fromFile ? { occurredAtInKey: null } : dated?.inKey ? { occurredAtInKey: dated.inKey } : {}),
    ...(problems.length > 0 && i === 0 ? { note: problems.join('; ') } : {}),
  }));
}

/** What a vault's settings say of its notes: how daily notes are named, where templates are kept. */
interface VaultNotes {
  daily: DailyNotes | null;
  templates: string[];
  templateNotes: string[];
}

async function reader(o: ParseOptions) {
  const fileTime = fileTimeOf(o);
  const identify = noteIdentities(
    o.uploadRoot ? await realpath(o.uploadRoot) : null,
    o.archivePlaces,
    o.namedFrom ?? null,
  );
  // Each vault's settings, read once.
  const settings = new Map<string, Promise<VaultNotes>>();
  const vaultNotes = (vault: string) => {
    let read = settings.get(vault);
    if (!read) {
      read = Promise.all([readDailyNotes(vault), readTemplateFolders(vault), readTemplateNotes(vault)]).then(
        ([daily, templates, templateNotes]) => ({ daily, templates, templateNotes }),
      );
      settings.set(vault, read);
    }
    return read;
  };
  return (file: string, ref: string, real: string | null = null) =>
    readNote(file, real, ref, identify, fileTime, o, vaultNotes);
}

/**
 * One `document` Record per note: title from front matter, else the first heading, else the file name;
 * a JSON Canvas (`.canvas`) is a note too, named by its file, its words its cards' (canvas.ts);
 * occurred_at from front matter (`date`, `created`, `updated`; times without an offset in
 * `o.timeZone`), else the file's time (`fileTime`: by default its modification time; none when that is
 * not known), which then does not count as content; a date alone counts as the date, whatever zone it
 * was read in (ImportRecord.occurredAtInKey).
 * Tags (front matter and inline) and wikilink targets are appended as a footer so they stay searchable.
 * `source` and `external_id` follow from where the note lives (note-identity.ts), whether it was asked
 * for as `markdown` or `obsidian`; the report names notes by their path in what was imported.
 * A folder is walked with its links followed (walk-folder.ts); files other than notes are not read.
 */
export async function* parseMarkdown(path: string, o: ParseOptions): AsyncGenerator<ImportItem> {
  const read = await reader(o);
  if (!(await stat(path)).isDirectory()) {
    yield* await read(path, basename(path));
    return;
  }
  const { entries, failure } = await notesUnder(path);
  const notes = readAhead(entries, readAheadNotes, async (e) =>
    e.type === 'skip' ? [skip(e.rel, e.reason)] : read(e.path, e.rel, e.real),
  );
  let done = 0;
  for await (const items of notes) {
    yield* items;
    o.onRead?.(++done / entries.length);
  }
  if (failure !== null) throw failure.error;
}

/**
 * The walk's notes and unreadable entries, all found before the first note is read, so that the share
 * read is known (ParseOptions.onRead): a vault's walk is a directory listing per folder, cheap beside
 * reading its notes. A walk that fails part way hands over what it found and, once those are read, its
 * error, as reading while walking did.
 */
async function notesUnder(path: string): Promise<{
  entries: Array<Exclude<WalkEntry, { type: 'folder' }>>;
  failure: { error: unknown } | null;
}> {
  const entries: Array<Exclude<WalkEntry, { type: 'folder' }>> = [];
  try {
    for await (const e of walkFolder(path))
      if (e.type === 'skip' || (e.type === 'file' && isNoteFile(e.rel))) entries.push(e);
  } catch (error) {
    return { entries, failure: { error } };
  }
  return { entries, failure: null };
}

/** The given note files, each named by its path under ROOT (a folder that also holds other files). */
export async function* parseNoteFiles(
  root: string,
  files: readonly string[],
  o: ParseOptions,
): AsyncGenerator<ImportItem> {
  const read = await reader(o);
  const notes = readAhead(files, readAheadNotes, (file) =>
    read(file, relative(root, file).split(sep).join('/')),
  );
  let done = 0;
  for await (const items of notes) {
    yield* items;
    o.onRead?.(++done / files.length);
  }
}
