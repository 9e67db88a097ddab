import { closeSync, fstatSync, openSync, renameSync, writeFileSync } from 'node:fs';
import { threadId } from 'node:worker_threads';
import { readFully } from './read-fully.ts';
import { wordIndexFromLines, wordIndexFromParts, type WordIndex } from './word-index.ts';

/**
 * The GloVe table's word index, kept beside the table's cache: building it hashes and places 341,479
 * words, ~0.1 CPU s at every start; reading it back is ~9 MB. A kept index is used only for the same
 * words (their count, length and checksum are in its header) and the same table layout
 * (`indexVersion`: raise it with any change to how word-index.ts hashes or probes).
 */
const MAGIC = 0x4d4e4749; // "MNGI"
const indexVersion = 1;
const headerBytes = 28;

/** FNV-1a over the words' bytes. */
function checksum(b: Uint8Array): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < b.length; i++) h = Math.imul(h ^ b[i]!, 0x01000193);
  return h >>> 0;
}

/** The index of `count` words given as UTF-8 lines, read from `file` when it holds theirs, else built and kept there. */
export function cachedWordIndex(file: string, lines: Uint8Array, count: number): WordIndex {
  const sum = checksum(lines);
  const kept = readIndex(file, lines, count, sum);
  if (kept) return kept;
  const index = wordIndexFromLines(lines, count);
  try {
    const { starts, table, ranks, size } = index.parts();
    const header = Buffer.alloc(headerBytes);
    for (const [i, v] of [MAGIC, indexVersion, count, table.length, size, lines.length, sum].entries())
      header.writeUInt32LE(v, 4 * i);
    const tmp = `${file}.tmp-${process.pid}-${threadId}`;
    writeFileSync(tmp, Buffer.concat([header, bytesOf(starts), bytesOf(table), bytesOf(ranks)]));
    renameSync(tmp, file);
  } catch {
    // Built again next time.
  }
  return index;
}

const bytesOf = (a: Uint32Array | Int32Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

function readIndex(file: string, lines: Uint8Array, count: number, sum: number): WordIndex | null {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return null;
  }
  try {
    const header = Buffer.alloc(headerBytes);
    if (!readFully(fd, header, 0)) return null;
    const [magic, version, words, slots, size, length, kept] = Array.from({ length: 7 }, (_, i) =>
      header.readUInt32LE(4 * i),
    );
    if (magic !== MAGIC || version !== indexVersion || words !== count || length !== lines.length)
      return null;
    if (kept !== sum || slots! & (slots! - 1) || slots! < count) return null;
    if (fstatSync(fd).size !== headerBytes + 4 * (count + 1) + 8 * slots!) return null;
    const starts = new Uint32Array(count + 1);
    const table = new Int32Array(slots!);
    const ranks = new Int32Array(slots!);
    let at = headerBytes;
    for (const a of [starts, table, ranks]) {
      if (!readFully(fd, bytesOf(a), at)) return null;
      at += a.byteLength;
    }
    if (starts[count] !== lines.length + 1 || !wellFormed(starts, table, ranks, count, size!)) return null;
    return wordIndexFromParts({ bytes: lines, starts, table, ranks, size: size! });
  } finally {
    closeSync(fd);
  }
}

/**
 * Whether kept arrays can be probed: every slot empty or naming a word, as many named as the header
 * says and at least one empty (a full table would be probed forever for an unknown word), and the
 * words' starts in order (each word ends with its newline).
 */
function wellFormed(starts: Uint32Array, table: Int32Array, ranks: Int32Array, count: number, size: number) {
  let used = 0;
  for (let s = 0; s < table.length; s++) {
    const r = table[s]!;
    if (r === -1) continue;
    if (r < 0 || r >= count || ranks[s]! < 0 || ranks[s]! >= count) return false;
    used++;
  }
  if (used !== size || used >= table.length || starts[0] !== 0) return false;
  for (let r = 0; r < count; r++) if (starts[r]! >= starts[r + 1]!) return false;
  return true;
}
