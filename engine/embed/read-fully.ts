import { readSync } from 'node:fs';

/** Fills `target` from the file at byte `at`; false when the file ends first. */
export function readFully(fd: number, target: Uint8Array, at: number): boolean {
  for (let done = 0; done < target.length;) {
    const n = readSync(fd, target, done, target.length - done, at + done);
    if (n === 0) return false;
    done += n;
  }
  return true;
}
