import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** The name every upload's temporary folder starts with (import-files.ts). */
export const uploadFolderPrefix = 'mnemo-import-';

/**
 * Where a server on a data dir copies uploaded files while an import reads them: inside the data dir
 * (owner-only, on the store's disk) rather than the OS temp dir, which is often shared, on disk and never
 * cleared, so that a crash mid-import leaves the plaintext only where the next start removes it.
 */
export function uploadParentFor(dataDir: string): string {
  return join(dataDir, 'tmp');
}

/**
 * Makes the data dir's upload folder (0700) and removes the upload copies an earlier run left in it:
 * the temporary folders are removed as each import ends, so any still there belong to a process that
 * died mid-import. Only for the process holding the data dir's lock (no other can be importing into it
 * then). Only `mnemo-import-*` entries go: a data dir chosen by hand may keep other things in `tmp`.
 * Returns the folder and how many leftovers were removed.
 */
export function prepareUploadParent(dataDir: string): { dir: string; removed: number } {
  const dir = uploadParentFor(dataDir);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (e) {
    // Node's own line ("EEXIST: file already exists, mkdir …") does not say what the folder is for.
    const code = (e as NodeJS.ErrnoException).code;
    throw new Error(
      code === 'EEXIST' || code === 'ENOTDIR'
        ? `${dir} must be a folder (Mnemo copies uploaded files there while an import reads them), but a file is in its place: move it away`
        : `cannot make ${dir}, where uploaded files are read from during an import: ${(e as Error).message}`,
      { cause: e },
    );
  }
  let removed = 0;
  for (const name of readdirSync(dir)) {
    if (!name.startsWith(uploadFolderPrefix)) continue;
    rmSync(join(dir, name), { recursive: true, force: true });
    removed += 1;
  }
  return { dir, removed };
}
