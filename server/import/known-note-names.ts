import { realpath, stat } from 'node:fs/promises';
import type { RecordPage } from '../../engine/contract/index.ts';
import type { ImportItem } from './import-item.ts';
import type { ImportTarget } from './plan-import.ts';
import { recordPages, type PageQuery } from './record-pages.ts';
import { walkFolder } from './walk-folder.ts';
import { isNoteFile } from './formats/note-file.ts';
import { formerNoteName, isDiskPath, noteIdentities } from './formats/note-identity.ts';
import type { ArchivePlaces } from './archive-places.ts';

/**
 * Every external id the Brain's plain notes carry, or null when the caller may not read them (a key
 * without records:read): then no note is matched. Any other failure throws: matching nothing would
 * write every note again, the duplication this is for.
 */
export type StoredNoteNames = () => Promise<readonly string[] | null>;

/** The source whose notes are named by a path that depends on how they were chosen (note-identity.ts). */
export const plainNotes = 'markdown';

/** Matches listed by example; `count` has them all. */
const listedMatches = 5;

/** The notes of an import given a name the Brain already had, as its report says. */
export interface NoteMatches {
  count: number;
  /**
   * The first few: the note's own name (its path as chosen; from disk its absolute path), and the
   * stored name it was written under.
   */
  examples: { item: string; name: string }[];
}

const segments = (id: string) => id.split('/');
const tailOf = (s: string[]) => s.slice(-2).join('/');

/** SHORTER's every segment is one of LONGER's last ones, in order. */
function endsWith(longer: string[], shorter: string[]): boolean {
  if (shorter.length > longer.length) return false;
  for (let i = 1; i <= shorter.length; i++)
    if (longer[longer.length - i] !== shorter[shorter.length - i]) return false;
  return true;
}

/** Could be matched at all: a file chosen alone ("todo.md") says no folder, so it never is. */
const matchable = (id: string) => id.includes('/');

/**
 * The same plain note is named differently when it is chosen differently: on disk by its absolute path
 * ("/home/ana/Parent/Notes/todo.md"), uploaded by its path as chosen ("Notes/todo.md" from the folder,
 * "Parent/Notes/todo.md" from its parent). The engine supersedes only within one (source, external id),
 * so this gives a note the name the Brain already knows it by, and its Idempotency-Key follows: the
 * note unchanged is a replay, the note edited a new revision of the same item
 * (docs/decisions/import-mcp.md, "Note identity").
 *
 * A note's own name, when the Brain has it, is kept. Otherwise the stored names that agree with it on
 * every segment of the shorter of the two, at least a folder and the file name, are the same place as
 * far as either knows. Two absolute paths never agree so (each begins at the root), nor does a file
 * chosen alone ("todo.md", one segment) with anything. When those names all lie along one path (each
 * the end of the next longer), the longest is taken; when they branch ("A/Notes/todo.md",
 * "B/Notes/todo.md" for "Notes/todo.md"), the note keeps its own name and is a new item. A stored name
 * that more than one note of the import agrees with (its own name counts) goes to none of them: the
 * import's notes are all known before any is named (`ownNames`: plainNoteNames), so which is read
 * first never matters.
 *
 * The Brain's names are read once (the importers call `prepare` before writing anything, so a failed
 * read stops the import), and not at all when no note of the import could be matched.
 */
export class KnownNoteNames {
  private names: Promise<Map<string, string>> | null = null;
  readonly matches: NoteMatches = { count: 0, examples: [] };

  /**
   * NAMED_FROM: the folder that holds what was imported from disk (note-identity.ts), whose notes were
   * named by their absolute paths before. Such a note's former name, when the Brain has it and not
   * its own, is taken first: a note imported before is the same item, and another folder's note of the
   * same name never is. A stored absolute path that is a file on this disk is another note here, never
   * one of this import's (each is its own former name): only one that is not here (another device's
   * copy of the folder, a folder since moved) can be the same note at another place. TAKEN_BY: names
   * this device gave other folders ("Notes/", folder-names.ts), under which no note is this import's.
   */
  constructor(
    private readonly stored: StoredNoteNames,
    private readonly ownNames: ReadonlySet<string>,
    private readonly namedFrom?: string,
    private readonly takenBy: readonly string[] = [],
  ) {}

  /** Reads the Brain's names now, so that a failure to read them stops the import before it writes. */
  async prepare(): Promise<void> {
    await (this.names ??= this.match());
  }

  /** The external id to write the plain note named ID under. */
  async nameFor(id: string): Promise<string> {
    const name = (await (this.names ??= this.match())).get(id);
    if (name === undefined) return id;
    this.matches.count += 1;
    if (this.matches.examples.length < listedMatches) this.matches.examples.push({ item: id, name });
    return name;
  }

  /** The name the plain note named ID is stored under, uncounted (what a note found is known by). */
  async storedName(id: string): Promise<string> {
    return (await (this.names ??= this.match())).get(id) ?? id;
  }

  /** Each of the import's notes that takes a stored name other than its own, and that name. */
  private async match(): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    const own = [...this.ownNames].filter(matchable);
    if (own.length === 0) return out;
    const storedNames = await this.stored();
    if (storedNames === null) return out;
    const ids = new Set(storedNames);
    const byTail = new Map<string, string[][]>();
    for (const id of ids) {
      if (!matchable(id)) continue;
      const s = segments(id);
      const same = byTail.get(tailOf(s));
      if (same) same.push(s);
      else byTail.set(tailOf(s), [s]);
    }
    const agreeing = new Map<string, string[][]>();
    const claimants = new Map<string, number>();
    const namedFrom = this.namedFrom;
    for (const id of own) {
      if (namedFrom !== undefined && !ids.has(id)) {
        const former = formerNoteName(namedFrom, id);
        if (ids.has(former)) {
          out.set(id, former);
          continue;
        }
      }
      const mine = segments(id);
      let found = (byTail.get(tailOf(mine)) ?? []).filter((s) => endsWith(mine, s) || endsWith(s, mine));
      if (namedFrom !== undefined) found = await notOnThisDisk(found);
      const taken = this.takenBy;
      if (taken.length > 0) found = found.filter((s) => !taken.some((t) => s.join('/').startsWith(t)));
      for (const s of found) claimants.set(s.join('/'), (claimants.get(s.join('/')) ?? 0) + 1);
      if (!ids.has(id) && found.length > 0) agreeing.set(id, found);
    }
    for (const [id, found] of agreeing) {
      found.sort((a, b) => a.length - b.length);
      // Equal lengths that differ cannot both end each other: sorted, a branch fails the check.
      if (!found.every((s, i) => i === 0 || endsWith(s, found[i - 1]!))) continue;
      const free = found.filter((s) => claimants.get(s.join('/')) === 1);
      if (free.length > 0) out.set(id, free.at(-1)!.join('/'));
    }
    return out;
  }
}

/** Of stored names (as segments), those that are no file on this disk. */
async function notOnThisDisk(found: string[][]): Promise<string[][]> {
  const here = await Promise.all(
    found.map((s) => {
      const id = s.join('/');
      return isDiskPath(id)
        ? stat(id).then(
            () => true,
            () => false,
          )
        : false;
    }),
  );
  return found.filter((_, i) => !here[i]);
}

/** Every stored name, read a page at a time by LISTPAGE (listRecords); null when it answers null. */
export function pagedNoteNames(
  listPage: (q: { source: string } & PageQuery) => Promise<RecordPage | null>,
): StoredNoteNames {
  return async () => {
    const names: string[] = [];
    for await (const page of recordPages(listPage, { source: plainNotes })) {
      if (page === null) return null;
      for (const r of page.data) if (r.source.external_id !== null) names.push(r.source.external_id);
    }
    return names;
  };
}

/** Real paths resolved at once while listing notes: enough to keep the thread pool busy. */
const resolvedAtOnce = 32;

/**
 * The names the plain notes of TARGETS are written under, read as their reader names them
 * (note-identity.ts) without reading the notes: paths only, one walk of a folder read whole. A note in
 * a vault is the vault's (source obsidian) and not among them. `uploadRoot`, `places` and `namedFrom`
 * as for the import.
 */
export async function plainNoteNames(
  targets: readonly ImportTarget[],
  uploadRoot: string | undefined,
  places?: ArchivePlaces,
  namedFrom?: string,
): Promise<Set<string>> {
  const identify = noteIdentities(uploadRoot ? await realpath(uploadRoot) : null, places, namedFrom ?? null);
  const out = new Set<string>();
  const add = async (real: string) => {
    const id = await identify(real);
    if (id.source === plainNotes) out.add(id.externalId);
  };
  // A file that cannot be resolved is its reader's to report (a skip); here it is no name.
  const resolve = (files: readonly string[]) =>
    Promise.all(files.map((f) => realpath(f).then(add, () => {})));
  for (const t of targets) {
    if (t.format !== 'markdown' && t.format !== 'obsidian') continue;
    if (t.notes) {
      for (let i = 0; i < t.notes.length; i += resolvedAtOnce)
        await resolve(t.notes.slice(i, i + resolvedAtOnce));
    } else if (
      await stat(t.path).then(
        (s) => s.isDirectory(),
        () => false,
      )
    ) {
      for await (const e of walkFolder(t.path)) if (e.type === 'file' && isNoteFile(e.rel)) await add(e.real);
    } else await resolve([t.path]);
  }
  return out;
}

/** ITEMS with each plain note under the name the Brain knows it by (KnownNoteNames); others as they are. */
export async function* underKnownNames(
  items: AsyncIterable<ImportItem> | Iterable<ImportItem>,
  names: KnownNoteNames | undefined,
): AsyncGenerator<ImportItem> {
  for await (const item of items) {
    if (names === undefined || item.type !== 'record' || item.body.source.name !== plainNotes) {
      yield item;
      continue;
    }
    const id = item.body.source.external_id;
    const known = await names.nameFor(id);
    yield known === id
      ? item
      : { ...item, body: { ...item.body, source: { ...item.body.source, external_id: known } } };
  }
}
