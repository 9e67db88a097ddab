import { stat } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import type { ArchivePlaces } from '../archive-places.ts';

/** What an imported note is, as its Record says: `source.name` and `source.external_id`. */
export interface NoteIdentity {
  source: 'markdown' | 'obsidian';
  externalId: string;
  /** The vault's folder (real), for a note in one. */
  vault?: string;
  /** The note's path in that vault, `/`-separated. */
  inVault?: string;
}

const slashed = (p: string) => p.split(sep).join('/');

const isDirectory = (p: string) =>
  stat(p).then(
    (s) => s.isDirectory(),
    () => false,
  );

/**
 * Names notes by where they live, never by what was asked to be imported, so the same file is one
 * item whether it came alone, in its folder or in its vault, and two files of the same name are two
 * items (docs/decisions/import-mcp.md, "Note identity"):
 *
 * - in an Obsidian vault (the nearest folder around it that holds `.obsidian/`): source `obsidian`,
 *   `<vault folder name>/<path in the vault>`, how Obsidian itself addresses a note
 *   (`obsidian://open?vault=…&file=…`), so moving the vault elsewhere keeps its notes' names;
 * - otherwise, on disk: source `markdown`, the file's real absolute path;
 * - otherwise, uploaded (`uploadRoot` is the folder the upload was written to, which has no place
 *   of its own): source `markdown`, the path as chosen ("Notes/todo.md"). No vault is looked for
 *   above the upload; when the upload is itself a vault's contents, its notes go by their paths in it.
 *
 * Paths given to the returned function must be real (symlinks resolved) and, for an upload, under
 * `uploadRoot` (real too). Which folders are vaults is remembered, so a large vault costs one look
 * per folder. A note unpacked from an archive found in a folder (`places`) is named as if the archive
 * had been unpacked where it lies, and a vault is looked for above the archive too.
 */
export function noteIdentities(
  uploadRoot: string | null,
  places?: ArchivePlaces,
): (realFile: string) => Promise<NoteIdentity> {
  const vaults = new Map<string, Promise<string | null>>();
  const vaultOf = (dir: string): Promise<string | null> => {
    let found = vaults.get(dir);
    if (!found) {
      found = (async () => {
        if (await isDirectory(join(dir, '.obsidian'))) return dir;
        const up = places?.above(dir) ?? dirname(dir);
        return dir === uploadRoot || up === dir ? null : vaultOf(up);
      })();
      vaults.set(dir, found);
    }
    return found;
  };
  const where = (real: string) => places?.where(real) ?? real;
  return async (realFile) => {
    const vault = await vaultOf(dirname(realFile));
    if (vault !== null) {
      const inVault = slashed(relative(where(vault), where(realFile)));
      return {
        source: 'obsidian',
        externalId: vault === uploadRoot ? inVault : `${basename(vault)}/${inVault}`,
        vault,
        inVault,
      };
    }
    return {
      source: 'markdown',
      externalId: slashed(uploadRoot ? relative(uploadRoot, realFile) : where(realFile)),
    };
  };
}
