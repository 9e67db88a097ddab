import { readdir, realpath, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { errorMessage } from '../../engine/index.ts';

/**
 * What a walk finds: a file to read, a folder `stopAt` claimed (read whole by the caller), or an entry
 * that cannot be read, with the reason. `rel` is the path under the walked folder, with `/`; a file's
 * `real` is its path with every link resolved (what `realpath` would answer, known from the walk).
 */
export type WalkEntry =
  | { type: 'file'; path: string; rel: string; real: string }
  | { type: 'folder'; path: string; rel: string }
  | {
      type: 'skip';
      rel: string;
      reason: string;
      /** What it holds could not be read (a folder, a link): nothing under it may be taken for gone. */
      unread?: true;
    };

/** Hidden entries are tool state (.obsidian, .git, .trash, .DS_Store), as is node_modules: never content. */
export const isIgnored = (name: string) => name.startsWith('.') || name === 'node_modules';

const errnoCode = (e: unknown) => (e as NodeJS.ErrnoException | null)?.code;

/**
 * Why a link's target is not followed, or null. A link reaches past the hidden-entry rule: a folder
 * from elsewhere (a cloned repository, an unpacked tarball) can hold `notes/key.md` pointing at
 * `../../.ssh/id_rsa` or `~/.config/mnemo/db.key`, and its text would become a Record that syncs.
 * So a target is refused when a name on its way from where it and the walked folder part is hidden
 * (or node_modules), as that name met in the walk would be; and the kernel's pseudo-files
 * (`/proc/self/environ`, the process's environment with its keys) are nobody's notes.
 */
function refusedTarget(realRoot: string, real: string): string | null {
  if (sep === '/' && /^\/(proc|sys|dev)(\/|$)/.test(real))
    return 'link to a system file (/proc, /sys, /dev): not followed';
  const from = realRoot.split(sep);
  const to = real.split(sep);
  let shared = 0;
  while (shared < from.length && shared < to.length && from[shared] === to[shared]) shared += 1;
  const hidden = to.slice(shared).find(isIgnored);
  return hidden === undefined
    ? null
    : `link into a hidden folder or file (${hidden}): not followed, as hidden entries are never read`;
}

/**
 * Every file under ROOT, in name order, following symbolic links to files and folders: people link
 * notes and folders into the places they import. Each real folder and file is read once, so a link
 * that loops back to a folder above it ends the walk there instead of recursing forever, and a second
 * link to something already read is reported rather than read twice. `stopAt` may claim a folder
 * (an export read whole); the walk then does not enter it.
 */
export async function* walkFolder(
  root: string,
  stopAt?: (dir: string) => Promise<boolean>,
): AsyncGenerator<WalkEntry> {
  const realRoot = await realpath(root);
  const seenDirs = new Map<string, string>([[realRoot, '.']]);
  const seenFiles = new Map<string, string>();

  async function* inside(dir: string, realDir: string, relDir: string): AsyncGenerator<WalkEntry> {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (e) {
      yield {
        type: 'skip',
        rel: relDir || '.',
        reason: `folder cannot be read: ${errorMessage(e)}`,
        unread: true,
      };
      return;
    }
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const e of entries) {
      if (isIgnored(e.name)) continue;
      const path = join(dir, e.name);
      const rel = relDir ? `${relDir}/${e.name}` : e.name;
      let isDir = e.isDirectory();
      let isFile = e.isFile();
      // Only links need the extra calls: anything else lies where its folder really is.
      let real = join(realDir, e.name);
      if (e.isSymbolicLink()) {
        try {
          const target = await stat(path);
          isDir = target.isDirectory();
          isFile = target.isFile();
          real = await realpath(path);
        } catch (err) {
          if (errnoCode(err) === 'ENOENT' || errnoCode(err) === 'ELOOP')
            yield { type: 'skip', rel, reason: 'broken link: its target does not exist' };
          else
            yield {
              type: 'skip',
              rel,
              reason: `link cannot be followed: ${errorMessage(err)}`,
              unread: true,
            };
          continue;
        }
        const refused = refusedTarget(realRoot, real);
        if (refused !== null) {
          yield { type: 'skip', rel, reason: refused };
          continue;
        }
      }
      if (isDir) {
        const first = seenDirs.get(real);
        if (first !== undefined) {
          yield {
            type: 'skip',
            rel,
            reason:
              first === '.'
                ? 'link back to the folder being read: not followed again'
                : rel.startsWith(`${first}/`)
                  ? `link back to ${first}, a folder above it: not followed again`
                  : `same folder as ${first}, already read`,
          };
          continue;
        }
        seenDirs.set(real, rel);
        if (stopAt && (await stopAt(path))) yield { type: 'folder', path, rel };
        else yield* inside(path, real, rel);
      } else if (isFile) {
        const first = seenFiles.get(real);
        if (first !== undefined) {
          yield { type: 'skip', rel, reason: `same file as ${first}, already read` };
          continue;
        }
        seenFiles.set(real, rel);
        yield { type: 'file', path, rel, real };
      } else {
        yield { type: 'skip', rel, reason: 'not a file or folder' };
      }
    }
  }
  yield* inside(root, realRoot, '');
}
