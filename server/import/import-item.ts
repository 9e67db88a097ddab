import { stat } from 'node:fs/promises';
import {
  ImportFormat as ImportFormatSchema,
  type ImportFormat as ContractImportFormat,
  type RecordCreate,
  type Visibility,
} from '../../engine/contract/index.ts';
import type { Chat } from './formats/whatsapp.ts';
import type { ArchivePlaces } from './archive-places.ts';

/** The formats `mnemo import` reads: the contract's list, so the two cannot drift apart. */
export const importFormats = ImportFormatSchema.options;
export type ImportFormat = ContractImportFormat;

/** A Record ready to send: it always carries `source.name` and a stable `source.external_id`. */
export interface ImportRecord {
  type: 'record';
  /** Human-readable pointer for the report (file and line, message id, ...). */
  ref: string;
  body: RecordCreate & { source: { name: string; external_id: string } };
  /**
   * What the Idempotency-Key hashes in occurred_at's place, when occurred_at depends on more than the
   * item (idempotency-key.ts). null: nothing, occurred_at is not the item's own date but its file's
   * modification time (a note without a date in its front matter), which a sync, a restore,
   * `git checkout` or `touch` changes and nothing the note says. A string: the item's date alone read
   * in UTC, where occurred_at is that day's start in the import's zone (a note dated `2024-04-02`), so
   * the note read in another zone (a laptop that travelled) is the same item. Absent: occurred_at itself.
   */
  occurredAtInKey?: string | null;
  /**
   * The version the item says it is (a calendar event's SEQUENCE and LAST-MODIFIED), hashed into the
   * Idempotency-Key beside what it says: an event moved and moved back is a newer version saying what an
   * older one said, written again as the newest, while an older export imported again replays its own
   * versions and changes nothing.
   */
  versionInKey?: string;
  /**
   * The item may be cut short (the last mail of an mbox that ends inside a line): written when new to
   * the Brain, but never in the place of a revision it holds, which a cut copy would shorten.
   */
  mayBeCut?: true;
  /** Something the person should know about how the item was read, e.g. front matter that was not. */
  note?: string;
  /**
   * External ids (of the same source) an earlier Mnemo gave this very item, when the way it is named
   * changed: when the Brain holds a Record under one of them and none under `external_id`, the item is
   * written under that one, so it replays rather than being stored twice (former-ids.ts).
   */
  formerExternalIds?: string[];
  /**
   * The whole item this Record is a part of, when that is more than the Record (a contact card's
   * `vcf:<uid>:`, which each of its fields' external ids begins with): an import that forgets what
   * is missing from its files keeps every part of an item it still holds (forget-missing.ts).
   */
  item?: string;
  /**
   * This Record is an occurrence of a recurring series (`item`) whose every occurrence from external id
   * `first` to `last` the import read: a stored occurrence between them that was not read is no longer
   * one (an EXDATE added, a rule changed), where one outside them may only lie outside the window.
   */
  series?: { first: string; last: string };
}

/** An item the parser could not turn into a Record, and why. Skips never stop the rest. */
export interface ImportSkip {
  type: 'skip';
  ref: string;
  reason: string;
}

export type ImportItem = ImportRecord | ImportSkip;

/** Options every parser may read; each ignores what does not apply to its format. */
export interface ParseOptions {
  /** IANA zone for formats whose times carry no offset (WhatsApp, floating iCalendar times). */
  timeZone?: string;
  /** A speaker name to record as `self` (WhatsApp, Slack, mbox): the person whose memory this is. */
  selfName?: string;
  /**
   * `selfName` is the Brain's own person's, taken because none was asked for (an upload without
   * self_name). A lone uploaded WhatsApp `_chat.txt` is named after its people but the one asked for:
   * one taken so is not left out, so that the chat keeps the name, and its messages the identities,
   * an upload without self_name gave it before.
   */
  selfNameByDefault?: boolean;
  /** Recurring events are expanded within [windowStart, windowEnd). */
  windowStart?: Date;
  windowEnd?: Date;
  /** The WhatsApp date order when the file alone cannot tell: day-month (default) or month-day. */
  dateOrder?: 'dmy' | 'mdy';
  /** Visibility of every Record read (absent: the server's default, shareable). */
  visibility?: Visibility;
  /** Wall clock, replaceable in tests (recurrence window defaults). */
  now?: () => Date;
  /**
   * When an item without a date of its own (a note, a contact card) occurred: default, its file's
   * modification time (fileTimeOf). null: not known, so the Record carries no occurred_at (the server
   * records the first write's time, and the same file sent again is the same item).
   */
  fileTime?: FileTime;
  /**
   * The folder uploaded files were written to (the HTTP import). Those copies have no place of their
   * own: a note is then named by its path under this folder, as chosen, and no vault is looked for
   * above it (note-identity.ts).
   */
  uploadRoot?: string;
  /**
   * The real folder that holds what was imported from disk: plain notes (note-identity.ts) and the
   * calendar and contacts files whose items are recorded (forget-missing.ts) are named by their path
   * from it, never by where it lies on this disk.
   */
  namedFrom?: string;
  /** Archives found in the folder imported, unpacked elsewhere: their notes are named where they lie. */
  archivePlaces?: ArchivePlaces;
  /**
   * The largest ChatGPT or Claude conversations.json read (readJsonExportText); default
   * maxWholeFileBytes. `mnemo import` reads more, in a process of its own; a server keeps the default.
   */
  wholeJsonBytes?: number;
  /**
   * Hears the text of a calendar or vCard file as read, before it is parsed: what the file holds is
   * recorded from it (forget-missing.ts), so the file is read once and both see the same contents.
   */
  onText?: (text: string) => void;
  /**
   * Hears how far through its file the parser is: the share (0 to 1) of its messages, cards, events or
   * notes (of a Slack export, of its days' bytes) whose items it has all yielded. An export is sent as it is read, so the items read so far tell
   * nothing of how many are to come: the progress bar of a 50,000-mail mbox stood at 99%, "ETA 1s", for
   * the whole import (ImportProgress.expected).
   */
  onRead?: (fraction: number) => void;
  /**
   * Hears how far a first pass over the file is (the share of its bytes), where a parser reads the
   * whole file once before its first item (a mailbox's thread subjects): minutes of a large one in
   * which nothing else would be heard.
   */
  onScan?: (fraction: number) => void;
  /**
   * A WhatsApp chat's first pass (readChat), made before the import to find how to read it
   * (readingOptions): the parser reads the chat on from it, not from a first pass of its own. Read for
   * another file, it is not used.
   */
  whatsappChat?: Chat;
}

export type Parser = (
  path: string,
  options: ParseOptions,
) => AsyncIterable<ImportItem> | Iterable<ImportItem>;

export const skip = (ref: string, reason: string): ImportSkip => ({ type: 'skip', ref, reason });

export type FileTime = (path: string) => Promise<Date | null>;

/** The time of a file as ParseOptions says to read it: `fileTime`, else its modification time. */
export function fileTimeOf(o: ParseOptions): FileTime {
  return o.fileTime ?? (async (file) => (await stat(file)).mtime);
}

/** `v` with every U+0000 taken out of its strings; the same value when it holds none. */
function withoutNulIn<T>(v: T): T {
  if (typeof v === 'string') return (v.includes('\u0000') ? v.replaceAll('\u0000', '') : v) as T;
  if (Array.isArray(v)) {
    const out = v.map(withoutNulIn);
    return (out.some((x, i) => x !== v[i]) ? out : v) as T;
  }
  if (v === null || typeof v !== 'object') return v;
  let changed = false;
  const out = Object.fromEntries(
    Object.entries(v).map(([k, x]) => {
      const y = withoutNulIn(x);
      changed ||= y !== x;
      return [k, y];
    }),
  );
  return (changed ? out : v) as T;
}

/**
 * An item as it is sent, with the visibility the import was given and U+0000 taken out of its Record:
 * the API refuses it (no store here keeps it as text), and in an export it is a byte of damage (a
 * NUL-padded file, a misread UTF-16 line), not something a person wrote. One such byte does not cost
 * the item.
 */
export function asSent(item: ImportItem, o: ParseOptions): ImportItem {
  if (item.type !== 'record') return item;
  const body = withoutNulIn(item.body);
  // shareable is what a Record without one is: left out, it keeps the items' keys as they were.
  return {
    ...item,
    body: o.visibility && o.visibility !== 'shareable' ? { ...body, visibility: o.visibility } : body,
  };
}
