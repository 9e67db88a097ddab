import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { newStoreKey } from '../engine/index.ts';

/** The parts of Electron's `safeStorage` this module uses (a fake stands in for it in tests). */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only: which secret store backs safeStorage; `basic_text` means none (a fixed key). */
  getSelectedStorageBackend?(): string;
}

export interface DbKey {
  key: string;
  /** Plain-language warning for the window, or null when the OS keychain protects the key. */
  warning: string | null;
}

const plainWarning =
  'Your memory database key is not protected by a system keychain on this computer, so anyone who can read your files can open the database. Install and unlock a keychain (for example GNOME Keyring or KWallet), then restart Mnemo.';

/**
 * Loads the database key from `file`, or creates one. The file holds the key encrypted by the OS
 * keychain through safeStorage ("enc:" + base64); where no keychain exists it holds the key as text
 * ("plain:"), readable only by the user, and a visible warning says so.
 */
export function loadOrCreateDbKey(file: string, safe: SafeStorageLike, newKey = newStoreKey): DbKey {
  const encrypting = safe.isEncryptionAvailable();
  const backend = safe.getSelectedStorageBackend?.();
  const weak = !encrypting || backend === 'basic_text';
  const warning = weak ? plainWarning : null;

  if (existsSync(file)) {
    const stored = readFileSync(file, 'utf8').trim();
    if (stored.startsWith('enc:')) {
      if (!encrypting)
        throw new Error('The database key is in the system keychain, which is not available right now.');
      return { key: safe.decryptString(Buffer.from(stored.slice(4), 'base64')), warning };
    }
    if (stored.startsWith('plain:')) {
      const key = stored.slice(6);
      // A keychain has appeared since: move the key into it.
      if (!weak) write(file, `enc:${safe.encryptString(key).toString('base64')}`);
      return { key, warning };
    }
    throw new Error(`The database key file ${file} is not in a format Mnemo wrote.`);
  }

  const key = newKey();
  write(file, encrypting ? `enc:${safe.encryptString(key).toString('base64')}` : `plain:${key}`);
  return { key, warning };
}

function write(file: string, content: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, content + '\n', { mode: 0o600 });
}
