import { stat } from 'node:fs/promises';
import { dirname, extname, join, relative, sep } from 'node:path';
import { detectFormat, exportFolder, type Detected } from './detect-format.ts';
import type { ImportFormat } from './import-item.ts';
import { walkFolder } from './walk-folder.ts';
import { archiveSkips, isZipName } from './expand-zip.ts';
import { foundArchiveName, type FoundArchive } from './archive-places.ts';
import { isNoteFile } from './formats/note-file.ts';
import { errorMessage } from '../../engine/index.ts';

/**
 * One thing to read, or one that cannot be read. `name` is its path under what was imported ('' for
 * all of it); `path` is what the parser reads. Notes found among other files are one target whose
 * `notes` lists them (read relative to `path`, the folder they were found in), so a folder of notes
 * reports as one part, not one per note. A target without a format is a file that cannot be
 * imported, and `reason` says why.
 */
export type ImportTarget =
  | { name: string; format: ImportFormat; path: string; notes?: string[] }
  | {
      name: string;
      format: null;
      path: string;
      reason: string;
      /**
       * What it holds is unknown (a file, folder or link that could not be read, an archive not
       * unpacked): nothing may be taken for gone.
       */
      blocksForgetting?: boolean;
    };

export interface PlanOptions {
  /** The name of PATH itself in the report ('' when it is what was imported). */
  name?: string;
  /** Why a file whose format cannot be told is not imported: how to import it is the caller's. */
  unknownReason?: string;
  /**
   * Unpacks an archive (`.zip`) found in a folder (archive-places.ts): what it holds is then planned as
   * the folder it was made from, named under the archive. Absent (the folder is an archive's, unpacked
   * already): an archive in it is not unpacked, one level being, as for uploads (nestedArchiveReason).
   */
  unpack?: (archive: string) => Promise<FoundArchive>;
}

/** What planning a folder needs at every level. */
interface PlanContext {
  format: ImportFormat | 'auto';
  unknownReason: string;
  unpack: ((archive: string) => Promise<FoundArchive>) | undefined;
}

const defaultUnknown = 'cannot tell the format of this file; import it on its own with --format';
// Files that are not text at all: no --format would read them, so saying to try one would mislead.
const attachment =
  /\.(?:png|jpe?g|gif|webp|heic|heif|svg|bmp|tiff?|ico|pdf|mp3|m4a|wav|ogg|flac|mp4|mov|m4v|webm|avi|zip|gz|7z|rar|docx?|xlsx?|pptx?|odt|ods|odp|epub|excalidraw)$/i;
const attachmentReason = 'not text mnemo reads (images, PDFs, media and other attachments are not imported)';

/** Why an archive inside an archive is not unpacked: one level is, as for uploads. */
const nestedArchiveReason =
  'an archive inside an archive is not unpacked: unzip the outer archive and import the folder';

/** Formats whose parser reads a whole export folder. */
const wholeFolderFormats = new Set<ImportFormat>(['slack', 'chatgpt', 'claude']);

const joinName = (name: string, rel: string) => (name ? `${name}/${rel}` : rel);

/**
 * What importing a folder in FORMAT reads, when the folder is itself an export of that format:
 * a Slack export, a ChatGPT or Claude export (or conversations.json), an Obsidian vault for
 * notes, a WhatsApp export folder (its `_chat.txt`). Null: the folder is walked.
 */
async function wholeFolder(dir: string, format: ImportFormat | 'auto'): Promise<Detected | null> {
  if (format !== 'auto' && wholeFolderFormats.has(format)) return { format, path: dir };
  return exportInside(dir, format);
}

/**
 * The export a folder found in a walk is, to read whole, when FORMAT (any, for auto) reads it; null:
 * the walk goes into it. Only its marker files make it one: the folder imported with --format chatgpt
 * is taken at its word (wholeFolder), but a folder inside it is not a second ChatGPT export for that.
 */
async function exportInside(dir: string, format: ImportFormat | 'auto'): Promise<Detected | null> {
  const found = await exportFolder(dir);
  if (!found || format === 'auto') return found;
  if (format === 'markdown' || format === 'obsidian')
    return found.format === 'obsidian' ? { format, path: dir } : null;
  return found.format === format ? found : null;
}

/**
 * What a ChatGPT or Claude export holds beside its conversations, by the names the exports give it:
 * its other JSON files (user.json, users.json, projects.json, shared_conversations.json, …), ChatGPT's
 * chat.html (the same conversations as a page), the files attached to chats and the images made in
 * them (`file-<id>-<name>` at the top, `dalle-generations/`, `user-<id>/`, a conversation's
 * `<uuid>/` folder) and any other attachment but a zip not named so (someone's, put beside the
 * export: unpacked as anywhere else). Its parser reads none of them and the conversations name
 * their attachments, so they are not listed as left out: they were never anyone's files to import.
 * Anything else was put beside the export by someone, and is planned as it would be alone.
 */
function chatExportOwns(rel: string, isFolder: boolean): boolean {
  const [top = '', ...below] = rel.split('/');
  if (isFolder) return below.length === 0 && chatExportFolder.test(top);
  if (below.length === 0 && (/\.json$/i.test(top) || top === 'chat.html' || chatExportFile.test(top)))
    return true;
  // A zip the export did not write (its own are file-…) is the person's, unpacked as anywhere else.
  return attachment.test(rel) && !isZipName(rel);
}
const chatExportFolder =
  /^(?:dalle-generations|user-[0-9A-Za-z]+|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;
const chatExportFile = /^file[-_][0-9A-Za-z]{8,}(?:[-_.]|$)/;

/** How a file found in a folder is read with FORMAT asked for, or why it is not. */
async function fileFormat(
  path: string,
  format: ImportFormat | 'auto',
  unknownReason: string,
): Promise<{ format: ImportFormat; path: string } | { reason: string; blocksForgetting?: true }> {
  let found: Detected | null;
  try {
    found = await detectFormat(path);
  } catch (e) {
    return { reason: `cannot be read: ${errorMessage(e)}`, blocksForgetting: true };
  }
  // An export downloaded as a zip, kept beside others (Takeout's takeout-001.zip, -002.zip): it is no
  // attachment, and imported on its own it can be read.
  if (!found && isZipName(path)) return { reason: nestedArchiveReason };
  if (!found && attachment.test(path)) return { reason: attachmentReason };
  if (format === 'auto') return found ?? { reason: unknownReason };
  const notes = format === 'markdown' || format === 'obsidian';
  if (found && (found.format === format || (notes && found.format === 'markdown'))) return { format, path };
  // WhatsApp's line format varies with the phone's language, so detection can miss a real chat:
  // asked for WhatsApp, a .txt is read as one (the parser says so when it finds no messages).
  if (!found && format === 'whatsapp' && extname(path).toLowerCase() === '.txt') return { format, path };
  return { reason: found ? `not ${format} (it looks like ${found.format})` : `not ${format}` };
}

/**
 * What to read for PATH in FORMAT. A file: itself, detected or as asked (null format when it cannot
 * be told). A folder that is an export (wholeFolder): the folder, as its parser reads it, and each
 * file beside what that parser reads as it would be alone (besideTheExport). Any other folder is
 * walked, links followed (walk-folder.ts): each file is detected on its own and read in its format
 * (with a FORMAT given, only the files of that format), an export folder inside is read whole, and
 * what cannot be read is a target with the reason, so nothing is left out silently. Hidden files and
 * folders are not looked at.
 */
export async function planImport(
  path: string,
  format: ImportFormat | 'auto',
  opts: PlanOptions = {},
): Promise<ImportTarget[]> {
  const name = opts.name ?? '';
  const ctx: PlanContext = {
    format,
    unknownReason: opts.unknownReason ?? defaultUnknown,
    unpack: opts.unpack,
  };
  if (!(await stat(path)).isDirectory()) {
    if (format !== 'auto') return [{ name, format, path }];
    const found = await detectFormat(path);
    return [found ? { name, ...found } : { name, format: null, path, reason: ctx.unknownReason }];
  }
  const whole = await wholeFolder(path, format);
  if (whole) return [{ name, ...whole }, ...(await besideTheExport(whole, path, name, ctx))];
  return walkPlan(path, name, ctx);
}

/**
 * The targets of an archive found at PATH in a walk, reported as NAME: what it unpacks to, planned as
 * that folder (or file) would be, with the entries not unpacked; or the archive with the reason it was
 * not unpacked. Archives inside it are not unpacked.
 */
async function archiveTargets(path: string, name: string, ctx: PlanContext): Promise<ImportTarget[]> {
  const got = await ctx.unpack!(path);
  if ('reason' in got)
    return [
      {
        name,
        format: null,
        path,
        reason: got.reason,
        ...(got.blocksForgetting ? { blocksForgetting: true } : {}),
      },
    ];
  const inner = foundArchiveName(name, path, got.path);
  const skips = archiveSkips(name, got.expanded);
  if (!(await stat(got.path)).isDirectory()) {
    // One file alone in it: read as that file found in the folder would be.
    const f = await fileFormat(got.path, ctx.format, ctx.unknownReason);
    if (!('format' in f)) return [{ name: inner, format: null, path: got.path, ...f }, ...skips];
    return [
      f.format === 'markdown' || f.format === 'obsidian'
        ? { name: inner, format: f.format, path: dirname(got.path), notes: [got.path] }
        : { name: inner, ...f },
      ...skips,
    ];
  }
  const opts = { name: inner, unknownReason: ctx.unknownReason };
  return [...(await planImport(got.path, ctx.format, opts)), ...skips];
}

/**
 * The targets of a walk of DIR: notes together as one target named NAME, each other file in its
 * format or with the reason it is not read, an export inside read whole. What `owned` says is an
 * export's own (DIR being that export) is left out without a word.
 */
async function walkPlan(
  dir: string,
  name: string,
  ctx: PlanContext,
  owned?: (rel: string, isFolder: boolean) => boolean,
): Promise<ImportTarget[]> {
  const { format, unknownReason } = ctx;
  const notes: string[] = [];
  const found: ImportTarget[] = [];
  // The folders the walk does not go into: an export inside, read whole, or (null) the export's own.
  const claimed = new Map<string, Detected | null>();
  const claims = async (sub: string) => {
    if (owned?.(relative(dir, sub).split(sep).join('/'), true)) claimed.set(sub, null);
    else {
      const d = await exportInside(sub, format);
      if (d) claimed.set(sub, d);
    }
    return claimed.has(sub);
  };
  for await (const e of walkFolder(dir, claims)) {
    const entryName = joinName(name, e.rel);
    if (e.type === 'skip') {
      found.push({
        name: entryName,
        format: null,
        path: join(dir, ...e.rel.split('/')),
        reason: e.reason,
        ...(e.unread ? { blocksForgetting: true } : {}),
      });
    } else if (e.type === 'folder') {
      const d = claimed.get(e.path);
      if (!d) continue;
      found.push({ name: entryName, ...d }, ...(await besideTheExport(d, e.path, entryName, ctx)));
    } else if (owned?.(e.rel, false)) {
      // The export's own (a file given to a chat, a zip among them): its parser's, not read apart.
    } else if (ctx.unpack && isZipName(e.path)) {
      found.push(...(await archiveTargets(e.path, entryName, ctx)));
    } else {
      const f = await fileFormat(e.path, format, unknownReason);
      if (!('format' in f)) found.push({ name: entryName, format: null, path: e.path, ...f });
      else if (f.format === 'markdown' || f.format === 'obsidian') notes.push(e.path);
      else found.push({ name: entryName, ...f });
    }
  }
  const noteFormat: ImportFormat = format === 'auto' ? 'markdown' : format;
  return notes.length ? [{ name, format: noteFormat, path: dir, notes }, ...found] : found;
}

/**
 * What an export folder DIR, read whole as WHOLE, holds that its parser does not read. A vault: its
 * files that are not notes (besideTheNotes). A ChatGPT or Claude export: every file that is not the
 * export's own (chatExportOwns), planned as it would be alone; a folder holding a conversations.json
 * is not thereby all one export, and a calendar or mailbox kept beside it was dropped without a word.
 * Slack and WhatsApp exports are their parsers' to read as they are.
 */
async function besideTheExport(
  whole: Detected,
  dir: string,
  name: string,
  ctx: PlanContext,
): Promise<ImportTarget[]> {
  if (whole.format === 'obsidian' || whole.format === 'markdown') return besideTheNotes(whole, name, ctx);
  if (whole.format === 'chatgpt' || whole.format === 'claude')
    return walkPlan(dir, name, ctx, chatExportOwns);
  return [];
}

/**
 * The files of a vault read whole that its notes' reader does not read: without these, a `notes.txt`
 * or a calendar kept in the vault was sent and silently ignored. Each is read in its own format (with a
 * FORMAT given, only in that one), or listed with the reason it is not.
 */
async function besideTheNotes(whole: Detected, name: string, ctx: PlanContext): Promise<ImportTarget[]> {
  const { format, unknownReason } = ctx;
  const out: ImportTarget[] = [];
  // A vault's pasted images and PDFs are many and all alike: one line for them, not one per file.
  const attachments: string[] = [];
  for await (const e of walkFolder(whole.path)) {
    const entryName = joinName(name, e.rel);
    if (e.type === 'skip') {
      out.push({
        name: entryName,
        format: null,
        path: join(whole.path, ...e.rel.split('/')),
        reason: e.reason,
        ...(e.unread ? { blocksForgetting: true } : {}),
      });
      continue;
    }
    if (e.type !== 'file' || isNoteFile(e.path)) continue;
    if (ctx.unpack && isZipName(e.path)) {
      out.push(...(await archiveTargets(e.path, entryName, ctx)));
      continue;
    }
    if (attachment.test(e.path)) {
      attachments.push(e.rel);
      continue;
    }
    const f = await fileFormat(e.path, format, unknownReason);
    if (!('format' in f)) out.push({ name: entryName, format: null, path: e.path, ...f });
    else if (f.format !== 'markdown' && f.format !== 'obsidian') out.push({ name: entryName, ...f });
  }
  if (attachments.length > 0) {
    const shown = attachments.slice(0, 3).join(', ') + (attachments.length > 3 ? ', …' : '');
    out.unshift({
      name: joinName(
        name,
        `${attachments.length} attachment${attachments.length === 1 ? '' : 's'} (${shown})`,
      ),
      format: null,
      path: whole.path,
      reason: `${attachmentReason}; the notes that link them keep their names`,
    });
  }
  return out;
}

/**
 * How an item is named in a report: by its path under what was imported. ROOT is the folder the
 * targets were planned in. A parser names items inside its own file ("line 12", a message id) or by
 * the path it was given; under a target that is one file, the file's name comes first.
 */
export function itemLabel(target: { name: string }, root: string): (ref: string) => string {
  // join normalises as the walk's own paths were built (`./a/` and `a` alike).
  const prefix = join(root, sep);
  return (ref) => {
    const inner = (ref.startsWith(prefix) ? ref.slice(prefix.length) : ref).split(sep).join('/');
    const part = target.name;
    return part === '' || inner === part || inner.startsWith(`${part}/`) ? inner : `${part}: ${inner}`;
  };
}
