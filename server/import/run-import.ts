import { realpath, rm, stat } from 'node:fs/promises';
import { importerObjectType } from '../../engine/contract/importer-objects.ts';
import { folderNamesInObjects, nameFolder, type FolderNameStore } from './folder-names.ts';
import { basename, dirname } from 'node:path';
import { errorMessage, systemTimeZone } from '../../engine/index.ts';
import { RecordCreate, type Brain, type MnemoRecord, type SourceList } from '../../engine/contract/index.ts';
import { MnemoApiError, type MnemoClient } from '../client/index.ts';
import { validationMessage } from '../http/validate.ts';
import { BoundedQueue } from './bounded-queue.ts';
import { maxUtf8WholeFileBytes } from './decode-text.ts';
import { archiveSkips, isZipName, unpackArchive } from './expand-zip.ts';
import { earlierReading, earlierRecords, type EarlierReading, type EarlierRecords } from './earlier-zone.ts';
import type { ByteSource } from './text-lines.ts';
import type { Chat } from './formats/whatsapp.ts';
import { importItemKey, isUnchangedConflict } from './idempotency-key.ts';
import { SeenKeys } from './seen-keys.ts';
import {
  KnownNoteNames,
  pagedNoteNames,
  plainNoteNames,
  underKnownNames,
  type NoteMatches,
  type StoredNoteNames,
} from './known-note-names.ts';
import {
  asSent,
  type ImportFormat,
  type ImportItem,
  type ImportRecord,
  type ParseOptions,
  type Parser,
} from './import-item.ts';
import { itemLabel, planImport, type ImportTarget } from './plan-import.ts';
import { archivesFound, type FoundArchive } from './archive-places.ts';
import { holdTempFolder, makeTempFolder, removeDeadRunsFolders } from './temp-folders.ts';
import { storedIdsAt, underFormerIds, type StoredIdsAt } from './former-ids.ts';
import { heldItems, writeRevision } from './held-items.ts';
import { recordPages } from './record-pages.ts';
import {
  heldInObjects,
  heldObjectType,
  noObjectWrites,
  MissingItems,
  recordHeld,
  reconcileMissing,
  type HeldStore,
  type MissingItem,
} from './forget-missing.ts';

/**
 * A parser whose module loads when it is first used: the formats bring their own libraries (mail:
 * postal-mime and html-to-text; calendars and contacts: ical.js; notes: gray-matter), which a server
 * that never imports, or imports one format, does not need to load.
 */
const onFirstUse = (load: () => Promise<Parser>): Parser =>
  async function* (path, options) {
    const parse = await load();
    for await (const item of parse(path, options)) yield asSent(item, options);
  };

const notesReader = () => import('./formats/markdown.ts');

export const parsers: Record<ImportFormat, Parser> = {
  // One reader: a note's source name says whether it lies in a vault, not which of the two was asked.
  markdown: onFirstUse(async () => (await notesReader()).parseMarkdown),
  obsidian: onFirstUse(async () => (await notesReader()).parseMarkdown),
  chatgpt: onFirstUse(async () => (await import('./formats/chat-exports.ts')).parseChatgpt),
  claude: onFirstUse(async () => (await import('./formats/chat-exports.ts')).parseClaude),
  mbox: onFirstUse(async () => (await import('./formats/mbox.ts')).parseMbox),
  whatsapp: onFirstUse(async () => (await import('./formats/whatsapp.ts')).parseWhatsapp),
  slack: onFirstUse(async () => (await import('./formats/slack.ts')).parseSlack),
  ics: onFirstUse(async () => (await import('./formats/ics.ts')).parseIcs),
  vcf: onFirstUse(async () => (await import('./formats/vcf.ts')).parseVcf),
};

const parseNoteFiles = async function* (path: string, notes: readonly string[], o: ParseOptions) {
  for await (const item of (await notesReader()).parseNoteFiles(path, notes, o)) yield asSent(item, o);
};

export interface ImportProgress {
  total: number;
  done: number;
  /** Items new to the Brain, written. */
  imported: number;
  /** Items the Brain held in another version, written in their place (held-items.ts). */
  replaced: number;
  unchanged: number;
  skipped: number;
  failed: number;
  /** Items forgotten so far because they are missing from the files (forgetMissing). */
  forgotten: number;
  /**
   * The items the run expects once the file being read is read to its end: `total`, plus what the
   * part of it not yet read holds at the rate of the part read (ParseOptions.onRead), plus a skip for
   * each file ahead that is not read (a picture beside notes). `total` alone grows as the export is
   * read, a queue ahead of `done`. With countFirst: every item counted before the first was sent.
   * Absent: no more expected than `total`.
   */
  expected?: number;
  /**
   * While a file is read once before its first item is (a mailbox's first pass): which, and the share
   * of its bytes read. Absent otherwise.
   */
  scanning?: { ref: string; fraction: number };
  /**
   * While the items are counted before the first is sent (ImportOptions.countFirst): how many so far.
   * Absent otherwise.
   */
  counting?: number;
}

/** How one file or export found under PATH was read. */
export interface ImportPartSummary {
  /** Its path under PATH ('.' for PATH itself, and for the notes found in the folder PATH). */
  name: string;
  /** null: it could not be read (a file of no format mnemo reads, a broken link). */
  format: ImportFormat | null;
  imported: number;
  replaced: number;
  unchanged: number;
  skipped: number;
  failed: number;
}

export interface ImportSummary extends ImportProgress {
  /** The format read; 'mixed' when a folder held files of several. */
  format: ImportFormat | 'mixed';
  brain: string;
  brainCreated: boolean;
  /** One per file or export read: a file or an export folder is one part; a folder of files, several. */
  parts: ImportPartSummary[];
  /** Items not sent, each with the reason (malformed, empty, a notice, rejected by the server). */
  skippedItems: { ref: string; reason: string }[];
  /**
   * Items the server failed to store after the client's retries, and files that stopped reading part way
   * (code `read_failed`: what was read before the error was sent, the rest was not).
   */
  failedItems: { ref: string; reason: string; code: string }[];
  /** Items imported with a caveat, e.g. a note whose front matter could not be read. */
  notes: { ref: string; note: string }[];
  /**
   * Plain notes written under a name the Brain already had for them, chosen another way (a folder above,
   * an upload): each replaces, or repeats, what is stored under that name (KnownNoteNames).
   */
  matchedNotes: NoteMatches;
  /** PATH held nothing to send: no Brain was looked up or created, and nothing was written. */
  nothingToImport: boolean;
  /** Nothing was written or forgotten: the counts are what was read (dryRun). */
  dryRun: boolean;
  /**
   * With forgetMissing: the items forgotten (a dry run: that would be) because they are missing from
   * the files, each by source and external id, every revision of each; `forgotten` counts them.
   */
  forgottenItems: MissingItem[];
  /** Records (every revision) and Memories the forgetting removed. */
  forgottenRecords: number;
  forgottenMemories: number;
  /** Why items missing from the files were kept, when some were (forget-missing.ts). */
  forgetNotes: string[];
  /** Why what a calendar or contacts file holds was not recorded, one note a file (recordHeld). */
  heldNotes: string[];
  elapsedMs: number;
}

export interface ImportOptions extends ParseOptions {
  client: MnemoClient;
  brainId: string;
  path: string;
  format?: ImportFormat | 'auto';
  /** Requests in flight at once (default 8). */
  concurrency?: number;
  signal?: AbortSignal;
  onProgress?: (p: ImportProgress) => void;
  /** Entries of the archive PATH was unpacked from that were not unpacked, each reported as skipped. */
  archiveSkips?: ImportTarget[];
  /**
   * Forget the Brain's notes under PATH that PATH no longer holds (forget-missing.ts), once everything
   * was read and written, and the calendar events and contact cards the files under PATH held and no
   * longer do (forget-missing.ts).
   */
  forgetMissing?: boolean;
  /** Read everything and write nothing: report what would be sent and (forgetMissing) forgotten. */
  dryRun?: boolean;
  /**
   * Count the items before sending any (countItems), so that every report's `expected` is the whole
   * import's from the first. Without it, `expected` knows only the file being read: a folder of four
   * chats was 1 of 1, then 2 of 143, ... 598 of 598, its bar running backwards and its ETA wrong.
   */
  countFirst?: boolean;
  /**
   * How many of the items read last are remembered to skip a duplicate (SeenKeys; default
   * duplicateWindow): the memory an import holds for it, whatever the export's size.
   */
  duplicateWindow?: number;
  /**
   * This device, as the Brain's record of which folder each device named how tells devices apart
   * (folder-names.ts); default thisDevice(). Two servers of a test on one machine are two devices.
   */
  device?: string;
}

/** Errors that would fail every item alike: stop instead of reporting 10,000 copies of one problem. */
function isFatal(e: unknown): boolean {
  return (
    e instanceof MnemoApiError &&
    (e.type === 'authentication' ||
      e.type === 'permission' ||
      e.code === 'network_error' ||
      e.code === 'brain_not_found' ||
      // A hosted server whose database is away: every item fails alike until it is back (the client
      // has already retried once), and the import run again then sends only what is new.
      e.code === 'store_unavailable' ||
      e.code === 'key_registry_unreadable')
  );
}

/**
 * Validated against the contract before sending, so a malformed item is a skip with a reason, not a 400;
 * the reason is the message the server's 400 would carry.
 */
function validate(item: ImportRecord): string | null {
  const r = RecordCreate.safeParse(item.body);
  return r.success ? null : validationMessage(r.error, item.body, 'body', RecordCreate);
}

export interface CollectedRecords {
  records: ImportRecord[];
  /** The Idempotency-Key of each record, index for index. */
  keys: string[];
  skippedItems: { ref: string; reason: string }[];
  /** Records imported with a caveat (RecordAnnotations.note). */
  notes: { ref: string; note: string }[];
}

type Screened =
  { type: 'skip'; ref: string; reason: string } | { type: 'record'; item: ImportRecord; key: string };

/**
 * Each parsed item as it comes, checked: validated against the contract (a malformed item is a skip with
 * the reason), keyed by its Idempotency-Key, and a skip "duplicate of ..." when an earlier item had the
 * same key, while its key is kept (SeenKeys). Nothing is held but the keys seen last.
 */
async function* screenItems(
  items: AsyncIterable<ImportItem> | Iterable<ImportItem>,
  seenKeys: SeenKeys,
  label: (ref: string) => string,
): AsyncGenerator<Screened> {
  for await (const item of items) {
    if (item.type === 'skip') {
      yield item;
      continue;
    }
    const invalid = validate(item);
    if (invalid) {
      yield { type: 'skip', ref: item.ref, reason: invalid };
      continue;
    }
    const key = importItemKey(item);
    const twin = seenKeys.twinOf(key);
    if (twin !== undefined) {
      yield { type: 'skip', ref: item.ref, reason: `duplicate of ${twin} in this export` };
      continue;
    }
    // Kept as the report names it: the twin may lie in another file of the same import.
    seenKeys.add(key, label(item.ref));
    yield { type: 'record', item, key };
  }
}

/** Called after each item is read (to write or skipped); it may throw to stop reading, e.g. on a cancel. */
export type OnItemRead = () => void | Promise<void>;

async function collectItems(
  items: AsyncIterable<ImportItem> | Iterable<ImportItem>,
  seenKeys: SeenKeys,
  label: (ref: string) => string,
  onItem?: OnItemRead,
): Promise<CollectedRecords> {
  const out: CollectedRecords = { records: [], keys: [], skippedItems: [], notes: [] };
  for await (const x of screenItems(items, seenKeys, label)) {
    await onItem?.();
    if (x.type === 'skip') {
      out.skippedItems.push({ ref: x.ref, reason: x.reason });
      continue;
    }
    out.records.push(x.item);
    out.keys.push(x.key);
    if (x.item.note) out.notes.push({ ref: x.item.ref, note: x.item.note });
  }
  return out;
}

const targetItems = (
  target: ImportTarget & { format: ImportFormat },
  o: ParseOptions,
  names: KnownNoteNames | undefined,
  former: StoredIdsAt | undefined,
) =>
  underFormerIds(
    underKnownNames(
      target.notes ? parseNoteFiles(target.path, target.notes, o) : parsers[target.format](target.path, o),
      names,
    ),
    former,
  );

/**
 * Parses PATH in FORMAT into Records ready to send: each validated against the contract (a malformed
 * item becomes a skip with the reason) and keyed by its derived Idempotency-Key; an item identical to
 * an earlier one (same key) is a skip "duplicate of ...". `seenKeys` may be shared across several
 * calls so one import of many files sends each item once.
 */
export async function collectRecords(
  format: ImportFormat,
  path: string,
  o: ParseOptions,
  seenKeys = new SeenKeys(),
): Promise<CollectedRecords> {
  return collectItems(parsers[format](path, o), seenKeys, (ref) => ref);
}

/**
 * collectRecords for one planned target: a file, an export folder, or notes found among other files.
 * `label` names an item in the report (itemLabel), which is how a later twin's skip names it. `names`:
 * the Brain's names of plain notes, one for the whole import (KnownNoteNames); `former`: the Brain's
 * ids by time, for items once named otherwise (underFormerIds).
 */
export async function collectTarget(
  target: ImportTarget & { format: ImportFormat },
  o: ParseOptions,
  seenKeys: SeenKeys,
  label: (ref: string) => string,
  names: KnownNoteNames,
  former: StoredIdsAt | undefined,
  onItem?: OnItemRead,
): Promise<CollectedRecords> {
  return collectItems(targetItems(target, o, names, former), seenKeys, label, onItem);
}

/**
 * The Brain's WhatsApp Records in a time range, read through the API. A Brain that does not exist yet, or
 * a key that may write but not read Records, has nothing to show: the import then reads times as asked.
 */
function earlierThroughApi(client: MnemoClient, brainId: string, signal?: AbortSignal): EarlierRecords {
  return earlierRecords((q) =>
    client.listRecords(brainId, q, { signal }).catch((e: unknown) => {
      if (e instanceof MnemoApiError) return null;
      throw e;
    }),
  );
}

/**
 * The external ids the Brain holds at an instant, read through the API (underFormerIds). A key that may
 * write but not read Records sees none, as for an earlier import's zone: the item keeps its own id.
 */
function idsThroughApi(client: MnemoClient, brainId: string, signal?: AbortSignal): StoredIdsAt {
  return storedIdsAt((q) =>
    client.listRecords(brainId, q, { signal }).catch((e: unknown) => {
      if (e instanceof MnemoApiError && e.code === 'missing_scope') return null;
      throw e;
    }),
  );
}

/**
 * The Brain's sources, read through the API before an import writes (heldItems). Not read (a key
 * that may write but not read Records, a server without the route): none, and every item written counts
 * as imported. A failure that would fail every write stops the import first.
 */
async function sourcesThroughApi(
  client: MnemoClient,
  brainId: string,
  signal?: AbortSignal,
): Promise<SourceList | null> {
  try {
    return await client.listSources(brainId, { signal });
  } catch (e) {
    if (e instanceof MnemoApiError && (e.code === 'missing_scope' || !isFatal(e))) return null;
    throw e;
  }
}

/**
 * The names of the Brain's plain notes, read through the API: a key that may write but not read Records
 * sees none. Any other failure (after the client's retries) stops the import before it writes: going on
 * would store every note again.
 */
function notesThroughApi(client: MnemoClient, brainId: string, signal?: AbortSignal): StoredNoteNames {
  const names = pagedNoteNames((q) =>
    client.listRecords(brainId, q, { signal }).catch((e: unknown) => {
      if (e instanceof MnemoApiError && e.code === 'missing_scope') return null;
      throw e;
    }),
  );
  return () =>
    names().catch((e: unknown) => {
      if (isFatal(e) || !(e instanceof MnemoApiError)) throw e;
      throw new Error(
        `cannot read the names of the notes Brain "${brainId}" holds, which notes imported again keep ` +
          `(${e.code}: ${e.message}); nothing was imported, run the import again`,
      );
    });
}

const orderName = (order: 'dmy' | 'mdy') => (order === 'mdy' ? 'month first' : 'day first');

/** How a chat imported before is read another way: its messages' identities hold how it was read. */
const removeTheChatFirst =
  'remove the earlier import first (mnemo import --remove whatsapp --chat NAME, the chat as mnemo ' +
  'import --list names it; in the app: "Remove this chat")';

/**
 * The options to read a target with: a WhatsApp chat imported before is read in the date order (when
 * its dates read both ways) and the zone that import used (earlierReading), and says so in `note`. A
 * zone or an order asked for is used unless the chat was imported before in another one (a zone only
 * where that import's times fit no other reading): its messages' instants are in their identities, so
 * read the other way each would be stored again, months off, beside the first (QA: a chat imported day
 * first, then with --date-order mdy). The note then says how to read it the other way (remove the import
 * first). The chat's first pass (readChat, `o.onScan` hears it) is made once, here, and handed to the
 * import in the options (`whatsappChat`); the look for an earlier import reads the chat once more, every reading it needs at
 * once, and the import once after it. `bytes`: the chat's bytes as they are read (the file's).
 */
export async function readingOptions(
  target: ImportTarget & { format: ImportFormat },
  o: ParseOptions,
  earlier: EarlierRecords,
  bytes?: ByteSource,
): Promise<{ options: ParseOptions; note: string | null }> {
  if (target.format !== 'whatsapp') return { options: o, note: null };
  const { readChat, chatReadings, readsBothWays } = await import('./formats/whatsapp.ts');
  let chat: Chat;
  try {
    chat = await readChat(target.path, o.onScan, bytes);
  } catch {
    // The file itself failing is for the import's own read to report (read_failed, a skip).
    return { options: o, note: null };
  }
  let found: EarlierReading;
  try {
    found = await earlierReading(
      (readings) => chatReadings(chat, target.path, readings),
      o,
      earlier,
      o.timeZone ?? systemTimeZone(),
      readsBothWays(chat),
    );
  } catch {
    // The API failing leaves the order and the zone as asked.
    found = { order: null, zone: null };
  }
  const notes: string[] = [];
  let options: ParseOptions = { ...o, whatsappChat: chat };
  const { order } = found;
  if (order !== null && order !== o.dateOrder) {
    options = { ...options, dateOrder: order };
    notes.push(
      o.dateOrder === undefined
        ? `dates read ${orderName(order)}, the date order its earlier import used, so its messages keep ` +
            // A --date-order given here would be refused as well (the branch below): only a removal frees it.
            `their identity. To read it the other way, ${removeTheChatFirst}, then import it again with ` +
            '--date-order dmy or mdy ("Dates in WhatsApp chats" in the app)'
        : `dates read ${orderName(order)} as its earlier import read them, not ${orderName(o.dateOrder)} ` +
            `as asked: read so, each of its messages would be stored a second time, months off, beside ` +
            `the first. To read it ${orderName(o.dateOrder)}, ${removeTheChatFirst}, then import it again`,
    );
  }
  const { zone: foundZone } = found;
  if (foundZone !== null && o.timeZone === undefined) {
    const { zone, ambiguous } = foundZone;
    options = { ...options, timeZone: zone };
    notes.push(
      // Found from the earlier import's instants, not kept from it: a zone that reads them alike.
      `times read in ${zone}, a zone that reads its earlier import's times as they were stored, so its messages keep their identity` +
        (ambiguous
          ? '; other zones fit that import too and read some of these messages an hour apart (daylight saving time): a time zone given for the import chooses'
          : ` (to read it in another zone, ${removeTheChatFirst})`),
    );
  } else if (foundZone !== null) {
    // A zone asked for that the earlier import did not use: read so, each message would be stored a
    // second time, hours off, beside the first (as for a date order, above).
    options = { ...options, timeZone: foundZone.zone };
    notes.push(
      `times read in ${foundZone.zone} as its earlier import read them, not ${o.timeZone} as asked: read so, ` +
        'each of its messages would be stored a second time, hours off, beside the first. To read it in ' +
        `${o.timeZone}, ${removeTheChatFirst}, then import it again`,
    );
  }
  return { options, note: notes.length > 0 ? notes.join('; ') : null };
}

/** The Brain the import goes into, or null when it is not made yet. */
async function brainOrNull(o: ImportOptions): Promise<Brain | null> {
  try {
    return await o.client.getBrain(o.brainId, { signal: o.signal });
  } catch (e) {
    if (e instanceof MnemoApiError && e.code === 'brain_not_found') return null;
    throw e;
  }
}

/** A Record of what the user said or wrote (a chat or mail message whose speaker is `self`). */
const ownWords = (body: RecordCreate) =>
  typeof body.content === 'object' && body.content.kind === 'message' && body.content.speaker === 'self';

/**
 * The Brain read at the import's start (`existing`), or made now: an import with nothing to write makes
 * none.
 */
async function ensureBrain(
  client: MnemoClient,
  brainId: string,
  existing: Brain | null,
  selfName?: string,
  signal?: AbortSignal,
): Promise<{ created: boolean; hasSelf: boolean }> {
  if (existing) return { created: false, hasSelf: existing.self != null };
  try {
    // With --self the new Brain knows whose memory it is, so "self" speakers resolve to that person.
    await client.createBrain(
      { id: brainId, ...(selfName ? { self: { type: 'person', name: selfName } } : {}) },
      { signal },
    );
    return { created: true, hasSelf: selfName !== undefined && selfName !== '' };
  } catch (e) {
    if (!(e instanceof MnemoApiError) || e.code !== 'brain_exists') throw e;
    // Created meanwhile.
    const b = await client.getBrain(brainId, { signal });
    return { created: false, hasSelf: b.self != null };
  }
}

/**
 * What an import of the user's own messages into a Brain without a self means, said once: a Brain's self
 * is set when it is made, and without one "my …" questions are answered no_attribution.
 */
function noSelfNote(brainId: string): string {
  return (
    `Brain "${brainId}" has no self, so the messages marked as yours are not attributed to anyone and ` +
    `questions about "my …" are answered no_attribution. A Brain's self is set when it is made: import ` +
    `into a new Brain with --self "Your Name" (or make it on the app's Brains screen).`
  );
}

/** Senders named in noSenderIsYouNote, at most: a channel's hundred are no help. */
const maxSendersNamed = 6;

/**
 * Messages imported with no sender taken for the person: each is someone else's, and "my …" finds none of
 * them. A WhatsApp chat imported into a new Brain without --self said nothing of it.
 */
function noSenderIsYouNote(senders: ReadonlySet<string>): string {
  const named = [...senders].map((x) => JSON.stringify(x)).join(', ');
  return (
    `no sender was taken for you (no --self, and the Brain has no self), so every message is someone ` +
    `else's: ${named}${senders.size >= maxSendersNamed ? ', …' : ''}. If one is you, import into a new ` +
    `Brain with --self "That Name".`
  );
}

/**
 * For a server that does not send Idempotent-Replayed: a replayed Record was created before this run
 * began. created_at is the server's clock, so a remote server with a skewed clock blurs the split.
 */
function replayedByClock(record: MnemoRecord, started: number, brainCreated: boolean): boolean {
  return !brainCreated && Date.parse(record.created_at) < started;
}

/**
 * Reads PATH and sends every item as a Record through the /v1 API, a few requests in flight at a time.
 * A file is read in its format; a folder as planImport says: an export folder whole, any other folder
 * file by file, each in its own format, with what cannot be read reported as skipped. Idempotency-Keys
 * derive from each item, so a re-import stores nothing new; an item whose Record already existed
 * before this run counts as unchanged. When nothing can be sent, no Brain is created
 * (`nothingToImport`). Throws only for failures that would hit every item (credential, unreachable
 * server) or when PATH itself cannot be read at all; per-item and per-file problems, and a file that
 * stops reading part way, land in the summary.
 */
export async function runImport(asked: ImportOptions): Promise<ImportSummary> {
  // What an import killed before its clean-up unpacked (a chat, a vault) goes now, in plaintext as it is.
  removeDeadRunsFolders();
  const existing = await brainOrNull(asked);
  // Without --self, the sender that is the user is the Brain's own person, by name, as the app's import
  // has it: the same export imported both ways then holds the same Records, the user's messages under
  // speaker "self" each time.
  const selfName = asked.selfName ?? existing?.self?.name;
  // This process imports alone (the server only receives Records): a conversations.json may be as large
  // as a UTF-8 text can be, when the heap holds it (readJsonExportText).
  const o = {
    ...asked,
    ...(selfName === undefined ? {} : { selfName }),
    wholeJsonBytes: asked.wholeJsonBytes ?? maxUtf8WholeFileBytes,
  };
  // An export as its archive (a Slack, ChatGPT or Takeout download, a zipped vault): unpacked into a
  // private temporary folder and read as the folder it was made from. Notes are named inside it, so the
  // same archive imported again is the same items.
  if (isZipName(o.path) && (await stat(o.path)).isFile()) {
    const dir = await makeTempFolder('mnemo-zip-');
    const release = holdTempFolder(dir);
    try {
      const { path, expanded } = await unpackArchive(o.path, dir);
      const skips = archiveSkips(basename(o.path), expanded);
      return await importPath({ ...o, path, uploadRoot: dirname(path), archiveSkips: skips }, existing);
    } finally {
      await rm(dir, { recursive: true, force: true });
      release();
    }
  }
  // Archives found in the folder are unpacked elsewhere and read as if unpacked where they lie.
  const found = archivesFound();
  try {
    return await importPath({ ...o, archivePlaces: found.places }, existing, found.unpack);
  } finally {
    await found.remove();
  }
}

async function importPath(
  given: ImportOptions,
  existing: Brain | null,
  unpack?: (archive: string) => Promise<FoundArchive>,
): Promise<ImportSummary> {
  const started = Date.now();
  const asked = given.format ?? 'auto';
  // In an archive given itself, archives are not unpacked again (one level, as for uploads).
  const planned = await planImport(given.path, asked, unpack ? { unpack } : {});
  // PATH read as one file or one export, as opposed to a folder of files found by a walk.
  const only = planned.length === 1 ? planned[0]! : null;
  const lone = only !== null && only.name === '' && !(only.format !== null && only.notes);
  if (lone && only.format === null) throw new Error(`${given.path}: cannot tell the format; pass --format`);
  const targets = [...planned, ...(given.archiveSkips ?? [])];
  // From disk, notes and files are named from the folder imported (or the one a file lies in), not by
  // where it lies on this disk; an upload's are named as chosen (uploadRoot). Only notes, calendars
  // and contacts are named by their files; chats and mail by what they hold.
  const root =
    given.uploadRoot === undefined && targets.some((t) => t.format !== null && namedFormats.has(t.format))
      ? await importedFolder(given.path)
      : null;
  const naming =
    root === null
      ? null
      : await nameFolder(root, existing ? folderNamesThroughApi(given) : undefined, given.device);
  const o: ImportOptions = naming?.namedFrom ? { ...given, namedFrom: naming.namedFrom } : given;

  const seenKeys = new SeenKeys(o.duplicateWindow);
  // A Brain made by this import holds no notes to name them after.
  const names = existing
    ? new KnownNoteNames(
        notesThroughApi(o.client, o.brainId, o.signal),
        await plainNoteNames(targets, o.uploadRoot, o.archivePlaces, o.namedFrom),
        o.namedFrom,
        naming?.takenBy,
      )
    : undefined;
  // Before anything is sent: a Brain whose names cannot be read fails the import, not a part of it.
  await names?.prepare();
  const former = existing ? idsThroughApi(o.client, o.brainId, o.signal) : undefined;
  // Read before anything is written: which sources the Brain already held imported items of.
  const held = heldItems(existing ? await sourcesThroughApi(o.client, o.brainId, o.signal) : null, (q) =>
    o.client.listRecords(o.brainId, q, { signal: o.signal }),
  );
  // What the calendar and contacts files hold is recorded by every import (forget-missing.ts).
  const files = new MissingItems(o.uploadRoot, o.archivePlaces, o.namedFrom);
  const missing = o.forgetMissing ? files : undefined;
  await missing?.coverNotes([o.path], o.uploadRoot, (id) => names?.storedName(id) ?? Promise.resolve(id));
  const parts: ImportPartSummary[] = targets.map((t) => ({
    name: t.name || '.',
    format: t.format,
    imported: 0,
    replaced: 0,
    unchanged: 0,
    skipped: 0,
    failed: 0,
  }));
  const skippedItems: ImportSummary['skippedItems'] = [];
  const failedItems: ImportSummary['failedItems'] = [];
  const notes: ImportSummary['notes'] = [];
  let noSelfSaid = false;
  // Chat senders seen while no sender is the person (no --self and a Brain without one): said once at
  // the end, so the person knows every message went in as someone else's and how to say which is theirs.
  const senders = new Set<string>();
  let sawOwn = false;
  // `total` grows as the export is read: Records are sent while it is still being read, so a mailbox of
  // several GB never has to fit in memory (at most `queued` parsed Records wait to be sent).
  const progress: ImportProgress = {
    total: 0,
    done: 0,
    imported: 0,
    replaced: 0,
    unchanged: 0,
    skipped: 0,
    failed: 0,
    forgotten: 0,
  };
  // How far through the part being read its parser is (onRead), and the items read before it.
  let partRead = 0;
  let partStart = 0;
  // The parts not yet read that are one skip each (a vault's pictures beside its notes): known before.
  let skipsAhead = 0;
  // Every item of every part, when counted before the first was sent.
  const counted =
    o.countFirst && o.onProgress
      ? await countItems(targets, o, (n) => o.onProgress?.({ ...progress, counting: n }))
      : null;
  const report = () => {
    const here = progress.total - partStart;
    const expected =
      counted ??
      (partRead > 0 ? partStart + Math.max(here, Math.round(here / partRead)) : progress.total) + skipsAhead;
    o.onProgress?.({ ...progress, ...(expected > progress.total ? { expected } : {}) });
  };
  const skipped = (part: ImportPartSummary, ref: string, reason: string) => {
    skippedItems.push({ ref, reason });
    part.skipped += 1;
    progress.skipped += 1;
    progress.total += 1;
    progress.done += 1;
    report();
  };
  const stoppedReading = (part: ImportPartSummary, ref: string, read: number, e: unknown) => {
    failedItems.push({
      ref,
      code: 'read_failed',
      reason:
        `stopped reading after ${read} item${read === 1 ? '' : 's'}: ${errorMessage(e)}; ` +
        'what was read before is imported, the rest is not (run the import again once the file reads)',
    });
    part.failed += 1;
    progress.failed += 1;
    progress.total += 1;
    progress.done += 1;
    report();
  };
  interface Job {
    item: ImportRecord;
    key: string;
    part: ImportPartSummary;
    label: (ref: string) => string;
  }
  const queue = new BoundedQueue<Job>(256);
  let sent = 0;
  let fatal: unknown = null;
  // An empty Brain made for nothing would outlive the mistake (a wrong folder, a typo in --format): it is
  // made when the first Record is about to be sent.
  let brain: Promise<{ created: boolean; hasSelf: boolean }> | null = null;

  const read = async () => {
    try {
      skipsAhead = targets.filter((t) => t.format === null).length;
      for (const [i, target] of targets.entries()) {
        const part = parts[i]!;
        if (target.format === null) {
          skipsAhead -= 1;
          if (target.blocksForgetting) missing?.cannotForget(`${target.name || o.path}: ${target.reason}`);
          skipped(part, target.name, target.reason);
          continue;
        }
        // A calendar's or contacts file's text is read once, by its parser, which hands it over.
        const onText =
          target.format === 'ics' || target.format === 'vcf'
            ? await files.coverFile(target.format, target.path)
            : undefined;
        const label = itemLabel(target, o.path);
        let readHere = 0;
        partStart = progress.total;
        partRead = 0;
        const onRead = (fraction: number) => {
          partRead = fraction;
        };
        // At most a report a percent: a first pass hears of every mail.
        let scanned = -1;
        const onScan = (fraction: number) => {
          const percent = Math.floor(fraction * 100);
          if (percent === scanned) return;
          scanned = percent;
          o.onProgress?.({ ...progress, scanning: { ref: target.name || o.path, fraction } });
        };
        try {
          const readable = { ...target, format: target.format };
          const { options, note } = await readingOptions(
            readable,
            { ...o, onScan },
            earlierThroughApi(o.client, o.brainId, o.signal),
          );
          if (note !== null) notes.push({ ref: target.name || o.path, note });
          const items = seenBy(
            files,
            target.path,
            targetItems(
              readable,
              { ...options, onRead, onScan, ...(onText ? { onText } : {}) },
              names,
              former,
            ),
          );
          for await (const x of screenItems(items, seenKeys, label)) {
            if (fatal !== null || o.signal?.aborted) return;
            readHere += 1;
            if (x.type === 'skip') skipped(part, label(x.ref), x.reason);
            else {
              if (x.item.note) notes.push({ ref: label(x.item.ref), note: x.item.note });
              progress.total += 1;
              sent += 1;
              if (!(await queue.put({ item: x.item, key: x.key, part, label }))) return;
            }
          }
          partRead = 0;
        } catch (e) {
          partRead = 0;
          missing?.cannotForget(`${target.name || o.path}: ${errorMessage(e)}`);
          if (readHere > 0) {
            // Part of it is already on its way: the summary must say so, and that the rest was not read,
            // whether it was PATH itself or one file among many (a skip would pass for "nothing taken").
            stoppedReading(part, target.name || o.path, readHere, e);
            continue;
          }
          // PATH itself failing is the command failing; one file among many is one skip.
          if (lone) throw e;
          skipped(part, target.name, `cannot be read as ${target.format}: ${errorMessage(e)}`);
        }
      }
    } finally {
      queue.close();
    }
  };

  const send = async () => {
    for (let job = await queue.take(); job !== undefined; job = await queue.take()) {
      const { item, key, part, label } = job;
      if (o.dryRun) {
        progress.done += 1;
        report();
        continue;
      }
      let brainCreated: boolean;
      try {
        const ensured = await (brain ??= ensureBrain(o.client, o.brainId, existing, o.selfName, o.signal));
        brainCreated = ensured.created;
        if (ownWords(item.body)) sawOwn = true;
        else if (!o.selfName && !ensured.hasSelf && senders.size < maxSendersNamed) {
          const c = item.body.content;
          if (typeof c === 'object' && c.kind === 'message' && c.speaker) senders.add(c.speaker);
        }
        if (!ensured.hasSelf && !noSelfSaid && ownWords(item.body)) {
          noSelfSaid = true;
          notes.push({ ref: `brain "${o.brainId}"`, note: noSelfNote(o.brainId) });
        }
      } catch (e) {
        // No Brain, nothing can be sent: the run fails as a whole, as it did before anything was read.
        fatal ??= e;
        queue.abort();
        return;
      }
      try {
        const { name, external_id } = item.body.source;
        const { written, unchanged } = await writeRevision(
          held,
          {
            source: name,
            externalId: external_id,
            body: item.body,
            timeFromFile: item.occurredAtInKey === null,
            mayBeCut: item.mayBeCut === true,
          },
          key,
          (k) => o.client.rememberRecord(o.brainId, item.body, { idempotencyKey: k, signal: o.signal }),
          (w) => w.replayed ?? replayedByClock(w.record, started, brainCreated),
        );
        if (unchanged || written === null) {
          progress.unchanged += 1;
          part.unchanged += 1;
        } else if (await held.replaces(name, external_id, written.record.id)) {
          progress.replaced += 1;
          part.replaced += 1;
        } else {
          progress.imported += 1;
          part.imported += 1;
        }
      } catch (e) {
        if (isFatal(e) || !(e instanceof MnemoApiError)) {
          fatal ??= e;
          queue.abort();
          return;
        }
        if (isUnchangedConflict(item, e.code)) {
          progress.unchanged += 1;
          part.unchanged += 1;
        } else if (e.type === 'invalid_request') {
          progress.skipped += 1;
          part.skipped += 1;
          skippedItems.push({
            ref: label(item.ref),
            reason: `rejected by the server: ${e.code}: ${e.message}`,
          });
        } else {
          progress.failed += 1;
          part.failed += 1;
          failedItems.push({ ref: label(item.ref), reason: e.message, code: e.code });
        }
      }
      progress.done += 1;
      report();
    }
  };

  // A sender that fails outside its per-item handling (a progress callback that throws) must not leave
  // the reader waiting for room that no one will make: it ends the run like any fatal failure.
  const sender = () =>
    send().catch((e: unknown) => {
      fatal ??= e;
      queue.abort();
    });
  const [readOutcome] = await Promise.allSettled([
    read(),
    ...Array.from({ length: Math.max(1, o.concurrency ?? 8) }, sender),
  ]);
  if (fatal !== null) throw fatal;
  if (readOutcome.status === 'rejected') throw readOutcome.reason;
  if (o.signal?.aborted) throw o.signal.reason;
  if (!sawOwn && senders.size > 1)
    notes.push({ ref: `brain "${o.brainId}"`, note: noSenderIsYouNote(senders) });
  const forgetting = missing
    ? await forgetMissingItems(o, missing, existing !== null, sent, progress.failed, (n) => {
        progress.forgotten = n;
        report();
      })
    : { items: [], records: 0, memories: 0, notes: [] };
  // A Brain this import made (nothing to forget in it) or an import that does not forget: recorded here.
  const brainThere = existing !== null || (brain as Promise<unknown> | null) !== null;
  const heldNotes =
    !o.dryRun && brainThere && (existing === null || !missing)
      ? await recordHeld(files, heldThroughApi(o))
      : [];
  // A Brain this import made had no record of its folders' names: this folder takes its own now.
  if (existing === null && brainThere && root !== null)
    await nameFolder(root, folderNamesThroughApi(o), o.device).catch(() => undefined);
  progress.forgotten = forgetting.items.length;
  const formats = [...new Set(parts.map((p) => p.format).filter((f): f is ImportFormat => f !== null))];
  return {
    ...progress,
    format: formats.length === 1 ? formats[0]! : asked === 'auto' ? 'mixed' : asked,
    brain: o.brainId,
    // Assigned by the senders, which TypeScript's narrowing does not follow into.
    brainCreated: (await (brain as Promise<{ created: boolean }> | null))?.created ?? false,
    parts,
    skippedItems,
    failedItems,
    notes,
    matchedNotes: names?.matches ?? { count: 0, examples: [] },
    nothingToImport: sent === 0,
    dryRun: o.dryRun ?? false,
    forgottenItems: forgetting.items,
    forgottenRecords: forgetting.records,
    forgottenMemories: forgetting.memories,
    forgetNotes: forgetting.notes,
    heldNotes,
    elapsedMs: Date.now() - started,
  };
}

/**
 * How many items TARGETS make, each counted as the import counts it (a Record, a skip, or a file that
 * cannot be read), with nothing sent: each file parsed as the import will parse it, but a mailbox only
 * split into its mails (one item each), a twentieth of parsing them. Measured: a WhatsApp export of
 * four chats, 598 messages, 0.2 s (importing it takes 9 s); a 45 MB mailbox of 20,000 mails, 0.5 s
 * (parsing it, 14 s). `onCount` hears the count as it grows, every 200 items and after each file.
 */
async function countItems(
  targets: readonly ImportTarget[],
  o: ImportOptions,
  onCount: (n: number) => void,
): Promise<number> {
  // The import's own hooks are for its one read, which records what calendars and contacts hold.
  const { onRead: _r, onScan: _s, onText: _t, whatsappChat: _c, ...options } = o;
  let n = 0;
  for (const target of targets) {
    if (o.signal?.aborted) break;
    if (target.format === null) {
      n += 1;
      continue;
    }
    let here = 0;
    try {
      if (target.format === 'mbox' && !target.notes) {
        const { readMbox } = await import('./formats/mbox-split.ts');
        for await (const _ of readMbox(target.path)) if (++here % 200 === 0) onCount(n + here);
        // No mail in it: the one item of a saved .eml, or the skip saying it is no mailbox.
        here = Math.max(1, here);
      } else {
        const readable = { ...target, format: target.format };
        for await (const _ of targetItems(readable, options, undefined, undefined))
          if (++here % 200 === 0) onCount(n + here);
      }
    } catch {
      // What was read, then the file's failure (or its skip when nothing was).
      here += 1;
    }
    n += here;
    onCount(n);
  }
  return n;
}

/** ITEMS of the file at PATH as they are, each Record told to MISSING as it passes (what it holds now). */
async function* seenBy(
  missing: MissingItems,
  path: string,
  items: AsyncIterable<ImportItem>,
): AsyncGenerator<ImportItem> {
  for await (const item of items) {
    if (item.type === 'record') missing.sawRecord(item, path);
    yield item;
  }
}

/** The formats whose items, or what their files held, are named by their path (note-identity.ts). */
const namedFormats = new Set<string>(['markdown', 'obsidian', 'ics', 'vcf']);

/** The real folder PATH is or lies in; null when it cannot be resolved (its reading then says why). */
async function importedFolder(path: string): Promise<string | null> {
  try {
    const real = await realpath(path);
    return (await stat(real)).isDirectory() ? real : dirname(real);
  } catch {
    return null;
  }
}

/**
 * CALL's answer (a read or write of the importer's Objects), or null where the key lacks the scope or
 * the server cannot do it and the import can go on without: what is not read holds nothing, so nothing
 * of it is forgotten; what is not written goes unrecorded.
 */
async function unlessUnreadable<T>(call: () => Promise<T>): Promise<T | null> {
  try {
    return await call();
  } catch (e) {
    if (e instanceof MnemoApiError && (e.code === 'missing_scope' || !isFatal(e))) return null;
    throw e;
  }
}

/**
 * Which folders each device named how (folder-names.ts), in the Brain's Objects through the API. A key
 * that may not read them reads nothing (every folder then goes by its own name); one that may not write
 * them, or a dry run, records nothing.
 */
function folderNamesThroughApi(o: ImportOptions): FolderNameStore {
  return folderNamesInObjects(
    (cursor) =>
      unlessUnreadable(() =>
        o.client.listObjects(
          o.brainId,
          { type: importerObjectType, limit: 500, ...(cursor ? { cursor } : {}) },
          { signal: o.signal },
        ),
      ),
    async (body) => {
      // A dry run writes nothing, nor which folder took a name.
      if (o.dryRun) return;
      // Unrecorded where the key may not write Objects: the next import names the folder the same.
      await unlessUnreadable(() => o.client.acceptObject(o.brainId, body, { signal: o.signal }));
    },
  );
}

/**
 * What each calendar and contacts file held, in the Brain's Objects through the API. A key that may not
 * read Objects (or a server that cannot list them) reads nothing, so nothing of theirs is forgotten; one
 * that may not write them records nothing, and the import goes on.
 */
function heldThroughApi(o: ImportOptions): HeldStore {
  return heldInObjects(
    (cursor) =>
      unlessUnreadable(() =>
        o.client.listObjects(
          o.brainId,
          { type: heldObjectType, limit: 500, ...(cursor ? { cursor } : {}) },
          { signal: o.signal },
        ),
      ),
    async (body) => {
      try {
        await o.client.acceptObject(o.brainId, body, { signal: o.signal });
        return null;
      } catch (e) {
        if (!(e instanceof MnemoApiError)) throw e;
        if (e.code === 'missing_scope') return noObjectWrites;
        if (!isFatal(e)) return `${e.code}: ${e.message}`;
        throw e;
      }
    },
    o.namedFrom,
  );
}

/**
 * The external ids of the Brain's Records of a source, read through the API (each once, revisions
 * being one item); null for a key that may not read Records.
 */
async function storedThroughApi(o: ImportOptions, source: string): Promise<readonly string[] | null> {
  const ids = new Set<string>();
  try {
    for await (const page of recordPages((q) => o.client.listRecords(o.brainId, q, { signal: o.signal }), {
      source,
    }))
      for (const r of page?.data ?? []) if (r.source.external_id !== null) ids.add(r.source.external_id);
  } catch (e) {
    if (e instanceof MnemoApiError && e.code === 'missing_scope') return null;
    throw e;
  }
  return [...ids];
}

/**
 * After every item was read and written: the items under PATH the Brain holds and the files no longer
 * do, forgotten through the API (a dry run: listed), unless something was not read or written (a
 * failure keeps everything: an item missing from a part read may still be in the file) or nothing was.
 */
async function forgetMissingItems(
  o: ImportOptions,
  missing: MissingItems,
  brainExisted: boolean,
  sent: number,
  failed: number,
  onForgotten: (n: number) => void,
): Promise<{ items: MissingItem[]; records: number; memories: number; notes: string[] }> {
  if (!brainExisted) return { items: [], records: 0, memories: 0, notes: [] };
  return reconcileMissing(missing, {
    written: sent,
    failed,
    nothingWritten: `nothing was forgotten: nothing under ${o.path} could be imported, so nothing tells what is missing`,
    stored: (source) => storedThroughApi(o, source),
    held: heldThroughApi(o),
    forget: (source, ids) => o.client.forgetSourceItems(o.brainId, source, ids, { signal: o.signal }),
    dryRun: o.dryRun,
    onForgotten,
  });
}

/** Resolves once the Brain has derived every Record it accepted (census reports none processing). */
export async function waitForDerivation(
  client: MnemoClient,
  brainId: string,
  timeoutMs = 120_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const census = await client.getCensus(brainId);
    if (census.counts.records_processing === 0) return;
    if (Date.now() > deadline) throw new Error(`${brainId}: still deriving after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
