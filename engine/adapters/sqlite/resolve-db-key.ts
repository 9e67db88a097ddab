import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { storeFileName } from './store-file-name.ts';

export interface ResolveDbKeyOptions {
  env?: Record<string, string | undefined>;
  /** --db-key-file: a file holding the key (its trimmed text). */
  dbKeyFile?: string | undefined;
  /** Where a generated key file lives; default $XDG_CONFIG_HOME/mnemo or ~/.config/mnemo. */
  configDir?: string | undefined;
  /**
   * false: finding no key is an error, not a reason to make one (reading a store that exists, whose
   * key a new one cannot be). Default true.
   */
  create?: boolean;
  /**
   * The data dir the key is for. A store already in it was made with a key a new one cannot be, so
   * finding none is an error naming the store rather than a reason to make one.
   */
  dataDir?: string | undefined;
}

export interface ResolvedDbKey {
  key: string;
  source: 'env' | 'file' | 'generated' | 'config';
  /** The key file used or created (not for 'env'). */
  path?: string;
  /**
   * What the caller should warn of, in its own voice (the server's log, a command's stderr): a key
   * file other users can read or change.
   */
  warning?: string;
}

/** The per-user config directory for the key file: never the data directory. */
export function defaultConfigDir(
  env: Record<string, string | undefined> = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  if (platform === 'darwin') return join(homedir(), 'Library', 'Preferences', 'Mnemo');
  if (platform === 'win32')
    return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Mnemo', 'config');
  const base =
    env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME.length > 0 ? env.XDG_CONFIG_HOME : join(homedir(), '.config');
  return join(base, 'mnemo');
}

/**
 * A new store key: 32 random bytes in hex behind SQLite3MultipleCiphers' `raw:` prefix, which has the
 * cipher take them as the key itself. A password KDF gives a key of full entropy nothing, and Argon2id
 * cost every connection (the engine's and its checkpoint worker's) ~130 ms of CPU and 19 MiB the
 * allocator kept: an idle server held ~30 MB more. A passphrase (MNEMO_DB_KEY, a key file a person
 * wrote) still goes through it, and a key made before keeps the derivation its store was made with.
 */
export function newStoreKey(): string {
  return `raw:${randomBytes(32).toString('hex')}`;
}

/**
 * Finds the headless database key: MNEMO_DB_KEY, else the --db-key-file, else `db.key` in the user's
 * config directory, created (newStoreKey, mode 0600) on first use; and where it came from (for a
 * startup log line). The key is never kept beside the database, so copying the data directory alone
 * does not copy the means to read it.
 */
export function locateDbKey(opts: ResolveDbKeyOptions = {}): ResolvedDbKey {
  const found = findDbKey(opts);
  const raw = rawKeyWarning(found);
  if (raw === null) return found;
  return { ...found, warning: found.warning === undefined ? raw : `${found.warning}; ${raw}` };
}

/**
 * A key written `raw:` that is not one: SQLite3MultipleCiphers takes a key as raw only after a
 * lower-case `raw:`, as 32 or 48 bytes written as themselves or as 64 or 96 hex digits; anything else
 * (RAW:…, raw:abc) is a passphrase, in silence, so neither the raw key its writer meant nor refused.
 * Said, not refused: a store made with it must still open.
 */
function rawKeyWarning(found: ResolvedDbKey): string | null {
  if (!/^raw:/iu.test(found.key)) return null;
  const body = found.key.slice(4);
  const raw =
    found.key.startsWith('raw:') &&
    (body.length === 32 || body.length === 48 || /^(?:[\da-f]{64}|[\da-f]{96})$/iu.test(body));
  if (raw) return null;
  const from = found.source === 'env' ? 'MNEMO_DB_KEY' : `the key file ${found.path ?? ''}`;
  return (
    `${from} starts with raw: but is not a lower-case raw: and 64 hex digits (a raw key's 32 bytes), so it is taken as ` +
    "a passphrase: stretched by the cipher's key derivation at each connection, not used as it is"
  );
}

function findDbKey(opts: ResolveDbKeyOptions): ResolvedDbKey {
  const env = opts.env ?? process.env;
  const fromEnv = env.MNEMO_DB_KEY;
  if (fromEnv !== undefined && fromEnv.length > 0) return { key: fromEnv, source: 'env' };
  if (opts.dbKeyFile) return { ...readKeyFile(opts.dbKeyFile), source: 'file', path: opts.dbKeyFile };
  const dir = opts.configDir ?? defaultConfigDir(env);
  const path = join(dir, 'db.key');
  if (keyFileThere(path)) return { ...readKeyFile(path), source: 'config', path };
  const store = opts.dataDir === undefined ? undefined : join(opts.dataDir, storeFileName);
  // A key made now could only be refused by that store as "wrong", hiding that its own key is missing,
  // and would stay behind in the config dir, where the store's own key has to go back.
  if (store !== undefined && existsSync(store))
    throw new Error(
      `no database key for the store ${store}: its key is not in ${path}, MNEMO_DB_KEY or --db-key-file. ` +
        'Put back the key it was made with (e.g. the db.key file from your backup), or set MNEMO_DB_KEY; ' +
        'a new key cannot read it, so none was made.',
    );
  if (opts.create === false)
    throw new Error(`no database key: set MNEMO_DB_KEY, pass --db-key-file, or put the key in ${path}`);
  const key = newStoreKey();
  // 'wx' fails if another process created it meanwhile: then read theirs instead of clobbering it.
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(path, `${key}\n`, { mode: 0o600, flag: 'wx' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST' && keyFileThere(path))
      return { ...readKeyFile(path), source: 'config', path };
    throw new Error(
      `cannot make the database key file ${path}: ${(e as Error).message}. Make ${dir} a folder this ` +
        'user can write, or give a key with MNEMO_DB_KEY or --db-key-file',
    );
  }
  chmodSync(path, 0o600);
  return { key, source: 'generated', path };
}

/**
 * Whether the key file is there. A folder that cannot be searched is not "no key": a key made in its
 * place would be refused by the store as wrong, or fail on the same folder with a bare EACCES.
 */
function keyFileThere(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return false;
    throw new Error(
      `cannot look for the database key file ${path}: ${(e as Error).message}. Make its folder readable by ` +
        'this user, or give the key with MNEMO_DB_KEY or --db-key-file',
    );
  }
}

/**
 * The key in a key file, and a warning when other users may read or change the file. Not Node's
 * `process.emitWarning`, which prints `(node:PID) Warning: …` and a `--trace-warnings` hint amid
 * Mnemo's own lines; the caller says it as it says its other warnings.
 */
function readKeyFile(path: string): { key: string; warning?: string } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8').trim();
  } catch (e) {
    throw new Error(`cannot read the database key file ${path}: ${(e as Error).message}`);
  }
  if (text.length === 0) throw new Error(`the database key file ${path} is empty`);
  const mode = statSync(path).mode;
  if (process.platform === 'win32' || (mode & 0o077) === 0) return { key: text };
  return {
    key: text,
    warning:
      `the database key file ${path} is open to other users (mode 0${(mode & 0o777).toString(8)}), and ` +
      `whoever reads it can read the store: chmod 600 ${path}`,
  };
}
