import { createHash } from 'node:crypto';
import { hostname, userInfo } from 'node:os';
import { basename, dirname } from 'node:path';
import type { ObjectAccept, ObjectPage } from '../../engine/contract/index.ts';
import { importerObjectType } from '../../engine/contract/importer-objects.ts';
import { itemDigest } from './forget-missing.ts';

/**
 * Which folders each device imported under one name, as the Brain records it (an importer Object,
 * `{source: 'folder', name, devices, places}`): digests only, so no path is listed to an agent or
 * synced. `devices`: the devices that named a folder so (digest of the device); `places`: each folder
 * so named on its device (digest of the device and the folder's real path).
 */
export interface FolderNameStore {
  /** What is recorded for NAME; null when nothing, or when it may not be read. */
  read(name: string): Promise<{ devices: string[]; places: string[] } | null>;
  /** Records NAME's devices and places (where the key may: a name not recorded only goes unrecorded). */
  write(name: string, value: { devices: string[]; places: string[] }): Promise<void>;
}

/** This device, as the records tell devices apart: its host name and the user importing. */
function thisDevice(): string {
  let user = '';
  try {
    user = userInfo().username;
  } catch {
    // No user name (a container without a passwd entry): the host alone tells this device.
  }
  return `${hostname()}\u0000${user}`;
}

/** The Object key NAME's record is kept under (a Slug holds no path). */
function folderNameKey(name: string): string {
  return `folder-${createHash('sha256').update(name).digest('hex').slice(0, 40)}`;
}

/** The chosen naming: the folder notes and files are named from, and the names taken by other folders. */
export interface FolderNaming {
  /**
   * The real folder whose contents' paths are their names ("Notes/todo.md" from the parent of Notes);
   * null: they are named by their real paths.
   */
  namedFrom: string | null;
  /** Names (`Notes/`) this device gave other folders: no note of this import is matched under them. */
  takenBy: string[];
}

/**
 * How the folder ROOT (real) is named: by its own name ("Notes"), as on every other device that holds a
 * copy of it, unless this device already gave that name to another folder (Work/Notes before
 * Home/Notes): then by as many of its last folders as tell it apart ("Home/Notes"). The name chosen is
 * recorded as this folder's. A store that cannot be read names every folder by its own name, as
 * uploads are named (docs/decisions/import-mcp.md, "Note identity").
 */
export async function nameFolder(
  root: string,
  store: FolderNameStore | undefined,
  device?: string,
): Promise<FolderNaming> {
  const takenBy: string[] = [];
  const dev = device ?? thisDevice();
  const me = itemDigest(dev);
  const here = itemDigest(`${dev}\u0000${root}`);
  let from = dirname(root);
  let name = basename(root);
  for (;;) {
    const held = store ? await store.read(name) : null;
    const mine = held !== null && held.devices.includes(me);
    if (!mine || held.places.includes(here)) {
      if (store && !held?.places.includes(here))
        await store.write(name, {
          devices: [...new Set([...(held?.devices ?? []), me])].sort(),
          places: [...new Set([...(held?.places ?? []), here])].sort(),
        });
      return { namedFrom: from, takenBy };
    }
    takenBy.push(`${name}/`);
    const up = dirname(from);
    // Every name up to the disk's root taken: named by its real path, which no other folder has.
    if (up === from) return { namedFrom: null, takenBy };
    name = `${basename(from)}/${name}`;
    from = up;
  }
}

/**
 * A FolderNameStore in the Brain's Objects, through listObjects (of the importer's type, read once) and
 * acceptObject of the API client. LIST answering null (a key that may not read Objects) holds nothing.
 */
export function folderNamesInObjects(
  list: (cursor: string | undefined) => Promise<ObjectPage | null>,
  accept: (body: ObjectAccept) => Promise<void>,
): FolderNameStore {
  const strings = (a: unknown) =>
    Array.isArray(a) ? a.filter((i): i is string => typeof i === 'string') : [];
  let recorded: Promise<Map<string, { devices: string[]; places: string[] }>> | null = null;
  const readAll = async () => {
    const out = new Map<string, { devices: string[]; places: string[] }>();
    let cursor: string | undefined;
    do {
      const page = await list(cursor);
      if (page === null) return out;
      for (const o of page.data) {
        const v = o.value as { source?: unknown; devices?: unknown; places?: unknown } | null;
        if (v?.source === 'folder')
          out.set(o.key, { devices: strings(v.devices), places: strings(v.places) });
      }
      cursor = page.has_more && page.next_cursor ? page.next_cursor : undefined;
    } while (cursor !== undefined);
    return out;
  };
  return {
    async read(name) {
      return (await (recorded ??= readAll())).get(folderNameKey(name)) ?? null;
    },
    write(name, { devices, places }) {
      return accept({
        type: importerObjectType,
        key: folderNameKey(name),
        value: { source: 'folder', name, devices, places },
      });
    },
  };
}
