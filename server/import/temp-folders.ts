import { rmSync } from 'node:fs';

/** Temporary folders an import unpacked archives into, until it removes them itself. */
const held = new Set<string>();

/**
 * Holds DIR (a temporary folder of unpacked, private files) for `removeTempFolders`; the function
 * returned lets it go once the import has removed it. An import stopped by a signal never reaches its
 * own `finally`: what it had unpacked (a chat, a vault) was left in the system's temporary folder.
 */
export function holdTempFolder(dir: string): () => void {
  held.add(dir);
  return () => held.delete(dir);
}

/** Removes every folder held, at once: called as the process ends on a signal. */
export function removeTempFolders(): void {
  for (const dir of held) rmSync(dir, { recursive: true, force: true });
  held.clear();
}
