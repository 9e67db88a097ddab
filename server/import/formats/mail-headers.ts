import { isAscii, isUtf8 } from 'node:buffer';
import { utf8OrWindows1252 } from '../decode-text.ts';
import { unflow } from './flowed-text.ts';

const newline = Buffer.from('\n');

/** The `boundary` parameter of a Content-Type value, quoted or not. */
const boundaryParam = /;\s*boundary\s*=\s*(?:"([^"]+)"|([^\s;]+))/i;

/** A header line with bytes that are not UTF-8, as UTF-8 read from Windows-1252; other lines as they are. */
function headerLineToUtf8(line: Buffer): Buffer {
  if (isAscii(line)) return line;
  // Valid UTF-8 decodes and re-encodes to the same bytes (the decoder keeps a BOM), so only
  // legacy 8-bit lines change.
  return Buffer.from(utf8OrWindows1252(line), 'utf8');
}

/**
 * A text part (or one with no Content-Type, which is text/plain) that names no charset: its transfer
 * encoding, lower case ('' for none). null for any other part.
 */
function textWithoutCharset(block: string[], type: string): string | null {
  if (type !== '' && !/^text\//i.test(type)) return null;
  if (/;\s*charset\s*=/i.test(type)) return null;
  return field(block, 'content-transfer-encoding').toLowerCase();
}

const encoded = (encoding: string) => encoding === 'quoted-printable' || encoding === 'base64';

/** A part's body as the bytes its transfer encoding stands for. */
function decodeTransfer(sent: Buffer, encoding: string): Buffer {
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(sent);
  if (encoding === 'base64') return Buffer.from(sent.toString('latin1'), 'base64');
  return sent;
}

/** A header field's unfolded value in a block, or ''. */
function field(block: string[], name: string): string {
  const head = new RegExp(`^${name}[ \\t]*:`, 'i');
  const at = block.findIndex((l) => head.test(l));
  if (at === -1) return '';
  let value = block[at]!.slice(block[at]!.indexOf(':') + 1);
  for (let i = at + 1; i < block.length && /^[ \t]/.test(block[i]!); i++) value += block[i];
  return value.trim();
}

/** A parameter of a header value, quotes taken off, lower case; '' when absent. */
function param(value: string, name: string): string {
  const m = new RegExp(`;\\s*${name}\\s*=\\s*(?:"([^"]*)"|([^\\s;]*))`, 'i').exec(value);
  return (m?.[1] ?? m?.[2] ?? '').toLowerCase();
}

/** How a flowed text part is to be read back, or null for a part that is not one we unflow. */
interface FlowedPart {
  delSp: boolean;
  encoding: string;
  charsetNamed: boolean;
}

/**
 * A `text/plain; format=flowed` part shown as the mail's text (not an attachment), in a charset whose
 * spaces, `>` and line breaks are ASCII bytes (not UTF-16 or UTF-32).
 */
function flowedPart(block: string[], type: string): FlowedPart | null {
  if (!/^text\/plain\b/i.test(type) || param(type, 'format') !== 'flowed') return null;
  if (/^attachment\b/i.test(field(block, 'content-disposition'))) return null;
  const charset = param(type, 'charset');
  if (/^(utf-?(16|32)|ucs-?[24])/.test(charset)) return null;
  const encoding = field(block, 'content-transfer-encoding').toLowerCase();
  return { delSp: param(type, 'delsp') === 'yes', encoding, charsetNamed: charset !== '' };
}

/**
 * A quoted-printable body's bytes (RFC 2045 6.7): soft breaks joined, `=XX` read. Spaces left at a
 * line's end are kept, though 6.7 lets a reader drop them as transport padding: in flowed text such a
 * space is what joins the line to the next, and encoders that leave it unencoded exist.
 */
export function decodeQuotedPrintable(body: Buffer): Buffer {
  const text = body.toString('latin1').replace(/=\r?\n/g, '');
  return Buffer.from(
    text.replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  );
}

/** Whether a 7-bit message may hold a flowed part: only then is the walk below needed for it. */
const mentionsFlowed = (raw: Buffer) =>
  raw.includes('flowed') || raw.includes('Flowed') || raw.includes('FLOWED');

/** `line` (a Buffer of `out`, maybe ending in CR) with `edit` applied to its text before the CR. */
function editLine(line: Buffer, edit: (text: string) => string): Buffer {
  const cr = line[line.length - 1] === 0x0d;
  const text = line.subarray(0, cr ? -1 : undefined).toString('latin1');
  return Buffer.from(edit(text) + (cr ? '\r' : ''), 'latin1');
}

/**
 * The raw message rewritten where postal-mime would read it otherwise than its sender meant:
 * - Header lines that are not valid UTF-8 become UTF-8, read as Windows-1252 (as the import reads any
 *   text that is not UTF-8). postal-mime decodes raw header lines as UTF-8 only, so `Subject: caf\xe9`
 *   from an old client would lose its letter to U+FFFD. Header blocks are the message's own, each MIME
 *   part's (after a boundary line of an enclosing multipart) and an attached message's. RFC 2047
 *   encoded-words are ASCII, so they pass through unchanged.
 * - A text part that names no charset is read as UTF-8 by postal-mime, and 8-bit text an old client
 *   wrote without one (Latin-1, Windows-1252) lost every accented letter to U+FFFD: when its bytes are
 *   not UTF-8, its Content-Type is given `charset=windows-1252`, as the import reads such text anywhere.
 *   With `decodeToCheck`, quoted-printable and base64 parts without a charset are decoded for that
 *   check too: every mail would pay for the walk, so the caller asks only for a mail whose text came
 *   out with U+FFFD.
 * - A `format=flowed` text part (Thunderbird's and Apple Mail's plain text) is unflowed here, quote
 *   depth and all (flowed-text.ts), and handed on as fixed 8-bit text.
 * Other body lines are left alone.
 */
export function mailForPostalMime(raw: Buffer, { decodeToCheck = false } = {}): Buffer {
  // Most mail is 7-bit and fixed: nothing to rewrite, and no need to walk it.
  if (isAscii(raw) && !mentionsFlowed(raw) && !decodeToCheck) return raw;
  const out: Buffer[] = [];
  const boundaries = new Set<string>();
  let inHeader = true;
  let block: string[] = [];
  /** Where in `out` this block's Content-Type field's lines are (folded lines too), and its encoding's. */
  let typeLines: number[] = [];
  let encodingLine: number | null = null;
  /** A text part without a charset whose body is being passed: where its header and body are in `out`. */
  let unnamed: { typeEnd: number | null; blank: number; body: number; encoding: string } | null = null;
  let flowed: (FlowedPart & { typeLines: number[]; encodingLine: number | null; body: number }) | null = null;
  const addCharset = (typeEnd: number | null, blank: number) => {
    if (typeEnd !== null) {
      out[typeEnd] = editLine(out[typeEnd]!, (t) => `${t}; charset=windows-1252`);
    } else {
      const line = out[blank]!;
      const eol = line[0] === 0x0d ? '\r\n' : '\n';
      out[blank] = Buffer.concat([Buffer.from(`Content-Type: text/plain; charset=windows-1252${eol}`), line]);
    }
  };
  const nameCharset = (bodyEnd: number) => {
    const part = unnamed;
    unnamed = null;
    if (!part) return;
    const body = decodeTransfer(Buffer.concat(out.slice(part.body, bodyEnd)), part.encoding);
    if (!isAscii(body) && !isUtf8(body)) addCharset(part.typeEnd, part.blank);
  };
  const unflowPart = (bodyEnd: number) => {
    const part = flowed;
    flowed = null;
    if (!part || part.body >= bodyEnd) return;
    const sent = Buffer.concat(out.slice(part.body, bodyEnd));
    const bytes = decodeTransfer(sent, part.encoding);
    const decoded = bytes !== sent;
    let text = unflow(bytes, part.delSp);
    // Decoded bytes end in a line break, so the boundary line after them stays a line of its own.
    if (decoded && text.length > 0 && text[text.length - 1] !== 0x0a)
      text = Buffer.concat([text, Buffer.from('\r\n')]);
    // Text that spells one of the mail's boundaries (a stuffed " --b" unstuffed, or decoded) would cut
    // the mail in two: postal-mime unflows that part its own way.
    if ([...boundaries].some((b) => text.includes(`--${b}`))) return;
    out[part.body] = text;
    out.fill(Buffer.alloc(0), part.body + 1, bodyEnd);
    for (const at of part.typeLines)
      out[at] = editLine(out[at]!, (t) => t.replace(/(format\s*=\s*)(?:"flowed"|flowed)/i, '$1fixed'));
    if (!decoded) return;
    if (part.encodingLine !== null)
      out[part.encodingLine] = editLine(
        out[part.encodingLine]!,
        (t) => `${t.slice(0, t.indexOf(':'))}: 8bit`,
      );
    // Decoded text without a charset is checked as 8-bit text is (nameCharset).
    const typeEnd = part.typeLines.at(-1) ?? null;
    if (!part.charsetNamed && !isAscii(text) && !isUtf8(text)) addCharset(typeEnd, part.body - 2);
  };
  const endPart = (bodyEnd: number) => {
    nameCharset(bodyEnd);
    unflowPart(bodyEnd);
  };
  let start = 0;
  while (start <= raw.length) {
    const nl = raw.indexOf(0x0a, start);
    const end = nl === -1 ? raw.length : nl;
    const line = raw.subarray(start, end);
    // Body lines matter only when they may be a boundary ("--..."), so most are never decoded.
    const text = inHeader || line[0] === 0x2d ? line.toString('latin1').replace(/\r$/, '') : '';
    if (inHeader && text !== '') {
      const folded = /^[ \t]/.test(text);
      if (/^content-type\s*:/i.test(text) || (folded && typeLines.at(-1) === out.length - 2))
        typeLines.push(out.length);
      if (/^content-transfer-encoding\s*:/i.test(text)) encodingLine = out.length;
      block.push(text);
      out.push(headerLineToUtf8(line));
    } else if (inHeader) {
      // The blank line ending a header block: what follows is a body, or another header block when
      // the part is an attached message.
      const type = field(block, 'content-type');
      const b = boundaryParam.exec(type);
      if (/^multipart\//i.test(type) && b) boundaries.add(b[1] ?? b[2]!);
      inHeader = /^message\/(rfc822|global)\b/i.test(type);
      const body = out.length + 2;
      const flow = inHeader ? null : flowedPart(block, type);
      if (flow) flowed = { ...flow, typeLines, encodingLine, body };
      const encoding = inHeader ? null : textWithoutCharset(block, type);
      // Decoded bytes are checked only when asked (the mail read with U+FFFD once), and a flowed
      // part's are checked as it is unflowed.
      if (encoding !== null && (!encoded(encoding) || (decodeToCheck && !flow)))
        unnamed = { typeEnd: typeLines.at(-1) ?? null, blank: out.length, body, encoding };
      block = [];
      typeLines = [];
      encodingLine = null;
      out.push(line);
    } else {
      const delimiter = text.startsWith('--') ? text.slice(2).trimEnd() : null;
      if (delimiter !== null && boundaries.has(delimiter)) {
        endPart(out.length);
        inHeader = true;
      } else if (delimiter?.endsWith('--') && boundaries.has(delimiter.slice(0, -2))) endPart(out.length);
      out.push(line);
    }
    if (nl === -1) break;
    out.push(newline);
    start = nl + 1;
  }
  endPart(out.length);
  return Buffer.concat(out);
}
