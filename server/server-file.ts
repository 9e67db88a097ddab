import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';

/**
 * `<data dir>/server.json`: where the server that owns this data dir listens, and the secret it proves
 * itself with. Clients given no URL find the server here instead of assuming port 7821, which any
 * program of any user may hold (the desktop app moves to a free port when it is taken); and before they
 * send a key they ask the server for an HMAC of their nonce under this secret (identityProof), which
 * only the server that wrote the file (or this user, who can read it) can give.
 */
export const serverFileName = 'server.json';

export interface ServerFile {
  /** The API's base, ending in /v1, as the listening line prints it. */
  url: string;
  pid: number;
  /** Random per start, base64url: never sent, only used as the HMAC key. */
  secret: string;
  started_at: string;
}

export const serverFilePath = (dataDir: string) => join(dataDir, serverFileName);

/** A fresh per-start secret (32 random bytes, base64url). */
export const newServerSecret = () => randomBytes(32).toString('base64url');

/**
 * Writes the server file whole (a draft renamed into place, so a client never reads half of one),
 * owner-only from its creation. Returns what removes it again on a clean stop: only while it is still
 * this server's (a later server on the same dir may have written its own).
 */
export function writeServerFile(dataDir: string, file: ServerFile): () => void {
  const path = serverFilePath(dataDir);
  const content = `${JSON.stringify(file)}\n`;
  const draft = `${path}.${process.pid}.tmp`;
  try {
    // A draft a crashed start with this same pid left goes first: 'wx' then makes the file anew, so
    // its mode is owner-only from the first byte (a mode given to an existing file is not applied).
    unlinkQuietly(draft);
    writeFileSync(draft, content, { mode: 0o600, flag: 'wx' });
    renameSync(draft, path);
  } catch (e) {
    unlinkQuietly(draft);
    throw e;
  }
  let removed = false;
  return () => {
    if (removed) return;
    removed = true;
    try {
      if (readFileSync(path, 'utf8') === content) unlinkSync(path);
    } catch {
      // Already gone.
    }
  };
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Not there.
  }
}

/** What a client made of one data dir's server file. */
export type ServerFileRead =
  | { kind: 'found'; path: string; file: ServerFile }
  | { kind: 'absent'; path: string }
  /** Its server is gone (its pid is not running): a crash or a kill left it behind. */
  | { kind: 'stale'; path: string }
  /** There, but not to be trusted or not readable: `why` says which. */
  | { kind: 'untrusted'; path: string; why: string };

/**
 * Reads DATA_DIR's server file as a client: only a regular file of this user's that no other user can
 * read or write (a secret others can read proves nothing, and a file others can write could name any
 * server), in a dir no other user can write to (they could put another file in its place).
 */
export function readServerFile(
  dataDir: string,
  uid: number | undefined = process.getuid?.(),
): ServerFileRead {
  const path = serverFilePath(dataDir);
  // A data dir given as a symlink (or under one: macOS's /var) is the dir it points to, as the server
  // takes it (secure-data-dir.ts): its owner and mode are the real dir's, not the link's 0777.
  let realDir: string;
  try {
    realDir = realpathSync(dataDir);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'absent', path };
    return { kind: 'untrusted', path, why: `its directory cannot be read (${code ?? (e as Error).message})` };
  }
  const realPath = serverFilePath(realDir);
  // Opened once, and everything after is asked of that descriptor: checks by path and then a read by
  // path let whoever can rename a dir on the way put another file in its place between the two.
  // O_NOFOLLOW refuses a link as the file itself (ELOOP); where the platform lacks it, lstat says so.
  // O_NONBLOCK: a FIFO put there would otherwise hold the open until someone writes to it.
  const noFollow = constants.O_NOFOLLOW as number | undefined;
  let fd: number;
  try {
    if (noFollow === undefined && lstatSync(realPath).isSymbolicLink())
      return { kind: 'untrusted', path, why: 'it is not a regular file' };
    fd = openSync(realPath, constants.O_RDONLY | (noFollow ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'absent', path };
    if (code === 'ELOOP') return { kind: 'untrusted', path, why: 'it is not a regular file' };
    return { kind: 'untrusted', path, why: `it cannot be read (${code ?? (e as Error).message})` };
  }
  let text: string;
  try {
    const refused = openedFileProblem(fd, dataDir, realDir, uid);
    if (refused !== null) return { kind: 'untrusted', path, why: refused };
    text = readFileSync(fd, 'utf8');
  } catch (e) {
    return { kind: 'untrusted', path, why: `it cannot be read (${(e as Error).message})` };
  } finally {
    closeSync(fd);
  }
  let file: ServerFile;
  try {
    file = JSON.parse(text) as ServerFile;
  } catch (e) {
    return { kind: 'untrusted', path, why: `it cannot be read (${(e as Error).message})` };
  }
  if (
    typeof file !== 'object' ||
    file === null ||
    typeof file.url !== 'string' ||
    !Number.isInteger(file.pid) ||
    file.pid <= 0 ||
    typeof file.secret !== 'string' ||
    file.secret.length < 32
  )
    return { kind: 'untrusted', path, why: 'it is not a server file of Mnemo (url, pid, secret)' };
  if (!processAlive(file.pid)) return { kind: 'stale', path };
  return { kind: 'found', path, file };
}

/**
 * Why the server file open as FD is not to be trusted, or null: it must be a regular file of UID's that
 * no other user can read or write, in a dir no other user can write to. The file's own checks are of
 * the descriptor (fstat), so they hold for what is read; the dir's are by path (a link's owner too).
 */
function openedFileProblem(
  fd: number,
  dataDir: string,
  realDir: string,
  uid: number | undefined,
): string | null {
  const st = fstatSync(fd);
  if (!st.isFile()) return 'it is not a regular file';
  if (uid === undefined) return null;
  if (st.uid !== uid) return `it belongs to another user (uid ${st.uid})`;
  if ((st.mode & 0o077) !== 0)
    return `other users can read or change it (mode 0${(st.mode & 0o777).toString(8)})`;
  try {
    // The link itself too: another user's link (in a shared dir) is theirs to point elsewhere.
    const link = lstatSync(dataDir);
    if (link.isSymbolicLink() && link.uid !== uid && link.uid !== 0)
      return `its directory is another user's link (uid ${link.uid})`;
    const dir = lstatSync(realDir);
    if (dir.uid !== uid && dir.uid !== 0) return `its directory belongs to another user (uid ${dir.uid})`;
    if ((dir.mode & 0o022) !== 0)
      return `other users can write to its directory (mode 0${(dir.mode & 0o777).toString(8)})`;
  } catch (e) {
    return `its directory cannot be read (${(e as Error).message})`;
  }
  return null;
}

/**
 * The answer to a client's nonce: HMAC-SHA256 under the server's secret of the nonce and the Host the
 * request was sent to. With the Host in it, a program on another port cannot pass on a client's nonce
 * to the real server and hand its answer back: the real server only answers requests addressed to its
 * own port (the Host guard), so the answer names that port, not the one the client dialed.
 */
export function identityProof(secret: string, host: string, nonce: string): string {
  return createHmac('sha256', secret)
    .update(`mnemo-local-identity-v1\n${host.toLowerCase()}\n${nonce}`)
    .digest('base64url');
}

/** Whether PROOF is identityProof(secret, host, nonce), compared in constant time. */
export function proofHolds(secret: string, host: string, nonce: string, proof: unknown): boolean {
  if (typeof proof !== 'string') return false;
  const want = Buffer.from(identityProof(secret, host, nonce));
  const got = Buffer.from(proof);
  return got.length === want.length && timingSafeEqual(got, want);
}

/** Whether a process with that id runs on this machine (EPERM: it does, as another user). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
