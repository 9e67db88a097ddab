import { readdir } from 'node:fs/promises';
import { sep } from 'node:path';
import type { RecordPage } from '../../engine/contract/index.ts';
import type { ImportItem } from './import-item.ts';
import { isNoteFile } from './formats/note-file.ts';

/**
 * One page of the Brain's Records of a source, as listRecords reads them (the API client's, the
 * engine's); null when they may not be read.
 */
export type SourcePage = (q: {
  source: string;
  limit: number;
  cursor?: string;
}) => Promise<RecordPage | null>;

/** The source whose notes are named by a path that depends on how they were chosen (note-identity.ts). */
const plainNotes = 'markdown';

interface Stored {
  /** Every external id the Brain's plain notes carry. */
  ids: Set<string>;
  /** Those of two segments or more, by their last two ("Notes/todo.md"). */
  byTail: Map<string, string[][]>;
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
 * is taken by one note of an import: a second note of the same import that would take it keeps its own,
 * and a name in `ownNames` (the names the import's own notes are known to carry: notesInCopy) is left to
 * the note that carries it, whenever it comes.
 *
 * The Brain's plain notes are read once, when the first note is named (one indexed read of the source,
 * page by page; only the names are kept), and never when the import holds none.
 */
export class KnownNoteNames {
  private stored: Promise<Stored> | null = null;
  /** Stored names given out in this import, and to which of its notes. */
  private readonly taken = new Map<string, string>();

  constructor(
    private readonly listPage: SourcePage,
    private readonly ownNames: ReadonlySet<string> = new Set(),
  ) {}

  /** The external id to write the plain note named ID under. */
  async nameFor(id: string): Promise<string> {
    const { ids, byTail } = await (this.stored ??= this.read());
    const own = segments(id);
    let name = id;
    if (!ids.has(id) && own.length >= 2) {
      const agreeing = (byTail.get(tailOf(own)) ?? [])
        .filter((s) => (endsWith(own, s) || endsWith(s, own)) && !this.ownNames.has(s.join('/')))
        .sort((a, b) => a.length - b.length);
      const onePath = agreeing.every((s, i) => i === 0 || endsWith(s, agreeing[i - 1]!));
      // Equal lengths that differ cannot both end each other: sorted, a branch fails the check.
      if (agreeing.length > 0 && onePath) name = agreeing.at(-1)!.join('/');
    }
    if (!ids.has(name)) return id;
    const holder = this.taken.get(name);
    if (holder !== undefined && holder !== id) return id;
    this.taken.set(name, id);
    return name;
  }

  private async read(): Promise<Stored> {
    const stored: Stored = { ids: new Set(), byTail: new Map() };
    let cursor: string | undefined;
    do {
      const page = await this.listPage({ source: plainNotes, limit: 200, ...(cursor ? { cursor } : {}) });
      // Part of the names would make a name look unique that is not: then none is matched.
      if (page === null) return { ids: new Set(), byTail: new Map() };
      for (const r of page.data) {
        const id = r.source.external_id;
        if (id === null || stored.ids.has(id)) continue;
        stored.ids.add(id);
        const s = segments(id);
        if (s.length < 2) continue;
        const tail = tailOf(s);
        const same = stored.byTail.get(tail);
        if (same) same.push(s);
        else stored.byTail.set(tail, [s]);
      }
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    return stored;
  }
}

/**
 * The names of the notes in a copy that has no place of its own (an upload, an unpacked archive: ROOT is
 * its `uploadRoot`), which are their paths under ROOT: KnownNoteNames leaves a stored one of them to
 * its own note, even when another note of the import would take it first.
 */
export async function notesInCopy(root: string): Promise<Set<string>> {
  const files = await readdir(root, { recursive: true });
  return new Set(files.filter(isNoteFile).map((f) => f.split(sep).join('/')));
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
