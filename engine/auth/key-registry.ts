import { randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { KeyProject } from '../contract/key.ts';
import { MnemoError } from '../errors/mnemo-error.ts';
import type { KeyRecord, KeyRegistryPort } from '../ports/key-registry.ts';
import { newId } from '../ids.ts';
import { hashKey, parseApiKey } from './api-key.ts';
import { withFileLock } from './file-lock.ts';
import { allScopes, type Scope } from './scopes.ts';

/** One registry row: the port's key record (never the key itself), and the UI keys' data dir. */
export interface KeyEntry extends KeyRecord {
  /**
   * Only on a key a server minted for its own UI (the /ui/session exchange, the desktop shell's
   * window): the real path of the data dir that server had open. Such a key lives as long as that
   * server; one a crash left active is revoked by the next server to take that data dir. Absent on
   * every other key, and on every key written before the field existed (version 1 either way).
   */
  session_of?: string;
}

interface RegistryFile {
  version: 1;
  keys: KeyEntry[];
}

export interface NewKey {
  env: 'test' | 'live';
  project: string;
  /** Absent: all six. Never empty: a key with no scope is a mistake, not a request for all. */
  scopes?: Scope[] | undefined;
  brain?: string | null | undefined;
  label?: string | null | undefined;
  admin?: boolean | undefined;
  /** The data dir of the server minting a key for its own UI (KeyEntry.session_of). */
  sessionOf?: string | undefined;
}

/**
 * The key registry of a local install: a JSON file of hashes, read again whenever it changes on disk, so
 * a revocation by `mnemo keys revoke` in another process takes effect on the next request without a
 * restart. Every change is a read-modify-write under a lock file, as the server and the CLI both write
 * it. The file is read and written synchronously within each call: when a call's promise settles, the
 * file says what it did (a revoke is on disk before its caller hears of it).
 */
export class FileKeyRegistry implements KeyRegistryPort {
  private cache: { mtimeMs: number; size: number; file: RegistryFile } | null = null;

  constructor(readonly path: string) {}

  /** Creates an empty registry file (mode 0600) if none exists. */
  static ensure(path: string): FileKeyRegistry {
    const registry = new FileKeyRegistry(path);
    if (existsSync(path)) return registry;
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    // Under the lock, so a registry another process just created (and wrote a key to) is never reset.
    withFileLock(path, () => {
      if (!existsSync(path)) registry.write({ version: 1, keys: [] });
    });
    return registry;
  }

  /** The key with this hash, revoked or not; throws key_registry_unreadable when the file cannot be read. */
  async byHash(hash: string): Promise<KeyEntry | null> {
    const wanted = Buffer.from(hash, 'hex');
    for (const entry of this.read().keys) {
      const stored = Buffer.from(entry.hash, 'hex');
      if (stored.length === wanted.length && timingSafeEqual(stored, wanted)) return entry;
    }
    return null;
  }

  async list(): Promise<KeyEntry[]> {
    return this.read().keys;
  }

  /** Mints a key and stores its hash; returns the secret, which exists only in this return value. */
  async create(spec: NewKey): Promise<{ key: string; record: KeyEntry }> {
    const { key, entry } = mintKey(spec);
    this.update((keys) => [...keys, entry]);
    return { key, record: entry };
  }

  /**
   * Revokes by the whole key or by registry id. Returns the entry, or null when it is not in the registry
   * or `within` excludes it (then nothing is written: to the caller it does not exist).
   */
  async revoke(keyOrId: string, within: (e: KeyEntry) => boolean = () => true): Promise<KeyEntry | null> {
    const parsed = parseApiKey(keyOrId);
    const hash = parsed ? hashKey(keyOrId) : null;
    let found: KeyEntry | null = null;
    this.update((keys) => {
      const next = keys.map((e) => {
        if ((e.id !== keyOrId && e.hash !== hash) || !within(e)) return e;
        found = e.revoked_at ? e : { ...e, revoked_at: new Date().toISOString() };
        return found;
      });
      return found ? next : null;
    });
    return found;
  }

  /**
   * Revokes the UI session keys still active that a server on `dataDir` minted (KeyEntry.session_of).
   * Only for the server that has just taken that data dir's lock: no other server on it is running, so
   * every such key was left by one that stopped without revoking it (a crash, kill -9, a power loss).
   * Keys of servers on other data dirs sharing this registry are not touched. Returns those revoked.
   */
  async revokeSessionsOf(dataDir: string): Promise<KeyEntry[]> {
    const revoked: KeyEntry[] = [];
    const now = new Date().toISOString();
    this.update((keys) => {
      const next = keys.map((e) => {
        if (e.session_of !== dataDir || e.revoked_at) return e;
        const entry = { ...e, revoked_at: now };
        revoked.push(entry);
        return entry;
      });
      return revoked.length > 0 ? next : null;
    });
    return revoked;
  }

  /** One read-modify-write under the lock; `change` returns null when there is nothing to write. */
  private update(change: (keys: KeyEntry[]) => KeyEntry[] | null): void {
    this.read(); // a missing or corrupt registry is key_registry_unreadable, before any lock file is made
    withFileLock(this.path, () => {
      this.cache = null;
      const keys = change(this.read().keys);
      if (keys) this.write({ version: 1, keys });
    });
  }

  private read(): RegistryFile {
    try {
      const st = statSync(this.path);
      if (this.cache && this.cache.mtimeMs === st.mtimeMs && this.cache.size === st.size)
        return this.cache.file;
      const file = JSON.parse(readFileSync(this.path, 'utf8')) as RegistryFile;
      if (file.version !== 1 || !Array.isArray(file.keys)) throw new Error('unknown registry format');
      this.cache = { mtimeMs: st.mtimeMs, size: st.size, file };
      return file;
    } catch (e) {
      // The message goes to API clients, unauthenticated ones included: it names the file by its name
      // and the kind of failure, never the path or a byte of the file (a parser's message quotes it).
      // The full story rides along as the cause, for whoever runs this process (the CLI prints it).
      const err = new MnemoError(
        'key_registry_unreadable',
        `The key registry ${basename(this.path)} could not be read: ${failureKind(e)}.`,
      );
      err.cause = new Error(`${this.path}: ${(e as Error).message}`);
      throw err;
    }
  }

  private write(file: RegistryFile): void {
    const tmp = `${this.path}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
    renameSync(tmp, this.path);
    this.cache = null;
  }
}

/**
 * A new key and its registry entry (hash, prefix, last four, never the key), for every registry to
 * store; refuses a project that cannot be one part of a key and an empty scope list.
 */
export function mintKey(spec: NewKey): { key: string; entry: KeyEntry } {
  const project = KeyProject.safeParse(spec.project);
  if (!project.success) {
    throw new MnemoError('invalid_request_body', `project: ${project.error.issues[0]!.message}`);
  }
  if (spec.scopes?.length === 0) {
    throw new MnemoError('invalid_request_body', 'scopes: name at least one scope (or leave it out for all)');
  }
  const secret = randomBytes(24).toString('base64url').replace(/[-_]/g, 'x');
  const key = `sk_${spec.env}_${spec.project}_${secret}`;
  const parsed = parseApiKey(key)!;
  const entry: KeyEntry = {
    id: newId('key'),
    hash: hashKey(key),
    prefix: parsed.prefix,
    last4: parsed.last4,
    scopes: spec.scopes ? [...spec.scopes] : [...allScopes],
    brain: spec.brain ?? null,
    label: spec.label ?? null,
    admin: spec.admin ?? false,
    created_at: new Date().toISOString(),
    revoked_at: null,
    ...(spec.sessionOf !== undefined ? { session_of: spec.sessionOf } : {}),
  };
  return { key, entry };
}

function failureKind(e: unknown): string {
  if (e instanceof SyntaxError) return 'it is not valid JSON';
  switch ((e as NodeJS.ErrnoException).code) {
    case 'ENOENT':
      return 'it does not exist';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'it is a directory';
    case undefined:
      return 'it is not a key registry';
    default:
      return (e as NodeJS.ErrnoException).code!;
  }
}
