import { isUtf8 } from 'node:buffer';
import { createReadStream } from 'node:fs';
import { binaryHeadBytes, binaryText, c1AsWindows1252, headLooksBinary, wholeUtf8 } from './decode-text.ts';

/** A file's bytes, read afresh each time it is called: a file read in passes is opened once a pass. */
export type ByteSource = () => AsyncIterable<Uint8Array>;

/** The file at PATH, 1 MiB at a time (as mbox-split.ts reads a mailbox). */
export const fileBytes =
  (path: string, chunk = 2 ** 20): ByteSource =>
  () =>
    createReadStream(path, { highWaterMark: chunk });

/** What decodeText reads a file's bytes as, decided from all of them (textEncodingOf). */
export type TextEncoding = 'utf-8' | 'windows-1252' | 'utf-16le' | 'utf-16be';

const asBuffer = (b: Uint8Array) =>
  Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength);

/**
 * How decodeText would read the whole file, found in one pass that holds a chunk at a time: UTF-16 by
 * its byte order mark, else UTF-8 when every byte is, else Windows-1252. Refused as readText refuses
 * binary data (looksBinary), with the same message. `onBytes` hears the bytes read so far.
 */
export async function textEncodingOf(
  bytes: ByteSource,
  onBytes?: (n: number) => void,
): Promise<TextEncoding> {
  let head = Buffer.alloc(0);
  const utf8 = new Utf8Check();
  let read = 0;
  for await (const part of bytes()) {
    const chunk = asBuffer(part);
    read += chunk.length;
    onBytes?.(read);
    if (head.length < binaryHeadBytes) {
      head = Buffer.concat([head, chunk.subarray(0, binaryHeadBytes - head.length)]);
      if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
      if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
    }
    // Not UTF-8, and the head is read: nothing more to learn.
    if (!utf8.push(chunk) && head.length >= binaryHeadBytes) break;
  }
  const isUtf8 = utf8.end();
  if (headLooksBinary(head, () => isUtf8)) throw new Error(binaryText);
  return isUtf8 ? 'utf-8' : 'windows-1252';
}

/** Whether bytes arriving in chunks are UTF-8, a character cut by a chunk's end checked whole. */
class Utf8Check {
  #carry = Buffer.alloc(0);
  #valid = true;

  /** Whether the bytes are UTF-8 so far. */
  push(chunk: Buffer): boolean {
    if (!this.#valid) return false;
    const joined = this.#carry.length > 0 ? Buffer.concat([this.#carry, chunk]) : chunk;
    const whole = wholeUtf8(joined);
    this.#valid = isUtf8(whole);
    this.#carry = Buffer.from(joined.subarray(whole.length));
    return this.#valid;
  }

  end(): boolean {
    return this.#valid && this.#carry.length === 0;
  }
}

/**
 * How readFoldedText reads a calendar or vCard file, decided in passes that hold a chunk at a time:
 * as textEncodingOf says, except bytes that are not UTF-8 but are once their folds are taken out (a
 * writer folded inside a character), which are read unfolded, as UTF-8.
 */
export async function foldedTextOf(
  bytes: ByteSource,
): Promise<{ bytes: ByteSource; encoding: TextEncoding }> {
  const encoding = await textEncodingOf(bytes);
  if (encoding !== 'windows-1252') return { bytes, encoding };
  let folds = 0;
  const unfolded = unfoldedBytes(bytes, () => (folds += 1));
  const utf8 = new Utf8Check();
  for await (const chunk of unfolded()) if (!utf8.push(asBuffer(chunk))) break;
  return utf8.end() && folds > 0 ? { bytes: unfolded, encoding: 'utf-8' } : { bytes, encoding };
}

/**
 * The file's text in ENCODING (textEncodingOf), a chunk at a time, exactly as decodeText decodes the
 * whole: a byte order mark dropped, a character cut between chunks decoded whole.
 */
export async function* decodedText(bytes: ByteSource, encoding: TextEncoding): AsyncGenerator<string> {
  const decoder =
    encoding === 'windows-1252'
      ? null
      : // decodeText's: UTF-8 keeps a U+FEFF after the BOM it drops itself; UTF-16 drops one more.
        new TextDecoder(encoding, encoding === 'utf-8' ? { ignoreBOM: true } : {});
  const windows1252 = new TextDecoder('windows-1252');
  // The mark decodeText drops before decoding: up to three bytes, which may arrive in separate chunks.
  const markBytes = encoding === 'utf-16le' || encoding === 'utf-16be' ? 2 : 3;
  let start: Buffer | null = Buffer.alloc(0);
  for await (const part of bytes()) {
    let chunk = asBuffer(part);
    if (start !== null) {
      start = Buffer.concat([start, chunk]);
      if (start.length < markBytes) continue;
      chunk = withoutMark(start, encoding);
      start = null;
    }
    const text = decoder
      ? decoder.decode(chunk, { stream: true })
      : c1AsWindows1252(windows1252.decode(chunk));
    if (text) yield text;
  }
  if (start !== null && start.length > 0) {
    const rest = withoutMark(start, encoding);
    const text = decoder ? decoder.decode(rest, { stream: true }) : c1AsWindows1252(windows1252.decode(rest));
    if (text) yield text;
  }
  const last = decoder?.decode() ?? '';
  if (last) yield last;
}

function withoutMark(start: Buffer, encoding: TextEncoding): Buffer {
  if (encoding === 'utf-16le' || encoding === 'utf-16be') return start.subarray(2);
  return start[0] === 0xef && start[1] === 0xbb && start[2] === 0xbf ? start.subarray(3) : start;
}

/**
 * The lines of text arriving in chunks, as `text.split(/\r\n|\r|\n/)` splits the whole: a CRLF cut
 * between chunks is one line end, and the empty line after a final line end is a line too. Only the
 * line being read is held.
 */
export async function* textLines(chunks: AsyncIterable<string>): AsyncGenerator<string> {
  for await (const { line } of textLinesWithEnds(chunks)) yield line;
}

/** textLines, each line with the line end that followed it ("" for the last). */
export async function* textLinesWithEnds(
  chunks: AsyncIterable<string>,
): AsyncGenerator<{ line: string; end: string }> {
  let carry = '';
  for await (const chunk of chunks) {
    let text = carry + chunk;
    // A CR at the end may be the first half of a CRLF: it waits for the next chunk.
    const heldCr = text.endsWith('\r');
    if (heldCr) text = text.slice(0, -1);
    const parts = text.split(/(\r\n|\r|\n)/);
    carry = parts.pop()! + (heldCr ? '\r' : '');
    for (let i = 0; i < parts.length; i += 2) yield { line: parts[i]!, end: parts[i + 1]! };
  }
  const parts = carry.split(/(\r\n|\r|\n)/);
  for (let i = 0; i < parts.length; i += 2) yield { line: parts[i]!, end: parts[i + 1] ?? '' };
}

const isFoldSpace = (b: number | undefined) => b === 0x20 || b === 0x09;

/**
 * The bytes with every CRLF or LF followed by a space or tab taken out, with that space or tab (as
 * decode-text.ts's unfoldBytes does to a whole file), as they arrive: a line end that may begin a fold
 * waits for the byte after it. `onFold` hears each fold taken out.
 */
export function unfoldedBytes(bytes: ByteSource, onFold?: () => void): ByteSource {
  return async function* () {
    let held = Buffer.alloc(0);
    for await (const part of bytes()) {
      const buf = held.length > 0 ? Buffer.concat([held, asBuffer(part)]) : asBuffer(part);
      const out = Buffer.alloc(buf.length);
      let n = 0;
      let i = 0;
      for (; i < buf.length; i++) {
        const b = buf[i]!;
        if (b !== 0x0d && b !== 0x0a) {
          out[n++] = b;
          continue;
        }
        const lf = b === 0x0d ? (buf[i + 1] === 0x0a ? i + 1 : -1) : i;
        // A CR, CRLF or LF at the end: what follows decides.
        if ((b === 0x0d && i + 1 >= buf.length) || (lf >= 0 && lf + 1 >= buf.length)) break;
        if (lf >= 0 && isFoldSpace(buf[lf + 1])) {
          onFold?.();
          i = lf + 1;
          continue;
        }
        out[n++] = b;
      }
      held = Buffer.from(buf.subarray(i));
      if (n > 0) yield out.subarray(0, n);
    }
    if (held.length > 0) yield held;
  };
}

/**
 * S, as a string of its own. V8 keeps a long substring (a line split off a chunk, a regex's match) as
 * a view into the string it came from, so a line kept while a file is read would keep its whole chunk
 * of text, and kept lines all the file's: joined to a character and cut off again, the text is copied
 * (the join made flat) and the chunk let go.
 */
export const detached = (s: string): string => (s.length < 13 ? s : ` ${s}`.slice(1));
