import { closeSync, openSync, readSync, renameSync, writeSync } from 'node:fs';
import { threadId } from 'node:worker_threads';

/** Fills `target` from the file at byte `at`; false when the file ends first. */
export function readFully(fd: number, target: Uint8Array, at: number): boolean {
  for (let done = 0; done < target.length;) {
    const n = readSync(fd, target, done, target.length - done, at + done);
    if (n === 0) return false;
    done += n;
  }
  return true;
}

/**
 * Writes a kept file whole or not at all: `parts` in order to a temporary file, then renamed over `file`.
 * The temporary one is named by process and thread, as two embedders of one process are two threads
 * that may keep the same file at once.
 */
export function replaceFile(file: string, parts: readonly Uint8Array[]): void {
  const tmp = `${file}.tmp-${process.pid}-${threadId}`;
  const fd = openSync(tmp, 'w');
  try {
    for (const part of parts)
      for (let done = 0; done < part.length;) done += writeSync(fd, part, done, part.length - done);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
}
