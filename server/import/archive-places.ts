import { mkdtemp, realpath, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { errorMessage } from '../../engine/index.ts';
import {
  archiveFolderName,
  defaultZipLimits,
  eachZipLimits,
  unpackArchive,
  type ExpandedZip,
  type ZipLimits,
} from './expand-zip.ts';
import { holdTempFolder, makeTempFolder } from './temp-folders.ts';

/**
 * Archives a walk found inside a folder, each unpacked into a private temporary folder and read as if
 * it had been unpacked where it lies: `Exports/notes.zip` holding `loose/todo.md` is
 * `Exports/notes/loose/todo.md`, as the app's upload of the folder unpacks it in place. So its notes
 * are named under the folder imported (the same names again on the next import, in the scope of
 * `--forget-missing`), and a vault around it or inside it is found as on disk.
 */
export class ArchivePlaces {
  /** Each archive's temporary folder (real) and the folder it lies in (real). */
  private readonly places: { temp: string; at: string }[] = [];
  /** What each archive was unpacked as, by the archive's path as walked. */
  private readonly unpacked = new Map<string, string>();

  add(temp: string, at: string, archive: string, unpackedAs: string): void {
    this.places.push({ temp, at });
    this.unpacked.set(archive, unpackedAs);
  }

  get size(): number {
    return this.places.length;
  }

  /** REAL (a real path) where it would lie had each archive been unpacked in its folder. */
  where(real: string): string {
    for (const p of this.places) if (real.startsWith(p.temp + sep)) return join(p.at, relative(p.temp, real));
    return real;
  }

  /** The folder an archive's temporary folder stands in for: where a look upwards goes on (vaults). */
  above(dir: string): string | undefined {
    return this.places.find((p) => p.temp === dir)?.at;
  }

  /** What the archive at PATH (as walked) was unpacked as, when it was. */
  unpackedFrom(path: string): string | undefined {
    return this.unpacked.get(path);
  }
}

const sizeOf = (bytes: number) =>
  bytes >= 1024 ** 3 && bytes % 1024 ** 3 === 0 ? `${bytes / 1024 ** 3} GiB` : `${bytes} bytes`;

/** An archive found in a folder, unpacked, or why it was not. */
export type FoundArchive =
  { path: string; expanded: ExpandedZip } | { reason: string; blocksForgetting: boolean };

/**
 * Unpacks archives found while a folder is walked (planImport's `unpack`) into one private temporary
 * folder, each held to what an uploaded one is (eachZipLimits) and all together to what one archive
 * given to `mnemo import` may hold (defaultZipLimits: its bytes and its files), recording where each stands in (ArchivePlaces); `remove` deletes what was unpacked. An
 * archive that cannot be unpacked is a reason, never a failure of the import.
 */
export function archivesFound(
  limits: ZipLimits = eachZipLimits,
  maxBytes: number = defaultZipLimits.maxBytes,
  maxEntries: number = defaultZipLimits.maxEntries,
): {
  places: ArchivePlaces;
  unpack: (archive: string) => Promise<FoundArchive>;
  remove: () => Promise<void>;
} {
  const places = new ArchivePlaces();
  let base: Promise<string> | null = null;
  let release = () => {};
  let held = 0;
  // Entries written, in all (files and folders): empty ones hold no bytes, and a folder of archives of
  // 100,000 each could fill the temp folder's inodes.
  let files = 0;
  const standIns = new Set<string>();
  return {
    places,
    async unpack(archive) {
      base ??= makeTempFolder('mnemo-zips-').then((dir) => {
        release = holdTempFolder(dir);
        return dir;
      });
      // One folder each: two archives of one name in two folders never meet.
      const temp = await mkdtemp(join(await base, 'a-'));
      let mine = 0;
      let mineFiles = 0;
      const take = (bytes: number) => {
        if (held + bytes > maxBytes)
          throw new Error(
            `the archives in this folder would hold more than ${sizeOf(maxBytes)} unpacked ` +
              'together: unzip them and import the folders',
          );
        if (files + 1 > maxEntries)
          throw new Error(
            `the archives in this folder would hold more than ${maxEntries.toLocaleString('en')} files and folders ` +
              'together: unzip them and import the folders',
          );
        held += bytes;
        mine += bytes;
        files += 1;
        mineFiles += 1;
        limits.take?.(bytes);
      };
      const refuse = async (reason: string, blocksForgetting: boolean): Promise<FoundArchive> => {
        held -= mine;
        files -= mineFiles;
        await rm(temp, { recursive: true, force: true });
        return { reason, blocksForgetting };
      };
      let out;
      try {
        out = await unpackArchive(archive, temp, { ...limits, take });
      } catch (e) {
        // What it holds is unknown: nothing named under it may be taken for gone (forget-missing).
        return refuse(`not unpacked, so nothing in it was read: ${errorMessage(e)}`, true);
      }
      const at = await realpath(dirname(archive));
      const standsIn = join(at, basename(out.path));
      // Unzipped beside it already (or another archive here unpacks to that name): that folder is
      // what is read, and its notes are named as these would be.
      const beside = await stat(standsIn).then(
        () => true,
        () => false,
      );
      if (beside || standIns.has(standsIn))
        return refuse(
          `not unpacked: it would stand in for ${basename(out.path)}/ beside it, ` +
            (beside ? 'which is there and is read itself' : 'as another archive here does') +
            ` (unzip ${basename(archive)} elsewhere to import it too)`,
          // The folder beside it is read under the same names; another archive's notes are not these.
          !beside,
        );
      standIns.add(standsIn);
      places.add(await realpath(temp), at, archive, out.path);
      return out;
    },
    async remove() {
      if (base === null) return;
      await rm(await base, { recursive: true, force: true });
      release();
    },
  };
}

/** The name an archive's contents are reported under: the archive's, then what was hoisted out of it. */
export function foundArchiveName(name: string, archive: string, unpackedAs: string): string {
  return basename(unpackedAs) === archiveFolderName(archive) ? name : `${name}/${basename(unpackedAs)}`;
}
