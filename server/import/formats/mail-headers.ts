import { isAscii, isUtf8 } from 'node:buffer';
import { utf8OrWindows1252 } from '../decode-text.ts';

const newline = Buffer.from('\n');

/** The `boundary` parameter of a Content-Type value, quoted or not. */
const boundaryParam = /;\s*boundary\s*=\s*(?:"([^"]+)"|([^\s;]+))/i;

/** The unfolded Content-Type value of a header block (its lines, CR dropped), or ''. */
function contentType(block: string[]): string {
  const unfolded: string[] = [];
  for (const line of block) {
    if (/^[ \t]/.test(line) && unfolded.length > 0) unfolded[unfolded.length - 1] += line;
    else unfolded.push(line);
  }
  const header = unfolded.find((l) => /^content-type\s*:/i.test(l));
  return header ? header.slice(header.indexOf(':') + 1).trim() : '';
}

/** A header line with bytes that are not UTF-8, as UTF-8 read from Windows-1252; other lines as they are. */
function headerLineToUtf8(line: Buffer): Buffer {
  if (isAscii(line)) return line;
  // Valid UTF-8 decodes and re-encodes to the same bytes (the decoder keeps a BOM), so only
  // legacy 8-bit lines change.
  return Buffer.from(utf8OrWindows1252(line), 'utf8');
}

/**
 * Whether a part's text must be told its charset: text (or no Content-Type, which is text/plain) with
 * none named, sent as the bytes they are (not quoted-printable or base64, whose decoded bytes are not
 * seen here).
 */
function namesNoCharset(block: string[], type: string): boolean {
  if (type !== '' && !/^text\//i.test(type)) return false;
  if (/;\s*charset\s*=/i.test(type)) return false;
  const encoding = block.find((l) => /^content-transfer-encoding\s*:/i.test(l)) ?? '';
  return !/quoted-printable|base64/i.test(encoding);
}

/**
 * The raw message with every header line that is not valid UTF-8 rewritten as UTF-8, read as
 * Windows-1252 (as the import reads any text that is not UTF-8). postal-mime decodes raw header
 * lines as UTF-8 only, so `Subject: caf\xe9` from an old client would lose its letter to U+FFFD.
 * Header blocks are the message's own, each MIME part's (after a boundary line of an enclosing
 * multipart) and an attached message's; body lines are left alone, their charset is the part's
 * Content-Type's business. RFC 2047 encoded-words are ASCII, so they pass through unchanged.
 * A text part that names no charset is read as UTF-8 by postal-mime, and 8-bit text an old client
 * wrote without one (Latin-1, Windows-1252) lost every accented letter to U+FFFD: when its bytes are
 * not UTF-8, its Content-Type is given `charset=windows-1252`, as the import reads such text anywhere.
 */
export function headersToUtf8(raw: Buffer): Buffer {
  // Most mail is 7-bit: nothing to rewrite, and no need to walk it.
  if (isAscii(raw)) return raw;
  const out: Buffer[] = [];
  const boundaries = new Set<string>();
  let inHeader = true;
  let block: string[] = [];
  /** Where in `out` this block's Content-Type field ends (its last folded line), if it has one. */
  let typeEnd: number | null = null;
  /** A text part without a charset whose body is being passed: where its header and body are in `out`. */
  let unnamed: { typeEnd: number | null; blank: number; body: number } | null = null;
  const nameCharset = (bodyEnd: number) => {
    const part = unnamed;
    unnamed = null;
    if (!part) return;
    const body = Buffer.concat(out.slice(part.body, bodyEnd));
    if (isAscii(body) || isUtf8(body)) return;
    if (part.typeEnd !== null) {
      const line = out[part.typeEnd]!;
      const cr = line[line.length - 1] === 0x0d;
      out[part.typeEnd] = Buffer.concat([
        line.subarray(0, cr ? -1 : undefined),
        Buffer.from('; charset=windows-1252'),
        cr ? Buffer.from('\r') : Buffer.alloc(0),
      ]);
    } else {
      const blank = out[part.blank]!;
      const eol = blank[0] === 0x0d ? '\r\n' : '\n';
      out[part.blank] = Buffer.concat([
        Buffer.from(`Content-Type: text/plain; charset=windows-1252${eol}`),
        blank,
      ]);
    }
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
      if (/^content-type\s*:/i.test(text) || (folded && typeEnd === out.length - 2)) typeEnd = out.length;
      block.push(text);
      out.push(headerLineToUtf8(line));
    } else if (inHeader) {
      // The blank line ending a header block: what follows is a body, or another header block when
      // the part is an attached message.
      const type = contentType(block);
      const b = boundaryParam.exec(type);
      if (/^multipart\//i.test(type) && b) boundaries.add(b[1] ?? b[2]!);
      inHeader = /^message\/(rfc822|global)\b/i.test(type);
      if (!inHeader && namesNoCharset(block, type))
        unnamed = { typeEnd, blank: out.length, body: out.length + 2 };
      block = [];
      typeEnd = null;
      out.push(line);
    } else {
      const delimiter = text.startsWith('--') ? text.slice(2).trimEnd() : null;
      if (delimiter !== null && boundaries.has(delimiter)) {
        nameCharset(out.length);
        inHeader = true;
      } else if (delimiter?.endsWith('--') && boundaries.has(delimiter.slice(0, -2))) nameCharset(out.length);
      out.push(line);
    }
    if (nl === -1) break;
    out.push(newline);
    start = nl + 1;
  }
  nameCharset(out.length);
  return Buffer.concat(out);
}
