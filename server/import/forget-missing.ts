import { importerObjectType } from '../../engine/contract/importer-objects.ts';
import { readdir, realpath, stat } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join, sep } from 'node:path';
import type { ObjectAccept, ObjectPage } from '../../engine/contract/index.ts';
import { errorMessage } from '../../engine/index.ts';
import type { ImportRecord } from './import-item.ts';
import { isIgnored, walkFolder } from './walk-folder.ts';
import { isNoteFile } from './formats/note-file.ts';
import { formerNoteName, isDiskPath, noteIdentities } from './formats/note-identity.ts';
import type { ArchivePlaces } from './archive-places.ts';

/**
 * What `--forget-missing` (`forget_missing` on an upload) reconciles, and how
 * (docs/decisions/import-mcp.md, "Forgetting what is missing"). One rule: an item is missing when it
 * lies under what was imported and nothing there holds it now.
 *
 * - notes (`markdown`, `obsidian`): they lie where their id says. The stored notes under the imported
 *   root (a folder's prefix, a file's own name, each vault found inside the root whole) that no note file
 *   under the root is named as now. A note present but unreadable, empty or skipped is still there.
 * - calendars (`ics`) and contacts (`vcf`): an item's id is its UID, which names no file, so where an
 *   item lies is what the Brain was told each file held (HeldStore: every import records it). The items
 *   a file under the root held (the file imported again, or gone from the folder) that no file of this
 *   import holds now, and no file outside it held, are missing: an event deleted or cancelled, with
 *   every occurrence and description of its UID; a card gone, with every field. A UID still in a file
 *   (read from its lines, so an event skipped as unreadable or outside the recurrence window is there)
 *   keeps all of its item, but for the occurrences its series no longer gives where it was read whole
 *   (ImportRecord.series). What no file was recorded as holding (imported before files were recorded) is
 *   counted and kept, with the remedy.
 * - chats and mail are logs that exports cut (a date range, the last messages, one folder): never.
 */

type NoteSource = 'markdown' | 'obsidian';
export type WholeSource = 'ics' | 'vcf';
const wholeSources: readonly WholeSource[] = ['ics', 'vcf'];
const isWhole = (source: string): source is WholeSource =>
  (wholeSources as readonly string[]).includes(source);

/**
 * What each calendar or contacts file was last recorded as holding, by how the import names the file
 * (its real path; in an upload, its name from the chosen entry down): the items (`ics:<uid>`,
 * `vcf:<uid>:`) it held since the last import that forgot what was missing from it, each as its
 * digest (itemDigest): they are only ever compared, and a calendar's UIDs may be long.
 */
export interface HeldStore {
  /** Every file's item digests of SOURCE, by file; null when they may not be read. */
  read(source: WholeSource): Promise<Map<string, HeldEntry> | null>;
  /** Records FILE as holding DIGESTS; says why not when it was not (the key, the size), else null. */
  write(source: WholeSource, file: string, digests: string[]): Promise<string | null>;
}

/** What a file was recorded as holding: its items' digests; `plain` when recorded as the items themselves. */
export interface HeldEntry {
  digests: ReadonlySet<string>;
  /** Recorded by a Mnemo before digests (`items`): written again as digests by the next import. */
  plain?: boolean;
  /**
   * Recorded under the file's absolute path, as Mnemo named files before (heldFileName): written again
   * under its name by the next import that reads the file, and the record under the path retired.
   */
  renamed?: boolean;
}

/**
 * A calendar or contacts file's name in what the Brain records (HeldStore) for its real path REAL
 * (where it lies, archives placed): its path from NAMED_FROM, the folder that holds what was imported,
 * with `/`; its path itself when it lies outside, or there is none. Objects are read by agents and
 * sync to the other devices: a name from the folder says no more than the Records' own names do.
 */
export function heldFileName(real: string, namedFrom: string | undefined): string {
  if (namedFrom === undefined) return real;
  const from = namedFrom.endsWith(sep) ? namedFrom : namedFrom + sep;
  return real.startsWith(from) ? real.slice(from.length).split(sep).join('/') : real;
}

/**
 * An item's digest as a file's record holds it: 72 bits of its SHA-256, base64url (12 characters,
 * whatever the UID's length). Only equality is asked of it; two items of one Brain sharing one is
 * about one chance in 10^13 for a million items, and would keep an item, or forget one no file was
 * recorded as holding that another file's item shares it with.
 */
export function itemDigest(item: string): string {
  return createHash('sha256').update(item).digest('base64url').slice(0, 12);
}

/** Where stored notes lie that the import covers: under `prefix` (a folder's, ending in `/`), or it exactly. */
interface NoteScope {
  source: NoteSource;
  prefix: string;
  exact: boolean;
}

/** One item found missing: a stored external id of a source. */
export interface MissingItem {
  source: string;
  externalId: string;
}

export interface MissingPlan {
  /** What to forget, by source: external ids. */
  bySource: Map<string, string[]>;
  /** Why some or all of what is missing is kept, each a sentence the report shows. */
  kept: string[];
  /** What each file of a whole source is to be recorded as holding once the plan is carried out. */
  held: HeldFile[];
}

/** A calendar or contacts file and the items it is recorded as holding (their digests, sorted). */
export interface HeldFile {
  source: WholeSource;
  file: string;
  digests: string[];
}

// A probe name no file has, to ask how a folder's contents are named (note-identity.ts).
const probe = '\u0000';

const kinds: Record<WholeSource, { plural: string; file: string; item: string }> = {
  ics: { plural: 'calendar events', file: 'calendar (.ics)', item: 'calendar event' },
  vcf: { plural: 'contact fields', file: 'contacts (.vcf)', item: 'contact card' },
};

/**
 * The UIDs a calendar or vCard file's TEXT names, read from its lines (unfolded) rather than parsed: an
 * event the parser skips as unreadable or outside the recurrence window is still in the file. A
 * component whose STATUS is CANCELLED does not hold its UID (another one with that UID, a live
 * occurrence of the series, does): a cancelled event is one the calendar no longer has. A component
 * cut off (its END never comes: the next one of its kind begins, or the file ends) still holds its
 * UID: the import skips it as cut off, and a truncated file must not forget what it still names.
 * `cutWithoutUid`: a cut-off component named no UID (yet), so which item it is cannot be told.
 */
function uidsIn(folded: string): { uids: string[]; cutWithoutUid: boolean } {
  const text = folded.replace(/\r?\n[ \t]/g, '');
  const out = new Set<string>();
  let cutWithoutUid = false;
  const open: { kind: string; uid: string; cancelled: boolean }[] = [];
  const close = (done: { uid: string; cancelled: boolean } | undefined, cut: boolean) => {
    if (done?.uid && !done.cancelled) out.add(done.uid);
    else if (done && cut && !done.uid) cutWithoutUid = true;
  };
  for (const line of text.split(/\r?\n/)) {
    const m = /^(?:[A-Za-z0-9-]+\.)?([A-Za-z-]+)(?:;[^:]*)?:(.*)$/.exec(line);
    if (!m) continue;
    const name = m[1]!.toUpperCase();
    const value = m[2]!.trim();
    const top = open.at(-1);
    if (name === 'BEGIN') {
      const kind = value.toUpperCase();
      if (top?.kind === kind) close(open.pop(), true);
      open.push({ kind, uid: '', cancelled: false });
    } else if (name === 'END') close(open.pop(), false);
    else if (name === 'UID' && top) top.uid = value;
    else if (name === 'STATUS' && top) top.cancelled = value.toUpperCase() === 'CANCELLED';
  }
  // The file ended inside these: the innermost first (an event is cut, then its calendar).
  while (open.length > 0) {
    const done = open.pop()!;
    // A calendar cut with its event names no UID of its own: only the items inside count.
    close(done, done.kind !== 'VCALENDAR');
  }
  return { uids: [...out], cutWithoutUid };
}

/**
 * Collects, as an import reads, what is there now under what was imported, and says afterwards which
 * of the Brain's items are missing. Anything that may hide an item still there (a folder or file that
 * cannot be read, a read that failed part way, a failed write) keeps everything: `cannotForget`.
 */
export class MissingItems {
  private readonly scopes: NoteScope[] = [];
  private readonly notes = new Map<NoteSource, Set<string>>([
    ['markdown', new Set()],
    ['obsidian', new Set()],
  ]);
  /** Exact external ids seen, and item prefixes (`ics:<uid>`, `vcf:<uid>:`) of whole-file sources. */
  private readonly exact = new Map<WholeSource, Set<string>>([
    ['ics', new Set()],
    ['vcf', new Set()],
  ]);
  private readonly items = new Map<WholeSource, Set<string>>([
    ['ics', new Set()],
    ['vcf', new Set()],
  ]);
  private readonly wholeSources = new Set<WholeSource>();
  /** The recurring series read, by item (`ics:<uid>`): the span of occurrences read whole (ImportRecord.series). */
  private readonly series = new Map<string, { first: string; last: string }>();
  /** The calendar and contacts files read, by how they are named: the items each holds now. */
  private readonly files = new Map<WholeSource, Map<string, Set<string>>>([
    ['ics', new Map()],
    ['vcf', new Map()],
  ]);
  /** How each file read is named (fileName), by its path. */
  private readonly fileNames = new Map<string, string>();
  /** Where files lie that the import covers, as fileName names them: under a prefix, or it exactly. */
  private readonly fileScopes: { prefix: string; exact: boolean }[] = [];
  private readonly blocked: string[] = [];
  /** Calendar and contacts files covered whose text the parser has not handed over (coverFile). */
  private readonly unread = new Set<string>();

  /**
   * UPLOAD_ROOT: the folder an upload's chosen entries were written to (they are named from it down).
   * PLACES: archives found in the folder imported, whose files are named where the archive lies.
   */
  constructor(
    private readonly uploadRoot?: string,
    private readonly places?: ArchivePlaces,
    private readonly namedFrom?: string,
  ) {}

  /**
   * How the Brain remembers which file held what: as its notes are named (note-identity.ts), its path
   * from the folder that holds what was imported ("Calendars/work.ics"), in an upload its name in it;
   * its real path only when it lies outside (a link followed out of the folder).
   */
  private async fileName(path: string): Promise<string> {
    const real = await realpath(path);
    if (this.uploadRoot === undefined) return heldFileName(this.places?.where(real) ?? real, this.namedFrom);
    return relIn(await realpath(this.uploadRoot), real);
  }

  /** Something under the root could not be read, or was not written: nothing is forgotten. */
  cannotForget(why: string): void {
    if (!this.blocked.includes(why)) this.blocked.push(why);
  }

  /**
   * The notes under each of ROOTS (what was imported: the PATH, or each chosen entry of an upload),
   * found by a walk of their own, paths only, and named as the reader names them; `storedName` gives a
   * plain note the name the Brain knows it by (KnownNoteNames). Each root's scope is how its contents
   * are named, and each vault inside it whole.
   */
  async coverNotes(
    roots: readonly string[],
    uploadRoot: string | undefined,
    storedName: (id: string) => Promise<string>,
  ): Promise<void> {
    const identify = noteIdentities(
      uploadRoot ? await realpath(uploadRoot) : null,
      this.places,
      this.namedFrom ?? null,
    );
    // Calendar and contacts files lie under each root too (HeldStore names where).
    for (const root of roots) {
      const name = await this.fileName(root);
      const folder = (await stat(root)).isDirectory();
      this.fileScopes.push({ prefix: folder ? `${name}/` : name, exact: !folder });
    }
    const seen = async (real: string) => {
      const id = await identify(real);
      const name = id.source === 'markdown' ? await storedName(id.externalId) : id.externalId;
      this.notes.get(id.source)!.add(name);
      return id;
    };
    for (const root of roots) {
      const real = await realpath(root);
      if (!(await stat(real)).isDirectory()) {
        if (!isNoteFile(real)) continue;
        const id = await seen(real);
        this.coverAlso({ source: id.source, prefix: id.externalId, exact: true });
        continue;
      }
      const inside = await identify(join(real, probe));
      this.coverAlso({
        source: inside.source,
        prefix: inside.externalId.slice(0, -probe.length),
        exact: false,
      });
      const vaults = new Set<string>();
      const where = (p: string) => this.places?.where(p) ?? p;
      const walk = async (dir: string) => {
        for await (const e of walkFolder(dir)) {
          if (e.type === 'skip') {
            if (e.unread) this.cannotForget(`${e.rel}: ${e.reason}`);
            continue;
          }
          // An archive found here is read as the folder it unpacks to (archive-places.ts).
          const unpacked = e.type === 'file' ? this.places?.unpackedFrom(e.path) : undefined;
          if (unpacked !== undefined) {
            if ((await stat(unpacked)).isDirectory()) await walk(unpacked);
            else if (isNoteFile(unpacked)) await seen(await realpath(unpacked));
            continue;
          }
          if (e.type !== 'file' || !isNoteFile(e.rel)) continue;
          const id = await seen(e.real);
          // A vault inside the root is covered whole (one linked in from elsewhere is not).
          if (id.vault !== undefined && where(id.vault).startsWith(`${real}/`) && !vaults.has(id.vault)) {
            vaults.add(id.vault);
            this.scopes.push({
              source: 'obsidian',
              prefix: id.externalId.slice(0, -(id.inVault ?? relIn(id.vault, e.real)).length),
              exact: false,
            });
          }
        }
      };
      await walk(root);
    }
  }

  /**
   * SCOPE covered, and for plain notes named from the folder imported, where the same notes lay as a
   * Mnemo before named them (by their real paths: formerNoteName), which is where they are stored
   * when they were imported then.
   */
  private coverAlso(scope: NoteScope): void {
    this.scopes.push(scope);
    if (scope.source !== 'markdown' || this.namedFrom === undefined || isDiskPath(scope.prefix)) return;
    const bare = scope.exact ? scope.prefix : scope.prefix.replace(/\/$/u, '');
    if (bare === '') return;
    const former = formerNoteName(this.namedFrom, bare);
    this.scopes.push({ ...scope, prefix: scope.exact ? former : `${former}/` });
  }

  /**
   * A calendar or vCard file about to be read whole: its parser is to hand the text it reads to the
   * function returned (ParseOptions.onText), whose UIDs are then there, whatever became of its events.
   * Called for every import, with forget-missing or not, so that what each file holds is recorded
   * (recordHeld). A file whose text never came (it could not be read) keeps everything.
   */
  async coverFile(format: WholeSource, path: string): Promise<(text: string) => void> {
    this.wholeSources.add(format);
    let here: Set<string> | undefined;
    try {
      const name = await this.fileName(path);
      this.fileNames.set(path, name);
      here = this.files.get(format)!.get(name) ?? new Set<string>();
      this.files.get(format)!.set(name, here);
    } catch (e) {
      this.cannotForget(`${path}: cannot be read: ${errorMessage(e)}`);
      return () => {};
    }
    const unread = `${path}: cannot be read`;
    this.unread.add(unread);
    return (text) => {
      this.unread.delete(unread);
      const { uids, cutWithoutUid } = uidsIn(text);
      for (const uid of uids) {
        const item = format === 'ics' ? `ics:${uid}` : `vcf:${uid}:`;
        this.items.get(format)!.add(item);
        here.add(item);
      }
      if (cutWithoutUid)
        this.cannotForget(`${path}: an item is cut off before its UID, so which one it is cannot be told`);
    };
  }

  /**
   * A Record the import read (written, unchanged or skipped as a duplicate or invalid), from the file at
   * PATH when it is a calendar or contacts file: its item (an event or card without UID, named by its
   * fields) is one that file holds.
   */
  sawRecord(item: ImportRecord, path?: string): void {
    const source = item.body.source.name;
    // A note read is there, even one the walk before the import did not see (made meanwhile).
    if (source === 'markdown' || source === 'obsidian') {
      this.notes.get(source)!.add(item.body.source.external_id);
      return;
    }
    if (!isWhole(source)) return;
    this.exact.get(source)!.add(item.body.source.external_id);
    if (item.item === undefined) return;
    if (item.series) this.series.set(item.item, item.series);
    this.items.get(source)!.add(item.item);
    const file = path === undefined ? undefined : this.fileNames.get(path);
    if (file !== undefined) this.files.get(source)!.get(file)?.add(item.item);
  }

  /**
   * What each calendar and contacts file read is to be recorded as holding when nothing is forgotten
   * of its source: what it held before and holds now, so that an item deleted meanwhile is still known
   * to be the file's when an import forgets what is missing.
   */
  heldSince(before: ReadonlyMap<string, HeldEntry>, source: WholeSource): HeldFile[] {
    return [...this.files.get(source)!].map(([file, now]) => ({
      source,
      file,
      digests: [...new Set([...(before.get(file)?.digests ?? []), ...[...now].map(itemDigest)])].sort(),
    }));
  }

  /** Whether the import looked at anything forget-missing reconciles. */
  get covers(): boolean {
    return this.scopes.length > 0 || this.wholeSources.size > 0;
  }

  /** The sources whose stored ids `missing` needs. */
  get sources(): string[] {
    return [...new Set([...this.scopes.map((s) => s.source), ...this.wholeSources])];
  }

  /**
   * The stored items missing now, by source: STORED gives a source's external ids (null: they may not
   * be read), HELD what each calendar and contacts file was recorded as holding. Kept, with the reason:
   * everything when something could not be read or written; a scope none of whose stored items is
   * there now (a root that matched nothing, a vault renamed, a calendar emptied); items another file
   * holds; and events and cards no file was recorded as holding (imported before files were).
   */
  async missing(
    stored: (source: string) => Promise<readonly string[] | null>,
    held?: HeldStore,
  ): Promise<MissingPlan> {
    const bySource = new Map<string, string[]>();
    const kept: string[] = [];
    for (const why of this.unread) this.cannotForget(why);
    const before = new Map<WholeSource, Map<string, HeldEntry> | null>();
    for (const w of this.wholeSources) before.set(w, held ? await held.read(w) : null);
    // Files whose items are not forgotten are recorded as holding what they held before too.
    const keptHeld = (w: WholeSource) => {
      const b = before.get(w);
      return b ? changedHeld(b, this.heldSince(b, w)) : [];
    };
    if (this.blocked.length > 0) {
      const shown =
        this.blocked.slice(0, 3).join('; ') +
        (this.blocked.length > 3 ? `; +${this.blocked.length - 3} more` : '');
      kept.push(
        `nothing was forgotten: not everything under what was imported was read and written (${shown}), ` +
          'so an item missing from this import may still be there; import it again once it reads',
      );
      return { bySource, kept, held: [...this.wholeSources].flatMap(keptHeld) };
    }
    const heldAfter: HeldFile[] = [];
    for (const source of this.sources) {
      const ids = await stored(source);
      if (ids === null) {
        kept.push(
          `nothing of "${source}" was forgotten: this key may not read the Brain's Records (records:read), ` +
            'which telling what is missing needs',
        );
        if (isWhole(source)) heldAfter.push(...keptHeld(source));
        continue;
      }
      let gone: string[] = [];
      if (source === 'markdown' || source === 'obsidian') {
        const present = this.notes.get(source)!;
        for (const scope of this.scopes.filter((s) => s.source === source)) {
          if (!scope.exact && scope.prefix === '') continue;
          const under = ids.filter((id) =>
            scope.exact
              ? id === scope.prefix
              : id.startsWith(scope.prefix) && !id.slice(scope.prefix.length).split('/').some(isIgnored),
          );
          const absent = under.filter((id) => !present.has(id));
          if (absent.length > 0 && absent.length === under.length && !scope.exact) {
            kept.push(allMissing(under.length, `${source} note`, `under "${scope.prefix}"`, source));
            continue;
          }
          for (const id of absent) if (!gone.includes(id)) gone.push(id);
        }
      } else {
        const whole = source as WholeSource;
        const files = before.get(whole);
        if (!files) {
          kept.push(
            `nothing of "${whole}" was forgotten: what each ${kinds[whole].file} file held could not be read ` +
              '(objects:read), which telling where a missing item came from needs',
          );
          continue;
        }
        const plan = this.wholeMissing(whole, ids, files);
        kept.push(...plan.kept);
        gone = plan.gone;
        heldAfter.push(...changedHeld(files, plan.held));
      }
      if (gone.length > 0) bySource.set(source, gone);
    }
    return { bySource, kept, held: heldAfter };
  }

  /**
   * Whether a stored occurrence of a series this import read is one no longer: its id lies between the
   * first and the last occurrence read (one series' occurrence ids differ only in their RECURRENCE-ID,
   * written alike, so they sort in time order) and was not read: deleted (EXDATE), cancelled, or on a
   * day the rule no longer gives. Its UID is still in the file, which kept every part of it.
   */
  private leftSeries(whole: WholeSource, id: string): boolean {
    if (whole !== 'ics') return false;
    const at = id.lastIndexOf('@');
    const span = at > 0 ? this.series.get(id.slice(0, at)) : undefined;
    return (
      span !== undefined &&
      !/[@#]/u.test(id.slice(at + 1)) &&
      id.length === span.first.length &&
      id >= span.first &&
      id <= span.last
    );
  }

  /**
   * The notes' rule, an item's place being the files FILES says held it: the stored ids of WHOLE whose
   * item a file under what was imported held and no file of this import holds now, unless a file
   * outside it held it too. `held`: what each file is to be recorded as holding afterwards (what it
   * holds now, or when nothing is forgotten for want of trust, what it held before too).
   */
  private wholeMissing(
    whole: WholeSource,
    ids: readonly string[],
    files: ReadonlyMap<string, HeldEntry>,
  ): { gone: string[]; kept: string[]; held: HeldFile[] } {
    const now = this.files.get(whole)!;
    const exact = this.exact.get(whole)!;
    const items = this.items.get(whole)!;
    const itemsHere = new Set([...items].map(itemDigest));
    const here = (id: string) =>
      exact.has(id) ||
      (!this.leftSeries(whole, id) && [id, ...prefixesOf(whole, id)].some((p) => items.has(p)));
    const covered = (file: string) =>
      now.has(file) || this.fileScopes.some((s) => (s.exact ? file === s.prefix : file.startsWith(s.prefix)));
    const under = new Set<string>();
    const elsewhere = new Set<string>();
    const left: string[] = [];
    for (const [file, held] of files) {
      if (covered(file) && !now.has(file)) left.push(file);
      for (const digest of held.digests) (covered(file) ? under : elsewhere).add(digest);
    }
    // An id's item is the longest of its prefixes a file held (a UID may hold `@` or `:` itself): its
    // digest, as the files' records hold it.
    const itemOf = (id: string) =>
      [id, ...prefixesOf(whole, id).reverse()].map(itemDigest).find((d) => under.has(d) || elsewhere.has(d));
    const gone: string[] = [];
    let unknown = 0;
    for (const id of ids) {
      if (here(id)) continue;
      const item = itemOf(id);
      if (item === undefined) unknown += 1;
      else if (!elsewhere.has(item)) gone.push(id);
    }
    const { plural, file, item } = kinds[whole];
    const kept: string[] = [];
    const one = (n: number, many: string) => `${n} ${n === 1 ? many.replace(/s$/, '') : many}`;
    if (unknown > 0)
      kept.push(
        `${one(unknown, plural)} the Brain holds ${unknown === 1 ? 'is' : 'are'} in no ${file} file of this import ` +
          `and ${unknown === 1 ? 'was' : 'were'} kept: no file was recorded as holding ${unknown === 1 ? 'it' : 'them'} ` +
          '(imported before Mnemo recorded what each file holds), so it may come from another file; ' +
          `to drop what your files no longer hold, remove them (mnemo import --remove ${whole}) and import all your ${file} files again`,
      );
    // As for a folder of notes: when nothing the files under the root held is there now, the wrong
    // file (an empty export, another calendar of the same name) is likelier than every item deleted.
    if (gone.length > 0 && ![...under].some((d) => itemsHere.has(d))) {
      const stored = new Set(gone.map(itemOf)).size;
      kept.push(allMissing(stored, item, `from ${describe(now, left)}`, whole));
      return { gone: [], kept, held: this.heldSince(files, whole) };
    }
    const held = [
      ...[...now].map(([f, has]) => ({
        source: whole,
        file: f,
        digests: [...new Set([...has].map(itemDigest))].sort(),
      })),
      ...left.map((f) => ({ source: whole, file: f, digests: [] })),
    ];
    return { gone, kept, held };
  }
}

/** Why a scope none of whose stored items is there now was not reconciled, and the remedy. */
function allMissing(n: number, what: string, where: string, source: string): string {
  return (
    `the ${n} ${what}${n === 1 ? '' : 's'} the Brain holds ${where} ${n === 1 ? 'is' : 'are'} all missing ` +
    'from this import, so none was forgotten (a folder renamed or emptied, or another one chosen?): ' +
    `remove them with mnemo import --remove ${source} if they should go`
  );
}

/** The files of a scope, for a sentence (at most three named). */
function describe(now: ReadonlyMap<string, unknown>, left: readonly string[]): string {
  const names = [...now.keys(), ...left];
  const shown = names.slice(0, 3).map((n) => `"${n}"`);
  return names.length > 3 ? `${shown.join(', ')} and ${names.length - 3} more` : shown.join(', ');
}

/**
 * Of what files are to be recorded as holding, what differs from what they were recorded as holding:
 * an import that changes nothing appends no version. A record of plain items is written again as
 * digests (it is then smaller, and holds no UID in the clear).
 */
function changedHeld(before: ReadonlyMap<string, HeldEntry>, after: HeldFile[]): HeldFile[] {
  return after.filter((h) => {
    const was = before.get(h.file);
    if (was === undefined) return h.digests.length > 0;
    return (
      was.plain === true ||
      was.renamed === true ||
      was.digests.size !== h.digests.length ||
      h.digests.some((d) => !was.digests.has(d))
    );
  });
}

/** FILE's path in VAULT, with `/`. */
function relIn(vault: string, file: string): string {
  return file
    .slice(vault.length + 1)
    .split('\\')
    .join('/');
}

/** The item prefixes an external id of SOURCE may belong to (`ics:<uid>` before `@`/`#`, `vcf:<uid>:`). */
function prefixesOf(source: WholeSource, id: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < id.length; i++) {
    const c = id[i];
    if (source === 'ics' && (c === '@' || c === '#')) out.push(id.slice(0, i));
    if (source === 'vcf' && c === ':') out.push(id.slice(0, i + 1));
  }
  return out;
}

/** The entries an upload's files were written as (each is what was chosen). */
export async function chosenEntries(root: string): Promise<string[]> {
  return (await readdir(root)).sort().map((name) => join(root, name));
}

/** External ids sent to forget at once (the route takes at most 1,000). */
const forgottenAtOnce = 500;

export interface Forgotten {
  items: MissingItem[];
  /** Records forgotten: every revision of each item. */
  records: number;
  /** Memories deleted because they rested on nothing else. */
  memories: number;
}

/**
 * Forgets PLAN's items through FORGET (forgetSourceItems of the engine or the API client), a batch at a
 * time, each batch one transaction with forgetRecord's cascade; `onBatch` hears each batch done.
 */
export async function forgetPlanned(
  plan: MissingPlan,
  forget: (
    source: string,
    externalIds: string[],
  ) => Promise<{ deleted: { records: number; memories: number } }>,
  onBatch?: (done: Forgotten) => void,
): Promise<Forgotten> {
  const done: Forgotten = { items: [], records: 0, memories: 0 };
  for (const [source, ids] of plan.bySource)
    for (let i = 0; i < ids.length; i += forgottenAtOnce) {
      const batch = ids.slice(i, i + forgottenAtOnce);
      const receipt = await forget(source, batch);
      done.items.push(...batch.map((externalId) => ({ source, externalId })));
      done.records += receipt.deleted.records;
      done.memories += receipt.deleted.memories;
      onBatch?.(done);
    }
  return done;
}

/** PLAN's items, listed as forgetPlanned would forget them (a dry run). */
export function plannedItems(plan: MissingPlan): MissingItem[] {
  return [...plan.bySource].flatMap(([source, ids]) => ids.map((externalId) => ({ source, externalId })));
}

/** How an import's end reconciles what is missing (reconcileMissing). */
export interface Reconcile {
  /** Items the import wrote or found unchanged; none means nothing tells what is missing. */
  written: number;
  /** Items that failed to be written: an item missing may be one of them, so nothing is forgotten. */
  failed: number;
  /** Why nothing was forgotten when nothing was written, said of what was imported. */
  nothingWritten: string;
  /** A source's stored external ids, or null when they may not be read. */
  stored: (source: string) => Promise<readonly string[] | null>;
  /** forgetSourceItems, of the engine or the API client. */
  forget: (
    source: string,
    externalIds: string[],
  ) => Promise<{ deleted: { records: number; memories: number } }>;
  /** What each calendar and contacts file held; without it, no item of theirs is forgotten. */
  held?: HeldStore;
  /** List what would be forgotten, and forget nothing (nor record what files hold). */
  dryRun?: boolean;
  onForgotten?: (items: number) => void;
}

/**
 * After every item was read and written: the Brain's items under what was imported that the files no
 * longer hold, forgotten (a dry run: listed), or kept with the reasons in `notes` (something not read
 * or written, nothing imported, a folder or calendar that matched nothing, events and cards no file
 * was recorded as holding). What each calendar and contacts file holds is recorded then (not in a dry
 * run).
 */
export async function reconcileMissing(
  missing: MissingItems,
  o: Reconcile,
): Promise<Forgotten & { notes: string[] }> {
  const none = { items: [], records: 0, memories: 0 };
  if (!missing.covers)
    return {
      ...none,
      notes: [
        'nothing was forgotten: forgetting what is missing applies to notes, calendars and contacts, and this import held none; chats and mail are never forgotten so',
      ],
    };
  if (o.written === 0) {
    const unrecorded = !o.dryRun && o.held ? await recordHeld(missing, o.held) : [];
    return { ...none, notes: [o.nothingWritten, ...unrecorded] };
  }
  if (o.failed > 0) missing.cannotForget(`${o.failed} item${o.failed === 1 ? '' : 's'} failed to be written`);
  const plan = await missing.missing(o.stored, o.held);
  if (o.dryRun) return { items: plannedItems(plan), records: 0, memories: 0, notes: plan.kept };
  const done = await forgetPlanned(plan, o.forget, (d) => o.onForgotten?.(d.items.length));
  // Only once they are forgotten: a failure before keeps them known as the files'.
  const notes = [...plan.kept];
  for (const h of plan.held) {
    const why = o.held ? await o.held.write(h.source, h.file, h.digests) : null;
    if (why !== null) notes.push(notRecorded(h, why));
  }
  return { ...done, notes };
}

/** Why what a file holds now was not recorded, and what follows from it. */
function notRecorded(h: HeldFile, why: string): string {
  return (
    `what the ${kinds[h.source].file} file "${h.file}" holds now was not recorded (${why}): ` +
    `a ${kinds[h.source].item} added to it since it last was will be kept, not forgotten, once gone from it`
  );
}

/** Why nothing is recorded for a key without objects:read: what a file held is added to. */
const noObjectReads = "this key may not read the Brain's Objects: objects:read";

/**
 * An import that does not forget what is missing records what its calendar and contacts files hold,
 * adding to what they held before: an event deleted before an import that forgets is still known then.
 * Returns why a file's record was not written, one note a file.
 */
export async function recordHeld(missing: MissingItems, store: HeldStore): Promise<string[]> {
  const notes: string[] = [];
  for (const source of wholeSources) {
    if (!missing.sources.includes(source)) continue;
    const before = await store.read(source);
    if (before === null) {
      for (const h of missing.heldSince(new Map(), source))
        if (h.digests.length > 0) notes.push(notRecorded(h, noObjectReads));
      continue;
    }
    for (const h of changedHeld(before, missing.heldSince(before, source))) {
      const why = await store.write(h.source, h.file, h.digests);
      if (why !== null) notes.push(notRecorded(h, why));
    }
  }
  return notes;
}

/** The Object type what a calendar or contacts file held is recorded under (one Object a file). */
export const heldObjectType = importerObjectType;

/** A file's Object key: the source and a digest of the file's name (a Slug holds no path). */
export function heldKey(source: WholeSource, file: string): string {
  return `${source}-${createHash('sha256').update(file).digest('hex').slice(0, 40)}`;
}

/**
 * The most items one file's record holds: 15 bytes each in it (a digest, quoted, and a comma), 3 MB in
 * all, under the 4 MiB a /v1 request body may be (the CLI writes it through the API). A calendar of
 * more events is not recorded (and says so), so its deletions are kept rather than told from a record
 * that is not whole.
 */
export const maxHeldItems = 200_000;

/** Why nothing is recorded for a key without objects:write. */
export const noObjectWrites = "this key may not write the Brain's Objects: objects:write";

/**
 * A HeldStore in the Brain's Objects (`mnemo-import-file`, `{source, file, digests}`; `{source, file,
 * items}`, the items themselves, as Mnemo recorded them before), through listObjects and acceptObject
 * of the engine or the API client. LIST answering null (a key that may not read Objects) holds nothing
 * readable, so nothing of those sources is forgotten; ACCEPT answers why it did not write (a key that
 * may not), or null.
 */
export function heldInObjects(
  list: (cursor: string | undefined) => Promise<ObjectPage | null>,
  accept: (body: ObjectAccept) => Promise<string | null>,
  namedFrom?: string,
): HeldStore {
  // Records under an absolute path, by the name the file has now (heldFileName), to retire when it is
  // recorded under that name: the path is then no longer what the Object says.
  const formerly = new Map<string, string>();
  return {
    async read(source) {
      const out = new Map<string, HeldEntry>();
      const add = (file: string, entry: HeldEntry) => {
        const name = heldFileName(file, namedFrom);
        if (name !== file) formerly.set(`${source}\u0000${name}`, file);
        const other = out.get(name);
        // A file recorded both under its name and under its path held what either says.
        const digests = other ? new Set([...other.digests, ...entry.digests]) : entry.digests;
        const plain = entry.plain === true || other?.plain === true;
        const renamed = name !== file || other?.renamed === true;
        out.set(name, { digests, ...(plain ? { plain } : {}), ...(renamed ? { renamed } : {}) });
      };
      let cursor: string | undefined;
      do {
        const page = await list(cursor);
        if (page === null) return null;
        for (const o of page.data) {
          const v = o.value as {
            source?: unknown;
            file?: unknown;
            digests?: unknown;
            items?: unknown;
          } | null;
          if (v?.source !== source || typeof v.file !== 'string') continue;
          const strings = (a: unknown[]) => a.filter((i): i is string => typeof i === 'string');
          if (Array.isArray(v.digests)) add(v.file, { digests: new Set(strings(v.digests)) });
          else if (Array.isArray(v.items))
            add(v.file, { digests: new Set(strings(v.items).map(itemDigest)), plain: true });
        }
        cursor = page.has_more && page.next_cursor ? page.next_cursor : undefined;
      } while (cursor !== undefined);
      return out;
    },
    async write(source, file, digests) {
      if (digests.length > maxHeldItems)
        return `it holds ${digests.length} ${kinds[source].plural}, more than the ${maxHeldItems} one file's record may hold; split it into smaller files`;
      const why = await accept({
        type: heldObjectType,
        key: heldKey(source, file),
        value: { source, file, digests },
      });
      const former = formerly.get(`${source}\u0000${file}`);
      if (why !== null || former === undefined) return why;
      // Its newest version says nothing: the path leaves what is listed and what syncs from now on.
      formerly.delete(`${source}\u0000${file}`);
      return accept({ type: heldObjectType, key: heldKey(source, former), value: null });
    },
  };
}
