import { mkdir, open, readdir, rename, rm, rmdir, stat, utimes } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import { MnemoError } from '../../engine/errors/mnemo-error.ts';
import { isBareChatFile } from './formats/whatsapp.ts';

export interface ZipLimits {
  /** Most entries written: a zip of a million empty files is an attack, not an export. */
  maxEntries: number;
  /** Most bytes written in all: what the entries say they hold, checked again as they are read. */
  maxBytes: number;
  /**
   * Told what each entry holds before it is written (a folder: 0); throws to refuse it
   * (unpack-budget.ts).
   */
  take?: (bytes: number) => void;
}

/** Generous for real exports (a Slack workspace, a Takeout, a vault with its attachments). */
export const defaultZipLimits: ZipLimits = { maxEntries: 200_000, maxBytes: 4 * 1024 ** 3 };

/** Each of several archives (uploaded, or found in a folder) holds at most this unpacked. */
export const eachZipLimits: ZipLimits = { maxEntries: 100_000, maxBytes: 1024 ** 3 };

export interface ExpandedZip {
  files: number;
  bytes: number;
  /** Entries not written, with the reason: links, encrypted entries, an OS's own bookkeeping. */
  skipped: { name: string; reason: string }[];
}

/** The exporting OS's bookkeeping, never anyone's notes. */
function bookkeeping(name: string): boolean {
  return name.startsWith('__MACOSX/') || basename(name) === '.DS_Store' || basename(name) === 'Thumbs.db';
}

const isLink = (e: yauzl.Entry) => ((e.externalFileAttributes >>> 16) & 0o170000) === 0o120000;

function openZip(file: string): Promise<yauzl.ZipFile> {
  return new Promise((ok, fail) =>
    yauzl.open(
      file,
      // lazyEntries: one entry at a time, so a huge archive never piles up in memory. decodeStrings
      // validates every name: an absolute one or one with ".." (zip slip) fails the archive.
      { lazyEntries: true, decodeStrings: true, validateEntrySizes: true, autoClose: true },
      (e, zip) => (e ? fail(e) : ok(zip)),
    ),
  );
}

function readEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<NodeJS.ReadableStream> {
  return new Promise((ok, fail) => zip.openReadStream(entry, (e, s) => (e ? fail(e) : ok(s))));
}

/**
 * Writes the files of a zip archive under `intoDir` (owner-only, as the upload folder is), keeping its
 * folders, so an exported archive is imported as the folder it was made from: a Slack or ChatGPT
 * export, an Obsidian vault, a WhatsApp chat. Nested archives are written as files (then skipped as
 * attachments). Refuses, before writing more, an archive beyond `limits` or one whose entries lie
 * about their size (a zip bomb), and every name is checked to stay inside `intoDir`.
 */
export async function expandZip(
  file: string,
  intoDir: string,
  limits: ZipLimits = defaultZipLimits,
): Promise<ExpandedZip> {
  const root = resolve(intoDir);
  const out: ExpandedZip = { files: 0, bytes: 0, skipped: [] };
  let zip: yauzl.ZipFile;
  try {
    zip = await openZip(file);
  } catch (e) {
    throw new Error(`${basename(file)} cannot be read as a zip archive: ${(e as Error).message}`);
  }
  if (zip.entryCount > limits.maxEntries) {
    zip.close();
    throw new Error(
      `${basename(file)} holds ${zip.entryCount} entries, more than ${limits.maxEntries}: unzip it and import the folder`,
    );
  }
  await mkdir(root, { recursive: true, mode: 0o700 });
  await new Promise<void>((done, fail) => {
    const stop = (e: unknown) => {
      zip.close();
      // A refusal in the API's own words (the budget's) reaches the caller as it is.
      fail(
        e instanceof Error && !(e instanceof MnemoError) ? new Error(`${basename(file)}: ${e.message}`) : e,
      );
    };
    zip.on('error', stop);
    zip.on('end', () => done());
    zip.on('entry', (entry: yauzl.Entry) => {
      void (async () => {
        const name = entry.fileName;
        const target = resolve(root, name);
        const inside = relative(root, target);
        if (inside.startsWith('..') || inside === '' || resolve(root, inside) !== target)
          throw new Error(`the entry ${JSON.stringify(name)} would land outside the archive's folder`);
        if (name.endsWith('/')) {
          if (bookkeeping(name)) {
            // Nothing to say: no one made these.
          } else {
            // A folder holds no bytes, but is an entry written: archives of folders alone fill inodes.
            limits.take?.(0);
            await mkdir(target, { recursive: true, mode: 0o700 });
          }
        } else if (bookkeeping(name)) {
          // Nothing to say: no one made these.
        } else if (isLink(entry)) {
          out.skipped.push({ name, reason: 'a symbolic link' });
        } else if (entry.isEncrypted()) {
          out.skipped.push({ name, reason: 'encrypted in the archive' });
        } else {
          if (out.bytes + entry.uncompressedSize > limits.maxBytes)
            throw new Error(
              `unpacked it would hold more than ${limits.maxBytes} bytes: unzip it and import the folder`,
            );
          limits.take?.(entry.uncompressedSize);
          await mkdir(dirname(target), { recursive: true, mode: 0o700 });
          // 'wx': of two entries with one name the first stays; nothing is ever written over. Opened
          // before the entry is read: a stream's own open failed while its entry was still being read,
          // with no listener yet, and the EEXIST ended the process as an uncaught error.
          const file = await open(target, 'wx', 0o600).catch((e: unknown) => {
            if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
            return null;
          });
          if (file === null) {
            out.skipped.push({ name, reason: 'a second entry of the same name' });
          } else {
            const sink = file.createWriteStream();
            try {
              await pipeline(await readEntry(zip, entry), sink);
            } finally {
              // Closed by the stream when it ended; a read that failed first leaves it open.
              if (!sink.closed) await file.close().catch(() => {});
            }
            // The time the archive gives the file, as unzip keeps it: a note without a date of its
            // own occurs then, so importing the same archive again is the same items, not revisions.
            const when = entry.getLastModDate();
            await utimes(target, when, when);
            out.files += 1;
            out.bytes += entry.uncompressedSize;
          }
        }
        zip.readEntry();
      })().catch(stop);
    });
    zip.readEntry();
  });
  return out;
}

/**
 * What an archive holds but did not unpack, as targets of the import that report it: without these, a
 * link, an encrypted entry or a second entry of one name vanished from both the summary and the counts.
 * `archive` names the archive as the report names what was chosen.
 */
export function archiveSkips(
  archive: string,
  expanded: ExpandedZip,
): { name: string; format: null; path: string; reason: string }[] {
  return expanded.skipped.map((s) => ({
    name: `${archive}: ${s.name}`,
    format: null,
    path: archive,
    reason: `not unpacked: ${s.reason}`,
  }));
}

/** The folder an archive is unpacked as: its name without `.zip` ("slack-export.zip" -> "slack-export"). */
export function archiveFolderName(file: string): string {
  const name = basename(file).replace(/\.zip$/i, '');
  return name.length > 0 && name !== '.' && name !== '..' ? name : 'archive';
}

export const isZipName = (name: string) => /\.zip$/i.test(name);

/**
 * Unpacks an archive into `parent` as what it was made from: a folder named after the archive, or,
 * when everything in it sits in one folder or is one file (a zipped vault "Vault/…", a lone
 * conversations.json), that one entry in its place, as if it had been chosen itself; but not a lone
 * WhatsApp `_chat.txt`, which is named after its folder. Returns the path
 * of what to import.
 */
export async function unpackArchive(
  file: string,
  parent: string,
  limits: ZipLimits = defaultZipLimits,
): Promise<{ path: string; expanded: ExpandedZip }> {
  const folder = join(parent, archiveFolderName(file));
  if (
    await stat(folder).then(
      () => true,
      () => false,
    )
  )
    throw new Error(`${basename(file)}: ${folder} exists already; unzip it and import the folder`);
  let expanded: ExpandedZip;
  try {
    expanded = await expandZip(file, folder, limits);
  } catch (e) {
    // What was written before it was refused is part of it only: left there, an upload read it as a folder.
    await rm(folder, { recursive: true, force: true });
    throw e;
  }
  const inside = await readdir(folder);
  if (inside.length !== 1) return { path: folder, expanded };
  const only = inside[0]!;
  // iOS exports a chat without media as "WhatsApp Chat - Porto trip.zip" holding `_chat.txt` alone: the
  // chat's name is the archive's, as when media sit beside it, and every message's identity holds it.
  if (isBareChatFile(only)) return { path: folder, expanded };
  const hoisted = join(parent, only);
  if (
    only !== basename(folder) &&
    (await stat(hoisted).then(
      () => true,
      () => false,
    ))
  )
    return { path: folder, expanded };
  const aside = join(parent, `.mnemo-unpack-${process.pid}`);
  await rename(join(folder, only), aside);
  await rmdir(folder);
  await rename(aside, hoisted);
  return { path: hoisted, expanded };
}
