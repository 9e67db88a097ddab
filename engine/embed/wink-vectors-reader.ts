import { closeSync, openSync, readSync } from 'node:fs';

/** What precedes the vectors in the file. */
export interface WinkHeader {
  dimensions: number;
  words: string[];
}

const defaultWindowBytes = 8 << 20;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

class Window {
  buf: Buffer;
  /** Bytes [0, end) of buf hold the file from `base`; `at` is the reader's place in buf. */
  end = 0;
  at = 0;
  base = 0;
  eof = false;

  constructor(
    private readonly fd: number,
    bytes: number,
  ) {
    this.buf = Buffer.alloc(bytes);
  }

  /** Makes `room` bytes from `at` readable, or all that is left of the file. */
  ensure(room: number): void {
    if (this.end - this.at >= room || this.eof) return;
    this.buf.copy(this.buf, 0, this.at, this.end);
    this.base += this.at;
    this.end -= this.at;
    this.at = 0;
    while (this.end < this.buf.length) {
      const n = readSync(this.fd, this.buf, this.end, this.buf.length - this.end, this.base + this.end);
      if (n === 0) {
        this.eof = true;
        break;
      }
      this.end += n;
    }
  }

  /** Doubles the window, filling it on from what it held. */
  grow(): void {
    const bigger = Buffer.alloc(this.buf.length * 2);
    this.buf.copy(bigger, 0, 0, this.end);
    this.buf = bigger;
    this.ensure(bigger.length);
  }

  skipSpace(): void {
    for (;;) {
      while (this.at < this.end && isSpace(this.buf[this.at]!)) this.at++;
      if (this.at < this.end || this.eof) return;
      this.ensure(1);
    }
  }

  /** The byte at `at` after white space, or -1 at the file's end. */
  peek(): number {
    this.skipSpace();
    return this.at < this.end ? this.buf[this.at]! : -1;
  }

  expect(byte: number): void {
    if (this.peek() !== byte)
      throw new Error(
        `word vectors file: expected '${String.fromCharCode(byte)}' at byte ${this.base + this.at}`,
      );
    this.at++;
  }

  /** Whether the last string `stringEnd` passed over held an escape. */
  escaped = false;

  /** The end of the string opening at `from` (its closing quote), or -1 if the window ends first. */
  stringEnd(from: number): number {
    this.escaped = false;
    for (let i = from + 1; i < this.end; i++) {
      const b = this.buf[i]!;
      if (b === BACKSLASH) {
        this.escaped = true;
        i++;
      } else if (b === QUOTE) return i;
    }
    return -1;
  }
}

/**
 * Where the top-level "vectors" key starts, the window grown until it holds it; null if the object
 * has none.
 */
function headerEnd(w: Window): number | null {
  for (;;) {
    const at = findVectorsKey(w);
    if (at !== 'more') return at;
    if (w.eof) return null;
    w.grow();
  }
}

/** Where the window's top-level "vectors" key starts, 'more' if the window ends first, or null. */
function findVectorsKey(w: Window): number | 'more' | null {
  let depth = 0;
  for (let i = 0; i < w.end; i++) {
    const b = w.buf[i]!;
    if (b === QUOTE) {
      const close = w.stringEnd(i);
      if (close < 0) return 'more';
      if (depth === 1 && close - i === 8 && w.buf.toString('latin1', i, close + 1) === '"vectors"') return i;
      i = close;
    } else if (b === OPEN_BRACE || b === OPEN_BRACKET) depth++;
    else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
      depth--;
      if (depth === 0) return null;
    }
  }
  return 'more';
}

/**
 * Reads wink-embeddings' JSON (`{…, "dimensions": 100, "words": [...], "vectors": {"word": [...], …}}`)
 * a window at a time. `JSON.parse` of the whole 307 MB file held ~1.1 GB at its peak (the text, then a
 * JS array of doubles per word), on the first start of every install; this holds the window, the header
 * and what `onVector` keeps. Everything before "vectors" (the header with the word list, ~4 MB) is
 * parsed by `JSON.parse`; each vector's key and numbers are read from the bytes. A file whose "vectors"
 * come before its "words" or "dimensions" is not this shape: the caller parses it whole.
 *
 * Calls `onVector` with each vector's key (its UTF-8 bytes in `bytes[from, to)`, valid during the call)
 * and its first `dimensions` numbers, after `onHeader`. False when the file is not of this shape
 * (neither was called then).
 */
export function readWinkVectors(
  path: string,
  onHeader: (header: WinkHeader) => void,
  onVector: (bytes: Uint8Array, from: number, to: number, values: Float64Array) => void,
  windowBytes = defaultWindowBytes,
): boolean {
  const fd = openSync(path, 'r');
  try {
    const w = new Window(fd, windowBytes);
    w.ensure(w.buf.length);
    const keyAt = headerEnd(w);
    // Room for any one entry (a key and 102 numbers: ~1 KB in the packaged file).
    const entryRoom = w.buf.length >> 1;
    if (keyAt === null) return false;
    // The header is the object up to the key, its trailing comma closed as the object's end.
    const prefix = w.buf.toString('utf8', 0, keyAt).replace(/,\s*$/u, '');
    const header = JSON.parse(`${prefix}}`) as Partial<WinkHeader>;
    if (typeof header.dimensions !== 'number' || !Array.isArray(header.words)) return false;
    const dims = header.dimensions;
    onHeader({ dimensions: dims, words: header.words });
    w.at = keyAt + '"vectors"'.length;
    w.expect(COLON);
    w.expect(OPEN_BRACE);
    const values = new Float64Array(dims);
    const encoder = new TextEncoder();
    for (let first = true; ; first = false) {
      w.ensure(entryRoom);
      if (w.peek() === CLOSE_BRACE) break;
      if (!first) w.expect(COMMA);
      w.ensure(entryRoom);
      if (w.peek() !== QUOTE) w.expect(QUOTE);
      const close = w.stringEnd(w.at);
      if (close < 0) throw new Error(`word vectors file: a key runs past byte ${w.base + w.end}`);
      const keyFrom = w.at + 1;
      const escaped = w.escaped;
      w.at = close + 1;
      w.expect(COLON);
      w.expect(OPEN_BRACKET);
      const listEnd = w.buf.indexOf(CLOSE_BRACKET, w.at);
      if (listEnd < 0 || listEnd >= w.end)
        throw new Error(`word vectors file: a vector runs past byte ${w.base + w.end}`);
      const numbers = w.buf.toString('latin1', w.at, listEnd).split(',');
      if (numbers.length < dims)
        throw new Error(`word vectors file: a vector of ${numbers.length} numbers, not ${dims}`);
      for (let d = 0; d < dims; d++) {
        values[d] = Number(numbers[d]);
        if (Number.isNaN(values[d]))
          throw new Error(`word vectors file: '${numbers[d]}' is not a number (byte ${w.base + w.at})`);
      }
      if (escaped) {
        const key = encoder.encode(JSON.parse(w.buf.toString('utf8', keyFrom - 1, close + 1)) as string);
        onVector(key, 0, key.length, values);
      } else onVector(w.buf, keyFrom, close, values);
      w.at = listEnd + 1;
    }
    return true;
  } finally {
    closeSync(fd);
  }
}
