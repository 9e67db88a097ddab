import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ImportRequest } from '../../engine/contract/index.ts';
import { MnemoError } from '../../engine/errors/mnemo-error.ts';

/**
 * Files written at once. One after the other, each a wait on the thread pool for its folder, open,
 * write and close, copying a 3,000-note upload took seconds.
 */
const writesAtOnce = 16;

/** A relative path as segments, or null when it could escape the folder or cannot be a file name. */
function safeSegments(name: string): string[] | null {
  const parts = name.split(/[/\\]/);
  if (parts.some((p) => p === '' || p === '.' || p === '..' || [...p].some((ch) => ch.charCodeAt(0) < 0x20)))
    return null;
  return parts;
}

const cannotStore = (i: number, rel: string, e: unknown) =>
  new MnemoError(
    'invalid_request_body',
    `files[${i}].name: "${rel}" cannot be stored (${(e as NodeJS.ErrnoException).code ?? 'error'}); is it both a file and a folder?`,
  );

/** The two file-system calls a copy makes (tests slow them down to see what runs when). */
export interface UploadWriter {
  /** Makes DIR and any folder above it that is missing (0700). */
  mkdir(dir: string): Promise<unknown>;
  /** Creates PATH (0600), failing when anything is there already. */
  writeFile(path: string, data: Buffer): Promise<void>;
}

export const diskWriter: UploadWriter = {
  mkdir: (dir) => mkdir(dir, { recursive: true, mode: 0o700 }),
  writeFile: (path, data) => writeFile(path, data, { mode: 0o600, flag: 'wx' }),
};

interface Writing {
  i: number;
  rel: string;
  done: Promise<void>;
}

/**
 * Writes the files under a private temporary folder (0700, files 0600), keeping their relative paths,
 * so the importers read them exactly as `mnemo import` reads a folder. Returns each file's
 * last_modified by path: a copy's own modification time is the upload's, which no note occurred at.
 *
 * Several files are written at once, each folder is made once, and the first file that cannot be
 * stored (in the order given) is the error, as when they were written one by one: a folder is made
 * only after the writes before it have ended, so a name that is both a file and a folder fails at the
 * same file, with the same error. Nothing is still being written when this returns or throws.
 */
export async function materialize(
  files: ImportRequest['files'],
  root: string,
  io: UploadWriter = diskWriter,
): Promise<Map<string, Date>> {
  const seen = new Set<string>();
  const times = new Map<string, Date>();
  // Folders there already: a file in one needs no mkdir.
  const made = new Set<string>([root]);
  let writing: Writing[] = [];
  /** Waits for every write under way; throws for the first that failed. */
  const settle = async () => {
    const ended = writing;
    writing = [];
    const outcomes = await Promise.allSettled(ended.map((w) => w.done));
    const failed = outcomes.findIndex((o) => o.status === 'rejected');
    if (failed >= 0)
      throw cannotStore(
        ended[failed]!.i,
        ended[failed]!.rel,
        (outcomes[failed] as PromiseRejectedResult).reason,
      );
  };
  /** A name that cannot be stored: the error, once the writes before it have ended (one may fail first). */
  const refusal = async (message: string) => {
    await settle();
    return new MnemoError('invalid_request_body', message);
  };
  for (const [i, f] of files.entries()) {
    const parts = safeSegments(f.name);
    if (!parts)
      throw await refusal(`files[${i}].name: must be a relative path without empty, "." or ".." parts`);
    const rel = parts.join('/');
    if (seen.has(rel)) throw await refusal(`files[${i}].name: "${rel}" is given twice`);
    seen.add(rel);
    const path = join(root, ...parts);
    const dir = dirname(path);
    if (!made.has(dir)) {
      await settle();
      try {
        await io.mkdir(dir);
      } catch (e) {
        throw cannotStore(i, rel, e);
      }
      for (let d = dir; !made.has(d) && d !== dirname(d); d = dirname(d)) made.add(d);
    }
    const done = io.writeFile(path, Buffer.from(f.content_base64, 'base64'));
    // Awaited in settle (or below); until then a failure must not count as unhandled.
    done.catch(() => {});
    writing.push({ i, rel, done });
    if (f.last_modified) times.set(path, new Date(f.last_modified));
    while (writing.length >= writesAtOnce) {
      try {
        await writing[0]!.done;
      } catch {
        await settle();
      }
      writing.shift();
    }
  }
  await settle();
  return times;
}
