import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  realpathSync,
  statSync,
  type Stats,
} from 'node:fs';
import { join } from 'node:path';

/** What Mnemo keeps at the top of a data dir, and what its owner needs at least (engine/adapters/sqlite, keys.json, tmp/). */
const ownEntries = new Map<string, number>([
  ['mnemo.db', 0o600],
  ['mnemo.db-wal', 0o600],
  ['mnemo.db-shm', 0o600],
  ['mnemo.db-journal', 0o600],
  ['keys.json', 0o600],
  ['keys.json.lock', 0o600],
  ['mnemo.lock', 0o600],
  ['mnemo.lock.json', 0o600],
  // Where the running server listens and its identity secret (server-file.ts).
  ['server.json', 0o600],
  // Plaintext copies of uploaded files while an import reads them.
  ['tmp', 0o700],
]);
/** Also Mnemo's, left at their mode: the downloaded embedding model is public data; Finder's index. */
const alsoOwn = new Set(['models', '.DS_Store']);
/**
 * Drafts renamed into place (`keys.json.<pid>.tmp`, `mnemo.lock.json.<pid>.tmp`, `server.json.<pid>.tmp`,
 * lock drafts), a
 * restore's draft and the store it replaced (`mnemo.db.restoring-<pid>`, `mnemo.db.replaced-<time>`),
 * and a running backup's note of its draft (`mnemo.backup-<pid>-<id>.json`).
 */
const ownDraft = (name: string) =>
  ['keys.json.', 'mnemo.lock.json.', 'server.json.', 'mnemo.db.', 'mnemo.backup-'].some((p) =>
    name.startsWith(p),
  );

export interface SecureReport {
  /** What was open to other users and is owner-only now: path and its mode before. */
  tightened: Array<{ path: string; was: number }>;
  /** What could not be made owner-only, and why (one line each). */
  warnings: string[];
}

/**
 * Makes a local engine's data dir and Mnemo's files in it owner-only (dir 0700, files 0600), plus
 * `extraFiles` (a registry or key file Mnemo made elsewhere), when another user could read or change them:
 * older versions and hand-made dirs left them 0755/0644. The store is encrypted, but `keys.json` (key
 * hashes; whoever can replace it chooses which keys work), `tmp/` (plaintext upload copies) and the
 * holder file are not.
 *
 * The dir itself is tightened only when it holds nothing but Mnemo's files: a dir shared with other
 * things (a home dir, `/srv`, `/tmp`, which root could otherwise lock everyone out of) keeps its mode,
 * with a warning. Symlinks are never followed. Nothing here throws: what cannot be changed (another
 * owner, a file system without Unix modes) is a warning, not a refusal to start. No-op on Windows.
 */
export function secureDataDir(dataDir: string | undefined, extraFiles: readonly string[] = []): SecureReport {
  const report: SecureReport = { tightened: [], warnings: [] };
  if (process.platform === 'win32') return report;
  for (const file of extraFiles) tighten(file, 0o600, report);
  if (dataDir === undefined) return report;
  let names: string[];
  let dirStat: Stats;
  try {
    dirStat = statSync(dataDir);
    names = readdirSync(dataDir);
  } catch {
    return report; // Not made yet: it will be, owner-only.
  }
  const foreign = names.filter((n) => !ownEntries.has(n) && !alsoOwn.has(n) && !ownDraft(n));
  for (const name of names) {
    const mode = ownEntries.get(name);
    if (mode === undefined) continue;
    // In a dir shared with other things, a `tmp/` or `keys.json` may well be theirs (`--data-dir /var`
    // would take /var/tmp's sticky bit): only the unmistakably named `mnemo.*` files are changed there.
    if (foreign.length > 0 && !name.startsWith('mnemo.')) continue;
    tighten(join(dataDir, name), mode, report);
  }
  if ((dirStat.mode & 0o077) !== 0) {
    // A data dir given as a symlink is the dir it points to.
    if (foreign.length === 0) tighten(realpathSync(dataDir), 0o700, report);
    else
      report.warnings.push(
        `the data directory ${dataDir} is open to other users (mode ${octal(dirStat.mode)}) and holds ` +
          `files that are not Mnemo's (${foreign.slice(0, 3).join(', ')}${foreign.length > 3 ? ', …' : ''}), so ` +
          `its mode is left as it is, and so are a tmp/ and keys.json in it (they may not be Mnemo's); ` +
          `its mnemo.* files are owner-only. Give Mnemo a directory of its ` +
          `own, or chmod 700 ${dataDir}`,
      );
  }
  return report;
}

/** The one stderr line saying what secureDataDir changed, or null when nothing was. */
export function tightenedLine(report: SecureReport): string | null {
  if (report.tightened.length === 0) return null;
  const what = report.tightened.map((t) => `${t.path} (was ${octal(t.was)})`).join(', ');
  return `made owner-only, as other users could read or change them: ${what}`;
}

function tighten(path: string, mode: number, report: SecureReport): void {
  let st: Stats;
  try {
    st = lstatSync(path);
  } catch {
    return;
  }
  // A symlink's target is not ours to change (chmod follows links: keys.json -> /etc/passwd).
  if (st.isSymbolicLink() || (!st.isFile() && !st.isDirectory())) return;
  if ((st.mode & 0o077) === 0) return;
  // A sticky dir (a shared tmp) or another user's file is not this process's to close, even as root.
  const uid = process.getuid?.();
  if ((st.mode & 0o1000) !== 0 || (uid !== undefined && st.uid !== uid)) {
    report.warnings.push(
      `${path} is open to other users (mode ${octal(st.mode)}) and is left as it is: ` +
        ((st.mode & 0o1000) !== 0 ? 'it is a shared (sticky) directory' : 'it belongs to another user'),
    );
    return;
  }
  try {
    // Through a descriptor opened without following links: a link swapped in since lstat is refused.
    const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    try {
      // The owner keeps what it had (and at least read-write, or rwx on a dir); nobody else keeps anything.
      fchmodSync(fd, (st.mode & 0o700) | mode);
      if ((fstatSync(fd).mode & 0o077) !== 0)
        throw new Error('its file system does not keep Unix permissions');
    } finally {
      closeSync(fd);
    }
    report.tightened.push({ path, was: st.mode & 0o777 });
  } catch (e) {
    report.warnings.push(
      `${path} is open to other users (mode ${octal(st.mode)}) and could not ` +
        `be made owner-only: ${(e as Error).message}`,
    );
  }
}

const octal = (mode: number) => `0${(mode & 0o777).toString(8)}`;

/**
 * Why a server must not start on this data dir, or null: the dir, or the key registry in it, belongs
 * to another user (neither this one nor root). Whoever can write the registry chooses which keys open
 * the store, and the server decrypts the store with this user's key for whoever it admits; the owner of
 * the dir can rename a registry of theirs over ours at any time, and a keys.json planted in a shared
 * dir (`--data-dir /tmp/mnemo`, made first by someone else) is theirs from the start. Tightening cannot
 * help (the file or dir is not ours to chmod), so this is a refusal, not a warning. Root running on a
 * user's dir (a container on a mounted volume) is the administrator's choice and is not refused.
 * Null on Windows.
 */
export function foreignDataDirProblem(
  dataDir: string | undefined,
  uid: number | undefined = process.getuid?.(),
): string | null {
  if (dataDir === undefined || uid === undefined || uid === 0) return null;
  const foreign = (path: string, follow: boolean): number | null => {
    let st: Stats;
    try {
      st = follow ? statSync(path) : lstatSync(path);
    } catch {
      return null; // Not there yet: Mnemo makes it, as this user.
    }
    return st.uid !== uid && st.uid !== 0 ? st.uid : null;
  };
  // A data dir given as a symlink is the dir it points to.
  const dirOwner = foreign(dataDir, true);
  if (dirOwner !== null)
    return (
      `the data directory ${dataDir} belongs to another user (uid ${dirOwner}), who could replace its ` +
      'keys.json and so choose which keys open this store: give Mnemo a directory of your own (--data-dir)'
    );
  const registry = join(dataDir, 'keys.json');
  // The link itself, and what it points to: either, if another user's, is theirs to write.
  const registryOwner = foreign(registry, false) ?? foreign(registry, true);
  if (registryOwner !== null)
    return (
      `the key registry ${registry} belongs to another user (uid ${registryOwner}): whoever writes it ` +
      'chooses which keys open this store. Remove it if you did not put it there, or give Mnemo a ' +
      'directory of your own (--data-dir)'
    );
  return null;
}
