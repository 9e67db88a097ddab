import { createHash } from 'node:crypto';
import type { MnemoRecord, RecordCreate, RecordPage, SourceList } from '../../engine/contract/index.ts';
import { stableJson } from './idempotency-key.ts';
import { recordPages, type PageQuery } from './record-pages.ts';

/** One page of a source's Records (listRecords of the engine or of the API client). */
export type SourcePage = (q: { source: string } & PageQuery) => Promise<RecordPage>;

/**
 * Whether an item an import wrote was new to the Brain or took the place of one it held: the same
 * source and external id with other content (an edited note, a changed contact, an event moved, another
 * visibility), which the engine supersedes within that name. The import counts the one as imported and
 * the other as replaced.
 */
export interface HeldItems {
  /** After a write that was not a replay: whether RECORD_ID took the place of a Record the Brain held. */
  replaces(source: string, externalId: string, recordId: string): Promise<boolean>;
  /**
   * After a replay of RECORD_ID: the revision of its item written next, null when RECORD_ID is the
   * item's newest, or the newest says just what RECORD_ID says (or its revisions cannot be read). An
   * item edited and then edited back replays its first revision, which a later one replaced: it must be
   * written again (`revisionKey`). A newest revision with the same content, occurred_at and visibility
   * is the same item imported on another device and pulled by sync (pulled Records carry no
   * Idempotency-Key): writing it again would make every device's re-import replace the others'.
   */
  after(source: string, externalId: string, recordId: string): Promise<string | null>;
  /**
   * Whether this import wrote an item of this source and external id before (and notes that it has
   * now): a calendar's event in two files, a to-do and its override, are two versions in one import,
   * which is no edit undone.
   */
  seenBefore(source: string, externalId: string): boolean;
  /** Whether the Brain holds a Record of this source and external id. */
  holds(source: string, externalId: string): Promise<boolean>;
  /**
   * Whether the item's newest revision the Brain holds says just what BODY says (content, instant and
   * visibility): the same item imported on another device and pulled by sync, under that device's
   * Idempotency-Key, which never travels. Writing it here would add a revision of the same text.
   * TIME_FROM_FILE: the item's instant is its file's (a note without a date of its own), which is no
   * part of what it says (ImportRecord.occurredAtInKey): a copy of the folder on another device,
   * its files written there at other times, says the same when its content and visibility do.
   */
  newestSays(source: string, externalId: string, body: ItemBody, timeFromFile?: boolean): Promise<boolean>;
}

/** What an import sends of an item, as far as whatItSays reads it. */
export interface ItemBody {
  readonly content: RecordCreate['content'];
  readonly occurred_at?: string | undefined;
  readonly visibility?: MnemoRecord['visibility'] | undefined;
}

/**
 * The sources whose import holds one version of an item, so that a replay of an older revision is an
 * edit undone: a note by its path, a chat's message by its id. Not a calendar or an address book, where
 * two files may hold two versions of one UID, nor mail, where two folders may hold one Message-ID.
 */
const oneVersionPerImport = new Set(['markdown', 'obsidian', 'slack', 'whatsapp', 'chatgpt', 'claude']);

/**
 * The key of an item written again after its key replayed a revision that a later one (AFTER) replaced:
 * an edit undone ("A", then "B", then "A" again). Chained from the replayed key and the revision after
 * it, so the next import of the same content follows the same keys to the revision this one writes, and
 * finds it unchanged.
 */
export function revisionKey(key: string, after: string): string {
  return `imp_${createHash('sha256').update(`${key}\u0000${after}`).digest('base64url')}`;
}

/** At most this many revisions are followed for one item in one write (each a replay). */
const maxRevisionSteps = 32;

/**
 * Writes an item with KEY and, while the write replays a revision that a later one replaced, again
 * with the next key of the chain (revisionKey). Returns the final write and whether it was a replay of
 * the item's newest revision (unchanged).
 */
export async function writeRevision<R extends { record: { id: string }; replayed?: boolean | null }>(
  held: HeldItems,
  item: { source: string; externalId: string; body: ItemBody; timeFromFile?: boolean; mayBeCut?: boolean },
  key: string,
  write: (key: string) => Promise<R>,
  replayedOf: (written: R) => boolean = (w) => w.replayed === true,
): Promise<{ written: R | null; unchanged: boolean }> {
  if (item.mayBeCut === true && (await held.holds(item.source, item.externalId)))
    return { written: null, unchanged: true };
  // Only sources of one version per item are remembered: a mail import's Message-IDs are not kept.
  const undoable = oneVersionPerImport.has(item.source) && !held.seenBefore(item.source, item.externalId);
  if (await held.newestSays(item.source, item.externalId, item.body, item.timeFromFile))
    return { written: null, unchanged: true };
  let written = await write(key);
  if (!undoable) return { written, unchanged: replayedOf(written) };
  for (let step = 0; step < maxRevisionSteps && replayedOf(written); step += 1) {
    const next = await held.after(item.source, item.externalId, written.record.id);
    if (next === null) return { written, unchanged: true };
    key = revisionKey(key, next);
    written = await write(key);
  }
  return { written, unchanged: replayedOf(written) };
}

/**
 * HeldItems from the Brain's sources as they were before the import wrote anything (`sources`; null
 * when the caller may not read them, or the import made the Brain): a source's Records are read, page by
 * page, once per source, when the first item of a source the Brain held imported Records of is about to
 * be written (to tell the same item pulled from another device, `newestSays`), written anew or replayed
 * (to tell an edit undone, `after`); a first import reads nothing. Records this import wrote before that read are among them, so an item
 * replaces another only through a Record other than its own. A read that fails tells nothing: its items
 * count as imported, or unchanged.
 */
export function heldItems(sources: SourceList | null, page: SourcePage): HeldItems {
  const held = new Set((sources?.data ?? []).filter((s) => s.reconciled_records > 0).map((s) => s.name));
  const bySource = new Map<string, Promise<HeldSource>>();
  const seen = new Set<string>();
  const read = async (source: string): Promise<HeldSource> => {
    const ids = new Map<string, string[]>();
    const says = new Map<string, Said>();
    for await (const p of recordPages(page, { source }))
      for (const r of p?.data ?? []) {
        const id = r.source.external_id;
        if (id === null) continue;
        const revisions = ids.get(id);
        if (revisions) revisions.push(r.id);
        else ids.set(id, [r.id]);
        says.set(r.id, whatItSays(source, r));
      }
    // By when they were written (ids.ts), as the engine orders an item's revisions.
    for (const revisions of ids.values()) revisions.sort();
    return { ids, says };
  };
  /** A held source's items, read once (a read that fails holds none). */
  const heldSource = (source: string): Promise<HeldSource> => {
    let got = bySource.get(source);
    if (!got) {
      got = read(source).catch(() => ({ ids: new Map(), says: new Map() }));
      bySource.set(source, got);
    }
    return got;
  };
  /**
   * Whether the Brain held Records of the source: listed with imported Records, or, not listed, with
   * Records pulled from a sync remote (another device's import of the same files), which listSources
   * counts under no source of this device (docs/sync.md) but an import must still find unchanged. Read
   * once per source; a first import reads one empty page of each.
   */
  const isHeld = async (source: string): Promise<boolean> =>
    held.has(source) || (sources !== null && (await heldSource(source)).ids.size > 0);
  /** A held item's Record ids, oldest first, and what each Record of its source says. */
  const revisions = async (source: string, externalId: string) => {
    const { ids, says } = await heldSource(source);
    return { ids: ids.get(externalId) ?? [], says };
  };
  return {
    async replaces(source, externalId, recordId) {
      if (!(await isHeld(source))) return false;
      return (await revisions(source, externalId)).ids.some((id) => id !== recordId);
    },
    async holds(source, externalId) {
      return (await isHeld(source)) && (await revisions(source, externalId)).ids.length > 0;
    },
    seenBefore(source, externalId) {
      const pair = `${source}\u0000${externalId}`;
      if (seen.has(pair)) return true;
      seen.add(pair);
      return false;
    },
    async newestSays(source, externalId, body, timeFromFile = false) {
      // Without its instant an item is stamped when written: nothing to compare it with.
      if (body.occurred_at === undefined || !(await isHeld(source))) return false;
      const { ids, says } = await revisions(source, externalId);
      const newest = ids.at(-1);
      if (newest === undefined) return false;
      const item = whatItSays(source, { ...body, visibility: body.visibility ?? 'shareable' });
      // An item dated by its file is the same whatever that file's time on this disk.
      return sameSaid(says.get(newest), item, !timeFromFile);
    },
    async after(source, externalId, recordId) {
      if (!(await isHeld(source))) return null;
      const { ids, says } = await revisions(source, externalId);
      const later = ids.filter((id) => id > recordId);
      if (later.length === 0) return null;
      const replayed = says.get(recordId);
      if (replayed !== undefined && sameSaid(says.get(later.at(-1)!), replayed, true)) return null;
      return later[0]!;
    },
  };
}

/** A source's held items: each external id's Record ids, oldest first, and what each Record says. */
interface HeldSource {
  ids: ReadonlyMap<string, readonly string[]>;
  says: ReadonlyMap<string, Said>;
}

/** What a Record says as an import writes it (whatItSays): its content and visibility, and its instant. */
interface Said {
  /** A digest of the content and visibility. */
  body: string;
  /** When it occurred, as an instant where it reads as one. */
  at: number | string | undefined;
}

/** Whether A and B say the same: the same body, and the same instant when `withTime`. */
const sameSaid = (a: Said | undefined, b: Said, withTime: boolean): boolean =>
  a !== undefined && a.body === b.body && (!withTime || a.at === b.at);

/**
 * A calendar to-do's lines under its title ("Due: …", "Done: …", as ics.ts writes them) with a date
 * that was written as its 00:00Z ("Due: 2026-12-15T00:00:00.000Z", before dates were written as dates)
 * said as the date: the to-dos imported before say the same as the file says now. A date-time due at
 * exactly 00:00Z reads as that date too, on both sides, so it stays the same; only a to-do changed
 * from one to the other on the same day would be missed, which the old text could not tell either.
 */
function todoDays(source: string, content: RecordCreate['content']): RecordCreate['content'] {
  if (
    source !== 'ics' ||
    typeof content === 'string' ||
    content.kind !== 'document' ||
    !content.text.startsWith('To-do: ')
  )
    return content;
  const lines = content.text.split('\n');
  // The lines under the title that say when, as todoEntry (engine/core/derive/split-text.ts) reads them.
  for (let i = 1; i < lines.length && /^(?:Due|Done)(?::|$)/u.test(lines[i]!); i += 1)
    lines[i] = lines[i]!.replace(/^((?:Due|Done): \d{4}-\d\d-\d\d)T00:00:00\.000Z$/u, '$1');
  return { ...content, text: lines.join('\n') };
}

/**
 * What a Record of SOURCE says as an import writes it: a digest of its content and visibility (a
 * calendar to-do's dates said one way, todoDays) and, apart, when it occurred (the instant), so an item
 * dated by its file is compared without it and no second digest is made.
 */
function whatItSays(
  source: string,
  r: {
    content: RecordCreate['content'];
    visibility: MnemoRecord['visibility'];
    occurred_at?: string | undefined;
  },
): Said {
  const at = Date.parse(r.occurred_at ?? '');
  return {
    body: createHash('sha256')
      .update(stableJson({ content: todoDays(source, r.content), visibility: r.visibility }))
      .digest('base64url'),
    at: Number.isNaN(at) ? r.occurred_at : at,
  };
}
