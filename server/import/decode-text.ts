import { isUtf8 } from 'node:buffer';
import { open, readFile, stat } from 'node:fs/promises';
import { getHeapStatistics } from 'node:v8';

/**
 * Text of an export file: UTF-8 (BOM dropped) or UTF-16 with a BOM; bytes that are not valid UTF-8 are
 * read as Windows-1252, the usual encoding of older exports, rather than turned into U+FFFD.
 */
export function decodeText(buf: Uint8Array): string {
  if (buf[0] === 0xff && buf[1] === 0xfe) return new TextDecoder('utf-16le').decode(buf.subarray(2));
  if (buf[0] === 0xfe && buf[1] === 0xff) return new TextDecoder('utf-16be').decode(buf.subarray(2));
  return utf8OrWindows1252(withoutUtf8Bom(buf));
}

const withoutUtf8Bom = (buf: Uint8Array): Uint8Array =>
  buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? buf.subarray(3) : buf;

/**
 * Windows-1252's 0x80-0x9F, by the WHATWG table (the five bytes it leaves undefined stand for
 * themselves). Node 20's TextDecoder('windows-1252') gives the C1 controls of Latin-1 there, so
 * curly quotes, dashes and the euro sign of an old file came out as invisible control characters.
 */
const cp1252High =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

// ignoreBOM keeps a leading U+FEFF as content: decodeText drops a file's BOM itself, and a mail header
// line must come back byte for byte (mail-headers.ts). One decoder each: this runs per header line.
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const windows1252 = new TextDecoder('windows-1252');

/**
 * Text Node decoded as Windows-1252 or Latin-1 (here, in postal-mime, in a vCard's charset), with the
 * C1 controls it gave for 0x80-0x9F read as Windows-1252 meant them. No export or mail means those
 * controls as text, so this is applied to whatever was decoded, whatever its declared charset.
 */
export function c1AsWindows1252(text: string): string {
  return text.replace(/[\u0080-\u009f]/g, (c) => cp1252High[c.charCodeAt(0) - 0x80]!);
}

/** Bytes as UTF-8 when they are valid UTF-8, else as Windows-1252 (which maps every byte). */
export function utf8OrWindows1252(bytes: Uint8Array): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return c1AsWindows1252(windows1252.decode(bytes));
  }
}

/**
 * The largest file an importer reads whole: 256 MiB. Decoded, a larger one nears V8's longest string
 * (2^29 - 24 characters), past which Node's Windows-1252 decoder aborts the whole process instead of
 * throwing; and a zip of under 1 MB, within any upload's limit, unpacks to a file of gigabytes. Real
 * exports read whole (a ChatGPT conversations.json, a WhatsApp chat, a calendar) are well under it.
 */
export const maxWholeFileBytes = 256 * 1024 * 1024;

/**
 * V8's longest string, in UTF-16 code units. Valid UTF-8 takes at least a byte for each unit it
 * decodes to, so a valid UTF-8 file of at most this many bytes cannot decode past it, and its decoder
 * (unlike the Windows-1252 one) is never asked to.
 */
export const maxUtf8WholeFileBytes = 2 ** 29 - 24;

/**
 * Heap a JSON export read whole takes, per byte of its file: its text (two bytes a character once a
 * single character is outside Latin-1) and the values parsed from it, held together while it is
 * parsed. Measured on synthetic ChatGPT exports: 3.9 (300 MiB: 1.18 GiB of heap) and 3.8 (500 MiB:
 * 1.93 GiB); 5 leaves room for exports of smaller values.
 */
const jsonHeapPerByte = 5;

const mib = (n: number) => `${Math.round(n / 2 ** 20)} MiB`;

/**
 * A JSON export's text (a ChatGPT or Claude conversations.json, which no one can export in parts). Up to
 * maxWholeFileBytes it is read as any file; past it, up to `max`, only when it is valid UTF-8 (read as
 * Windows-1252, a file near 512 MiB aborted the process inside Node's decoder) and this process's
 * heap can hold it: running out of heap ends a process too, with no error to catch. A server passes
 * maxWholeFileBytes (uploads of every tenant share its heap); `mnemo import`, in a process of its
 * own, maxUtf8WholeFileBytes. Refused before it is read, with what to do.
 */
export async function readJsonExportText(path: string, max = maxWholeFileBytes): Promise<string> {
  const { size } = await stat(path);
  if (size <= maxWholeFileBytes) return readText(path);
  const split =
    'split its conversations into files of fewer (e.g. `jq -c ".[:5000]" conversations.json > part-1.json`, ' +
    'then ".[5000:10000]" and so on) and import each with --format chatgpt or claude';
  if (size > max)
    throw new Error(
      `the file holds ${size} bytes (${mib(size)}), more than the ${mib(max)} a JSON export is read whole up to ` +
        (max < maxUtf8WholeFileBytes
          ? `here; \`mnemo import\` reads one of up to ${mib(maxUtf8WholeFileBytes)} when it is UTF-8, or `
          : '(the longest text this runtime holds); ') +
        split,
    );
  const heap = getHeapStatistics();
  const free = heap.heap_size_limit - heap.used_heap_size;
  if (size * jsonHeapPerByte > free)
    throw new Error(
      `the file holds ${size} bytes (${mib(size)}); read whole it needs about ${mib(size * jsonHeapPerByte)} of ` +
        `memory, and this process may use ${mib(free)} more: run the import with ` +
        `NODE_OPTIONS=--max-old-space-size=${Math.ceil((heap.used_heap_size + size * jsonHeapPerByte) / 2 ** 20 / 1024) * 1024} ` +
        `on a machine with that much memory, or ${split}`,
    );
  // Decoded strictly, in one pass: a byte that is not UTF-8 stops it before any other decoder is tried.
  try {
    return strictUtf8.decode(withoutUtf8Bom(await readFile(path)));
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
    throw new Error(
      `the file holds ${size} bytes (${mib(size)}) and is not UTF-8: a file that is not is read whole up to ` +
        `${mib(maxWholeFileBytes)}; ${split}`,
    );
  }
}

/** The bytes of `path`, refused (before any is read) when there are more than `max` of them. */
async function readWhole(path: string, max: number): Promise<Buffer> {
  const { size } = await stat(path);
  if (size > max)
    throw new Error(
      `the file holds ${size} bytes, more than the ${max} a file read whole may (${max / 1024 / 1024} MiB)`,
    );
  return readFile(path);
}

/**
 * Whether bytes are no text: not UTF-8, with more than one in twenty of the first 8 KiB control bytes
 * that no text holds (NUL and the rest below space but tab, line feed, form feed and carriage return),
 * or UTF-8 made of them by more than a third. A stray NUL in an export is text with a flaw (taken out
 * later), an old file not in UTF-8 is Windows-1252 text, and a UTF-16 file, whose byte-order mark says
 * so, is text with NULs in it. Read as Windows-1252, an image or an archive saved as `.md` came out as a
 * note of mojibake and two dozen Memories of it.
 */
export function looksBinary(buf: Uint8Array): boolean {
  return headLooksBinary(buf.subarray(0, binaryHeadBytes), () => isUtf8(buf));
}

/** How much of a file's start looksBinary counts control bytes in. */
export const binaryHeadBytes = 8192;

/**
 * looksBinary for a file read in parts: its first binaryHeadBytes (all of it when shorter), and whether
 * the whole file is UTF-8, asked only when the head leaves it open.
 */
export function headLooksBinary(head: Uint8Array, wholeIsUtf8: () => boolean): boolean {
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)) return false;
  let controls = 0;
  for (const b of head)
    if ((b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0c && b !== 0x0d) || b === 0x7f) controls += 1;
  if (controls < 2) return false;
  return controls * 3 > head.length || (controls * 20 > head.length && !wholeIsUtf8());
}

/** The bytes of a text file read whole (readWhole), refused when they are binary data (looksBinary). */
async function readTextBytes(path: string, max: number): Promise<Buffer> {
  const buf = await readWhole(path, max);
  if (looksBinary(buf)) throw new Error(binaryText);
  return buf;
}

/** Why a file read as text is refused when it looksBinary. */
export const binaryText = 'it holds binary data, not text (an image or an archive saved under this name?)';

export async function readText(path: string, max = maxWholeFileBytes): Promise<string> {
  return decodeText(await readTextBytes(path, max));
}

/**
 * Text of an iCalendar or vCard file, whose long lines are folded (a line break and one space or tab
 * inserted, RFC 5545 3.1, RFC 6350 3.2). Some writers fold inside a UTF-8 character, and the file's
 * bytes are then not UTF-8 until the folds are taken out, as those RFCs say readers do before anything
 * else; read as Windows-1252, every accented letter in the file would be garbled ("CafÃ©"). So bytes
 * that are not UTF-8 but are once unfolded are read unfolded. (Unfolding first also joins a
 * quoted-printable soft break followed by a space, and moves the line numbers skips name: only for
 * such files.)
 */
export async function readFoldedText(path: string, max = maxWholeFileBytes): Promise<string> {
  const buf = await readTextBytes(path, max);
  if (isUtf8(buf)) return decodeText(buf);
  const unfolded = unfoldBytes(buf);
  return decodeText(unfolded.length < buf.length && isUtf8(unfolded) ? unfolded : buf);
}

/** The bytes with every CRLF or LF that is followed by a space or tab removed, with that space or tab. */
function unfoldBytes(buf: Uint8Array): Uint8Array {
  const out = new Uint8Array(buf.length);
  let n = 0;
  for (let i = 0; i < buf.length; i++) {
    const b = buf[i]!;
    const lf = b === 0x0d && buf[i + 1] === 0x0a ? i + 1 : b === 0x0a ? i : -1;
    if (lf >= 0 && (buf[lf + 1] === 0x20 || buf[lf + 1] === 0x09)) {
      i = lf + 1;
      continue;
    }
    out[n++] = b;
  }
  return out.subarray(0, n);
}

/**
 * Bytes up to the last whole UTF-8 character. A head cut inside a character is not valid UTF-8, and
 * decodeText would then read all of it as Windows-1252, turning the U+200E marks that lead some
 * WhatsApp lines into mojibake the detection patterns do not match.
 */
export function wholeUtf8(buf: Buffer): Buffer {
  let lead = buf.length - 1;
  while (lead >= 0 && buf.length - lead <= 4 && (buf[lead]! & 0xc0) === 0x80) lead -= 1;
  if (lead < 0 || buf.length - lead > 4) return buf;
  const b = buf[lead]!;
  const size = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
  return buf.length - lead < size ? buf.subarray(0, lead) : buf;
}

/** The start of a file as the parsers will read it (decodeText: UTF-8, UTF-16 with a BOM, Windows-1252). */
export async function readHead(path: string, bytes = 4096): Promise<string> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    const { bytesRead } = await fh.read(buf, 0, bytes, 0);
    const start = buf.subarray(0, bytesRead);
    const utf16 = (start[0] === 0xff && start[1] === 0xfe) || (start[0] === 0xfe && start[1] === 0xff);
    return decodeText(utf16 ? start.subarray(0, bytesRead - (bytesRead % 2)) : wholeUtf8(start));
  } finally {
    await fh.close();
  }
}
