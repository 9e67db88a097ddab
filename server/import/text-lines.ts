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
  let carry = Buffer.alloc(0);
  let utf8 = true;
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
    if (!utf8) {
      if (head.length >= binaryHeadBytes) break;
      continue;
    }
    // A character cut by the chunk's end is checked whole, with the next chunk.
    const joined = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
    const whole = wholeUtf8(joined);
    utf8 = isUtf8(whole);
    carry = Buffer.from(joined.subarray(whole.length));
  }
  utf8 &&= carry.length === 0;
  if (headLooksBinary(head, () => utf8)) throw new Error(binaryText);
  return utf8 ? 'utf-8' : 'windows-1252';
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
  let carry = '';
  for await (const chunk of chunks) {
    let text = carry + chunk;
    // A CR at the end may be the first half of a CRLF: it waits for the next chunk.
    const heldCr = text.endsWith('\r');
    if (heldCr) text = text.slice(0, -1);
    const lines = text.split(/\r\n|\r|\n/);
    carry = lines.pop()! + (heldCr ? '\r' : '');
    for (const line of lines) yield line;
  }
  for (const line of carry.split(/\r\n|\r|\n/)) yield line;
}

/**
 * S, as a string of its own. V8 keeps a long substring (a line split off a chunk, a regex's match) as
 * a view into the string it came from, so a line kept while a file is read would keep its whole chunk
 * of text, and kept lines all the file's: joined to a character and cut off again, the text is copied
 * (the join made flat) and the chunk let go.
 */
export const detached = (s: string): string => (s.length < 13 ? s : ` ${s}`.slice(1));
