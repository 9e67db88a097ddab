import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import type { ImportRequest, ImportResult } from '../../engine/contract/index.ts';
import { errorCodes } from '../../engine/errors/codes.ts';
import { MnemoError } from '../../engine/errors/mnemo-error.ts';
import type { Engine, Tenant } from '../../engine/types.ts';
import { exportFolder } from './detect-format.ts';
import { isUnchangedConflict } from './idempotency-key.ts';
import type { ImportFormat, ParseOptions } from './import-item.ts';
import { itemLabel, planImport, type ImportTarget } from './plan-import.ts';
import { collectTarget, readingOptions, type CollectedRecords } from './run-import.ts';
import { SeenKeys } from './seen-keys.ts';
import { earlierRecords, type EarlierRecords } from './earlier-zone.ts';
import { storedIdsAt, type StoredIdsAt } from './former-ids.ts';
import { KnownNoteNames, plainNoteNames, plainNotes, type StoredNoteNames } from './known-note-names.ts';
import { isTimeZone } from './zoned-time.ts';
import { emptyWindowMessage } from './formats/recurrence-window.ts';
import { errorMessage } from '../../engine/index.ts';
import { uploadFolderPrefix } from './upload-dir.ts';
import { makeTempFolder } from './temp-folders.ts';
import { materialize } from './materialize-upload.ts';
import { archiveSkips, eachZipLimits, isZipName, unpackArchive } from './expand-zip.ts';
import { uploadUnpackBudget, type UnpackBudget } from './unpack-budget.ts';
import { ImportCancelled } from './import-cancelled.ts';
import { ImportWatch, type ImportWatchOptions } from './import-watch.ts';
import { heldItems, writeRevision } from './held-items.ts';
import { WriteWindow } from './write-window.ts';
import {
  chosenEntries,
  heldInObjects,
  heldObjectType,
  MissingItems,
  noObjectWrites,
  recordHeld,
  reconcileMissing,
  type HeldStore,
} from './forget-missing.ts';

/** Skips and failures listed in the result; the counts always cover them all. */
const listedSkips = 500;
const listedFailures = 100;
/** Items sent to the engine at once: they share its commits (engine/adapters/sqlite/write-batches.ts). */
const writesInFlight = 64;
/** Formats whose parser walks a folder; the others read one file each. */
const folderFormats = new Set<ImportFormat>(['markdown', 'obsidian', 'slack']);

/** Why an uploaded file is not read: the person chose it, so choosing the format is the remedy. */
const unknownReason = 'cannot tell the format of this file; choose the format and import it again';

/**
 * What to read. With auto: an export folder recognised by its marker files (Slack, Obsidian,
 * conversations, WhatsApp) is read whole, with the files beside it that its parser does not read each
 * in its own format (plan-import.ts); otherwise each chosen file or folder is planned on its own
 * (plan-import.ts): a file by its format, a folder file by file. With a format: each chosen file in
 * it, each chosen folder for the files of it, or, for a folder format and several chosen entries, all
 * of them together (a vault's or Slack export's contents chosen without their folder).
 */
async function targets(root: string, format: ImportFormat | 'auto'): Promise<ImportTarget[]> {
  const entries = (await readdir(root)).sort();
  const each = async (f: ImportFormat | 'auto') =>
    (
      await Promise.all(entries.map((name) => planImport(join(root, name), f, { name, unknownReason })))
    ).flat();
  if (format !== 'auto') {
    if (entries.length === 1 || !folderFormats.has(format)) return each(format);
    return planImport(root, format, { unknownReason });
  }
  if (entries.length === 1) return each('auto');
  // Chosen together, an export's files are planned as its folder on disk would be: a calendar chosen
  // with a conversations.json is read as a calendar too, not dropped for the export.
  if (await exportFolder(root)) return planImport(root, 'auto', { unknownReason });
  return each('auto');
}

const isInvalidRequest = (e: MnemoError) => errorCodes[e.code].type === 'invalid_request';

export interface ImportFilesOptions extends ImportWatchOptions {
  /**
   * The caller may read the Brain's Records (records:read; default true). Without it nothing the Brain
   * holds is read: no note takes a name the Brain already has (the result would show those names), and
   * a WhatsApp chat is read in the zone asked for, not the one an earlier import used.
   */
  readsRecords?: boolean;
  /**
   * The caller may read the Brain's Objects (objects:read; default true): what each calendar and
   * contacts file held is read only then, so without it nothing of theirs is forgotten.
   */
  readsObjects?: boolean;
  /**
   * The caller may write the Brain's Objects (objects:write; default true): what each calendar and
   * contacts file holds is recorded only then (an import does not widen the key's scopes).
   */
  writesObjects?: boolean;
  /** What the upload may hold unpacked, shared with the server's other uploads (default: the process's). */
  unpackBudget?: UnpackBudget;
}

/**
 * Imports uploaded export files into a Brain through the engine, with the same parsers, validation,
 * derived Idempotency-Keys and skip rules as `mnemo import`: re-importing the same files writes
 * nothing (each item is "unchanged"), a changed item writes a new Record that supersedes the old (it is
 * "replaced", held-items.ts), and
 * a malformed item is skipped with its reason without stopping the rest. The temporary copies are
 * removed before this returns, whatever happens; they are made under `uploadParent` (a server on a data
 * dir passes its upload-dir.ts folder, which its next start sweeps if this process dies mid-import),
 * else under the OS temp dir, named for removeDeadRunsFolders to find there at the next start.
 *
 * `watch.onProgress` hears what is known (once planning ends, then every 250 ms at most); when
 * `watch.signal` aborts, the import stops between items and throws ImportCancelled: each item is one
 * engine write, whole or not at all, and what was written stays (the same import again writes the rest).
 */
export async function importFiles(
  engine: Engine,
  t: Tenant,
  brainId: string,
  body: ImportRequest,
  uploadParent: string = tmpdir(),
  watch: ImportFilesOptions = {},
): Promise<ImportResult> {
  const target = await engine.getBrain(t, brainId);
  // Without self_name, the sender that is the user is the Brain's own person, by name, as `mnemo import`
  // has it (runImport), so the same chat imported both ways is the same Records.
  const selfName = body.self_name ?? target.self?.name;
  if (body.time_zone !== undefined && !isTimeZone(body.time_zone)) {
    throw new MnemoError('invalid_request_body', 'time_zone: must be an IANA time zone, e.g. Europe/Berlin');
  }
  const empty = emptyWindowMessage(
    {
      ...(body.recurrence_since ? { windowStart: new Date(body.recurrence_since) } : {}),
      ...(body.recurrence_until ? { windowEnd: new Date(body.recurrence_until) } : {}),
    },
    new Date(),
    { since: 'recurrence_since', until: 'recurrence_until' },
  );
  if (empty) throw new MnemoError('invalid_request_body', empty);
  // Made again if it was removed while the server ran (its mode matters less: each upload's is 0700).
  await mkdir(uploadParent, { recursive: true, mode: 0o700 });
  const dir = await makeTempFolder(uploadFolderPrefix, uploadParent);
  const unpacking = (watch.unpackBudget ?? uploadUnpackBudget).lease();
  try {
    // The folder's name is what a lone WhatsApp `_chat.txt` is named after (as its folder is on the CLI).
    const root = join(dir, 'upload');
    await mkdir(root, { mode: 0o700 });
    const times = await materialize(body.files, root);
    const { unpacked, notUnpacked } = await unpackArchives(body.files, root, unpacking.take);
    const fromArchive = (path: string) => unpacked.some((u) => path === u || path.startsWith(u + sep));
    const options: ParseOptions = {
      ...(body.time_zone ? { timeZone: body.time_zone } : {}),
      ...(selfName ? { selfName } : {}),
      ...(selfName && body.self_name === undefined ? { selfNameByDefault: true } : {}),
      ...(body.date_order ? { dateOrder: body.date_order } : {}),
      ...(body.visibility ? { visibility: body.visibility } : {}),
      ...(body.recurrence_since ? { windowStart: new Date(body.recurrence_since) } : {}),
      ...(body.recurrence_until ? { windowEnd: new Date(body.recurrence_until) } : {}),
      // Without last_modified, the time is unknown: the same file sent again is then the same item.
      // A file from an archive has the archive's time for it.
      fileTime: async (path) => times.get(path) ?? (fromArchive(path) ? (await stat(path)).mtime : null),
      // Notes go by their names as chosen, never by this temporary folder's path.
      uploadRoot: root,
    };
    const planned = [...(await targets(root, body.format ?? 'auto')), ...notUnpacked];
    return await importTargets(engine, t, brainId, root, planned, options, body.files.length, {
      ...watch,
      forgetMissing: body.forget_missing ?? false,
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
    unpacking.release();
  }
}

/** Notes listed on a part at most; the rest are counted. */
const listedNotes = 3;

/**
 * One line for a part from what was said of how it was read (its zone, a chat's ambiguous dates, a
 * note's front matter): each distinct caveat once, the first few in full.
 */
function partNote(notes: (string | undefined)[]): string | null {
  const distinct = [...new Set(notes.filter((n): n is string => n !== undefined && n !== ''))];
  if (distinct.length === 0) return null;
  const more = distinct.length - listedNotes;
  return distinct.slice(0, listedNotes).join('; ') + (more > 0 ? `; and ${more} more notes` : '');
}

/**
 * Each uploaded `.zip` (an export as downloaded) is unpacked where it was, as the folder it was made
 * from (expand-zip.ts), and removed. Returns the paths of what was unpacked, and the entries that were
 * not (links, encrypted ones), as targets that report them.
 */
async function unpackArchives(
  files: ImportRequest['files'],
  root: string,
  take: (bytes: number) => void,
): Promise<{ unpacked: string[]; notUnpacked: ImportTarget[] }> {
  const unpacked: string[] = [];
  const notUnpacked: ImportTarget[] = [];
  for (const [i, f] of files.entries()) {
    if (!isZipName(f.name)) continue;
    const zip = join(root, ...f.name.split('/'));
    try {
      const { path, expanded } = await unpackArchive(zip, dirname(zip), { ...eachZipLimits, take });
      unpacked.push(path);
      notUnpacked.push(...archiveSkips(f.name, expanded));
    } catch (e) {
      if (e instanceof MnemoError || files.length === 1) {
        if (e instanceof MnemoError) throw e;
        throw new MnemoError('invalid_request_body', `files[${i}].name: ${errorMessage(e)}`);
      }
      // One unreadable archive among other files is skipped and named, as the command line skips it in
      // a folder: the rest of what the person chose is imported.
      notUnpacked.push({
        name: f.name,
        format: null,
        path: f.name,
        reason: errorMessage(e),
        blocksForgetting: true,
      });
    }
    await rm(zip);
  }
  return { unpacked, notUnpacked };
}

/**
 * The names of the Brain's plain notes, read from the engine (its external ids only); none when the
 * caller may not read Records. A failure to read them fails the import: it has written nothing yet, and
 * going on would store every note again.
 */
function notesInEngine(engine: Engine, t: Tenant, brainId: string, mayRead: boolean): StoredNoteNames {
  return async () => (mayRead ? engine.sourceExternalIds(t, brainId, plainNotes) : null);
}

/**
 * The Brain's WhatsApp Records in a time range, read from the engine as the caller may see them: none
 * for a key that may write but not read Records, as through the API (the zone an earlier import used
 * is read from their texts).
 */
function earlierInEngine(engine: Engine, t: Tenant, brainId: string, mayRead: boolean): EarlierRecords {
  return earlierRecords(async (q) => (mayRead ? engine.listRecords(t, brainId, q) : null));
}

/** The external ids the Brain holds at an instant (underFormerIds); none for a caller that may not read. */
function idsInEngine(engine: Engine, t: Tenant, brainId: string, mayRead: boolean): StoredIdsAt {
  return storedIdsAt(async (q) => (mayRead ? engine.listRecords(t, brainId, q) : null));
}

async function importTargets(
  engine: Engine,
  t: Tenant,
  brainId: string,
  root: string,
  parts: ImportTarget[],
  options: ParseOptions,
  files: number,
  watchOptions: ImportFilesOptions & { forgetMissing: boolean },
): Promise<ImportResult> {
  const seenKeys = new SeenKeys();
  const mayRead = watchOptions.readsRecords ?? true;
  const names = new KnownNoteNames(
    notesInEngine(engine, t, brainId, mayRead),
    await plainNoteNames(parts, root),
  );
  await names.prepare();
  // What the calendar and contacts files hold is recorded by every import (forget-missing.ts).
  const inFiles = new MissingItems(root);
  const missing = watchOptions.forgetMissing ? inFiles : undefined;
  // Each chosen file or folder is a root: what lies under it and is gone from it is missing.
  await missing?.coverNotes(await chosenEntries(root), root, (id) => names.storedName(id));
  // Read before anything is written: which sources the Brain already held imported items of.
  const held = heldItems(mayRead ? await engine.listSources(t, brainId) : null, (q) =>
    engine.listRecords(t, brainId, q),
  );
  const skipped: ImportResult['skipped'] = [];
  const failures: ImportResult['failures'] = [];
  const result: ImportResult = {
    object: 'import',
    brain_id: brainId,
    imported: 0,
    replaced: 0,
    unchanged: 0,
    skipped,
    skipped_count: 0,
    failed: 0,
    failures,
    parts: [],
    watermark: null,
  };
  const skip = (item: string, reason: string) => {
    result.skipped_count += 1;
    if (skipped.length < listedSkips) skipped.push({ item, reason });
  };
  const watch = new ImportWatch(result, files, watchOptions);
  watch.planned(parts.length);
  for (const [index, target] of parts.entries()) {
    // Files read as one export are named by the file it is read from ("conversations.json"), or as all
    // of them where it is the folder they make (a vault, a Slack export).
    const name =
      target.name ||
      (target.path !== root ? relative(root, target.path).split(sep).join('/') : '(all files)');
    watch.startPart(index, name);
    const part: ImportResult['parts'][number] = {
      name,
      format: target.format,
      imported: 0,
      replaced: 0,
      unchanged: 0,
      skipped: 0,
      failed: 0,
    };
    result.parts.push(part);
    if (target.format === null) {
      if (target.blocksForgetting) missing?.cannotForget(`${name}: ${target.reason}`);
      part.skipped += 1;
      skip(name, target.reason);
      continue;
    }
    // A calendar's or contacts file's text is read once, by its parser, which hands it over.
    const onText =
      target.format === 'ics' || target.format === 'vcf'
        ? await inFiles.coverFile(target.format, target.path)
        : undefined;
    const label = itemLabel(target, root);
    let collected: CollectedRecords;
    try {
      const reading = await readingOptions(target, options, earlierInEngine(engine, t, brainId, mayRead));
      if (reading.note !== null) part.note = reading.note;
      collected = await collectTarget(
        target,
        onText ? { ...reading.options, onText } : reading.options,
        seenKeys,
        label,
        names,
        idsInEngine(engine, t, brainId, mayRead),
        watch.itemRead,
      );
    } catch (e) {
      if (e instanceof ImportCancelled) throw e;
      // A file the parser cannot open at all (a folder given as a single-file format, say).
      missing?.cannotForget(`${name}: ${errorMessage(e)}`);
      part.skipped += 1;
      skip(name, `cannot be read as ${target.format}: ${errorMessage(e)}`);
      continue;
    }
    for (const r of collected.records) inFiles.sawRecord(r, target.path);
    for (const s of collected.skippedItems) {
      part.skipped += 1;
      skip(label(s.ref), s.reason);
    }
    // Each item's note names its item: next to a part's counts, a bare note reads as the reason for them.
    const said = partNote([part.note, ...collected.notes.map((n) => `${n.ref}: ${n.note}`)]);
    if (said !== null) part.note = said;
    const writes = new WriteWindow(writesInFlight);
    try {
      for (const [i, item] of collected.records.entries()) {
        // Between items only: a cancel never leaves one half-written (each is one engine write).
        await watch.beforeWrite(label(item.ref));
        await writes.add(async () => {
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
              collected.keys[i]!,
              (k) => engine.rememberRecord(t, brainId, item.body, { idempotencyKey: k }),
            );
            if (written !== null) result.watermark = written.watermark;
            if (unchanged || written === null) part.unchanged += 1;
            else if (await held.replaces(name, external_id, written.record.id)) part.replaced += 1;
            else part.imported += 1;
          } catch (e) {
            // A store that cannot be reached fails every item alike, each after the pool's wait.
            if (!(e instanceof MnemoError) || e.code === 'brain_not_found' || e.code === 'store_unavailable')
              throw e;
            if (isUnchangedConflict(item, e.code)) part.unchanged += 1;
            else if (isInvalidRequest(e)) {
              part.skipped += 1;
              skip(label(item.ref), `rejected: ${e.code}: ${e.message}`);
            } else {
              part.failed += 1;
              if (failures.length < listedFailures)
                failures.push({ item: label(item.ref), code: e.code, message: e.message });
            }
          }
        });
      }
      await writes.settle();
    } catch (e) {
      // What was under way is written and counted before the import stops.
      await writes.settle().catch(() => {});
      throw e instanceof ImportCancelled ? watch.cancelled() : e;
    }
    result.imported += part.imported;
    result.replaced += part.replaced;
    result.unchanged += part.unchanged;
    result.failed += part.failed;
  }
  const heldFiles = heldInEngine(engine, t, brainId, {
    read: watchOptions.readsObjects ?? true,
    write: watchOptions.writesObjects ?? true,
  });
  if (missing) await forgetMissing(engine, t, brainId, missing, result, mayRead, heldFiles, watch);
  else {
    const notes = await recordHeld(inFiles, heldFiles);
    if (notes.length > 0) result.forget_notes = notes;
  }
  const { count, examples } = names.matches;
  if (count > 0)
    result.matched_notes = {
      count,
      examples: examples.map((m) => ({ item: m.item, external_id: m.name })),
    };
  return result;
}

/**
 * What each calendar and contacts file held, in the Brain's Objects through the engine, as the key may
 * use them through /v1 (MAY: objects:read, objects:write): the upload is the key's own call, so it
 * reads and writes no Object the key could not.
 */
function heldInEngine(
  engine: Engine,
  t: Tenant,
  brainId: string,
  may: { read: boolean; write: boolean },
): HeldStore {
  return heldInObjects(
    async (cursor) =>
      may.read
        ? engine.listObjects(t, brainId, { type: heldObjectType, limit: 500, ...(cursor ? { cursor } : {}) })
        : null,
    async (body) => {
      if (!may.write) return noObjectWrites;
      await engine.acceptObject(t, brainId, body, {});
      return null;
    },
  );
}

/** Items listed in `forgotten_items`; `forgotten` counts them all. */
const listedForgotten = 500;

/**
 * After every part was read and written: the Brain's items under what was chosen that the files no
 * longer hold, forgotten through the engine (forget-missing.ts), or kept with the reason in
 * `forget_notes` (something not read or written, nothing imported, a folder that matched nothing).
 */
async function forgetMissing(
  engine: Engine,
  t: Tenant,
  brainId: string,
  missing: MissingItems,
  result: ImportResult,
  mayRead: boolean,
  held: HeldStore,
  watch: ImportWatch,
): Promise<void> {
  const done = await reconcileMissing(missing, {
    written: result.imported + result.replaced + result.unchanged,
    failed: result.failed,
    nothingWritten:
      'nothing was forgotten: nothing chosen could be imported, so nothing tells what is missing',
    stored: async (source) => (mayRead ? engine.sourceExternalIds(t, brainId, source) : null),
    held,
    forget: (source, ids) => engine.forgetSourceItems(t, brainId, source, ids),
    onForgotten: (n) => watch.forgotten(n),
  });
  result.forget_notes = done.notes;
  result.forgotten = done.items.length;
  result.forgotten_items = done.items
    .slice(0, listedForgotten)
    .map((i) => ({ source: i.source, external_id: i.externalId }));
}
