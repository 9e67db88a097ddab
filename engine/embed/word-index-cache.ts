import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync } from 'node:fs';
import { readFully, replaceFile } from './cache-file.ts';
import { wordIndexFromLines, wordIndexFromParts, type WordIndex, type WordIndexParts } from './word-index.ts';

/**
 * The GloVe table's word index, kept beside the table's cache: building it hashes and places 341,479
 * words, ~0.1 CPU s at every start; reading it back is ~9.8 MB. A kept index is used only when its
 * SHA-256 covers the words given and the arrays read (so for the same words, and undamaged: a table with
 * every slot taken would be probed forever for an unknown word), and for the same layout
 * (`indexVersion`: raise it with any change to how word-index.ts hashes or probes). Native SHA-256 of
 * the 13 MB costs ~9 ms here; a check in JavaScript of the slots and words, ~40.
 */
const MAGIC = 0x4d4e4749; // "MNGI"
const indexVersion = 2;
const fields = 6; // magic, version, words, slots, named slots, words' bytes
const headerBytes = 4 * fields + 32;

const bytesOf = (a: Uint32Array | Int32Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** The digest a kept index carries: of the words, then the arrays as written. */
function digest(lines: Uint8Array, p: Pick<WordIndexParts, 'starts' | 'table' | 'ranks'>): Buffer {
  return createHash('sha256')
    .update(lines)
    .update(bytesOf(p.starts))
    .update(bytesOf(p.table))
    .update(bytesOf(p.ranks))
    .digest();
}

/** The index of `count` words given as UTF-8 lines, read from `file` when it holds theirs, else built and kept there. */
export function cachedWordIndex(file: string, lines: Uint8Array, count: number): WordIndex {
  const kept = keptWordIndex(file, lines, count);
  if (kept) return kept;
  const index = wordIndexFromLines(lines, count);
  try {
    const parts = index.parts();
    const header = Buffer.alloc(headerBytes);
    const values = [MAGIC, indexVersion, count, parts.table.length, parts.size, lines.length];
    values.forEach((v, i) => header.writeUInt32LE(v, 4 * i));
    digest(parts.bytes, parts).copy(header, 4 * fields);
    replaceFile(file, [header, bytesOf(parts.starts), bytesOf(parts.table), bytesOf(parts.ranks)]);
  } catch {
    // Built again next time.
  }
  return index;
}

/** The index kept in `file` for these words, or null when it holds no valid one (nothing is written). */
export function keptWordIndex(file: string, lines: Uint8Array, count: number): WordIndex | null {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return null;
  }
  try {
    const header = Buffer.alloc(headerBytes);
    if (!readFully(fd, header, 0)) return null;
    const [magic, version, words, slots, size, length] = Array.from({ length: fields }, (_, i) =>
      header.readUInt32LE(4 * i),
    ) as [number, number, number, number, number, number];
    if (magic !== MAGIC || version !== indexVersion || words !== count || length !== lines.length)
      return null;
    if (fstatSync(fd).size !== headerBytes + 4 * (count + 1) + 8 * slots) return null;
    const parts = {
      starts: new Uint32Array(count + 1),
      table: new Int32Array(slots),
      ranks: new Int32Array(slots),
    };
    let at = headerBytes;
    for (const a of [parts.starts, parts.table, parts.ranks]) {
      if (!readFully(fd, bytesOf(a), at)) return null;
      at += a.byteLength;
    }
    if (!digest(lines, parts).equals(header.subarray(4 * fields))) return null;
    return wordIndexFromParts({ bytes: lines, ...parts, size });
  } finally {
    closeSync(fd);
  }
}
