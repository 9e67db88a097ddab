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
 * - otherwise, on disk: source `markdown`, its path from `namedFrom` (the folder that holds what was
 *   imported: "Notes/todo.md" for the folder Notes), as an upload of the same folder names it, so the
 *   same folder at another place (another device, another user name) holds the same names. A note that
 *   lies outside it (a link followed out of the folder), or with no `namedFrom`, is named by its real
 *   absolute path, as every plain note on disk was before (formerNoteName);
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
  namedFrom: string | null = null,
): (realFile: string) => Promise<NoteIdentity> {
  const from = namedFrom === null ? null : namedFrom.endsWith(sep) ? namedFrom : namedFrom + sep;
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
    if (uploadRoot) return { source: 'markdown', externalId: slashed(relative(uploadRoot, realFile)) };
    const at = where(realFile);
    return {
      source: 'markdown',
      externalId: slashed(from !== null && at.startsWith(from) ? at.slice(from.length) : at),
    };
  };
}

/** Whether a plain note's name is a path on a disk ("/home/ana/Notes/todo.md", "C:/Notes/todo.md"). */
export const isDiskPath = (id: string): boolean => id.startsWith('/') || /^[A-Za-z]:\//u.test(id);

/**
 * The name a plain note named ID from NAMED_FROM (noteIdentities) was imported under before notes on
 * disk were named from the folder imported: its real absolute path. An ID that is such a path already
 * is its own former name.
 */
export function formerNoteName(namedFrom: string, id: string): string {
  return isDiskPath(id) ? id : slashed(join(namedFrom, ...id.split('/')));
}
