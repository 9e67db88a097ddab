import { lstatSync, readdirSync, rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { uploadFolderPrefix } from './upload-dir.ts';

/** Temporary folders an import unpacked archives into, until it removes them itself. */
const held = new Set<string>();

/**
 * Holds DIR (a temporary folder of unpacked, private files) for `removeTempFolders`; the function
 * returned lets it go once the import has removed it. An import stopped by a signal never reaches its
 * own `finally`: what it had unpacked (a chat, a vault) was left in the system's temporary folder.
 */
export function holdTempFolder(dir: string): () => void {
  held.add(dir);
  return () => held.delete(dir);
}

/** Removes every folder held, at once: called as the process ends on a signal. */
export function removeTempFolders(): void {
  for (const dir of held) rmSync(dir, { recursive: true, force: true });
  held.clear();
}

/**
 * The names of import copies in the system's temporary folder: an archive `mnemo import` unpacks, the
 * archives it finds in a folder, and the uploads of a server without a data dir (a hosted one).
 */
export const tempFolderPrefixes = ['mnemo-zip-', 'mnemo-zips-', uploadFolderPrefix] as const;

/**
 * Makes a private temporary folder (0700) under PARENT named PREFIX, this process's id and six random
 * characters: a later start tells a folder a dead run left (a crash, kill -9, the OOM killer, which
 * no `finally` or signal handler outlives) from one a running import still reads.
 */
export function makeTempFolder(prefix: string, parent: string = tmpdir()): Promise<string> {
  return mkdtemp(join(parent, `${prefix}${process.pid}-`));
}

/** When this process started, in ms since the epoch. */
const startedAt = Date.now() - process.uptime() * 1000;

/**
 * Removes the folders under PARENT (default: the system's temporary folder) named by makeTempFolder
 * with one of PREFIXES whose process is gone: no process has that id any more, or it is this process's
 * own id and the folder is older than this process (a container's server is often pid 1 every time).
 * Only this user's folders: another's are not ours to judge (and could not be removed). A folder of a
 * live process keeps, even when that id was reused by another program since: left, never wrongly
 * removed. Returns how many were removed.
 */
export function removeDeadRunsFolders(
  prefixes: readonly string[] = tempFolderPrefixes,
  parent: string = tmpdir(),
): number {
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return 0;
  }
  const uid = process.getuid?.();
  let removed = 0;
  for (const name of names) {
    const prefix = prefixes.find((p) => name.startsWith(p));
    const pid = prefix === undefined ? null : /^(\d+)-[A-Za-z0-9]{6}$/.exec(name.slice(prefix.length))?.[1];
    if (!pid) continue;
    const path = join(parent, name);
    try {
      const st = lstatSync(path);
      if (!st.isDirectory() || (uid !== undefined && st.uid !== uid)) continue;
      if (!runIsOver(Number(pid), st.ctimeMs)) continue;
      rmSync(path, { recursive: true, force: true });
      removed += 1;
    } catch {
      // Gone meanwhile, or not ours to remove: the next start looks again.
    }
  }
  return removed;
}

function runIsOver(pid: number, changedMs: number): boolean {
  if (pid === process.pid) return changedMs < startedAt;
  try {
    process.kill(pid, 0);
    return false;
  } catch (e) {
    // EPERM: a process of another user has that id now; it may be ours no longer, but that is not known.
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
