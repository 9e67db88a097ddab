import { createReadStream } from 'node:fs';

/** An mbox separator: `From <sender> <asctime date>`; a body line "From here on..." is not one. */
const fromLine = /^From \S+ .*\b\d{1,2}:\d{2}(?::\d{2})?\b.*\b\d{4}\s*$/;
const weekdays = new Set(['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']);
const monthNames = new Set([
  'Jan',
  'Feb',
  'Mar',
  'Apr',
  'May',
  'Jun',
  'Jul',
  'Aug',
  'Sep',
  'Oct',
  'Nov',
  'Dec',
]);

/**
 * A separator whose date is asctime's, word by word: a weekday's and a month's three letters, a time and
 * the year last ("From 1790@xxx Fri Mar 08 10:00:00 +0000 2024", "From - Mon Mar  4 09:00:00 2024"). A
 * body line has none of that: "From 9:00 to 17:00 on Friday 12 April 2024" matches fromLine.
 */
export function isAsctimeSeparator(line: string): boolean {
  const words = line.trimEnd().split(/ +/u);
  if (words.length < 6 || words[0] !== 'From') return false;
  const date = words.slice(2);
  const at = date.findIndex((w) => weekdays.has(w.replace(/,$/u, '')));
  return (
    at >= 0 &&
    monthNames.has(date[at + 1] ?? '') &&
    date.slice(at + 2).some((w) => /^\d{1,2}:\d{2}(?::\d{2})?$/u.test(w)) &&
    /^\d{4}$/u.test(date.at(-1)!)
  );
}

/**
 * Gmail caps a mail at 50 MB and Outlook at 150 MB; a "message" far beyond that is an mbox whose
 * separators were not recognised (the rest of the file reads as one mail), and parsing it would
 * exhaust memory rather than fail.
 */
export const maxMessageBytes = 256 * 2 ** 20;

/**
 * A separator is a short line, so a line this long is only ever message content: it is passed on as
 * it arrives instead of being held whole (a multi-GB line without a newline must not be buffered).
 */
const longLine = 64 * 1024;

export interface MboxMessage {
  /** 1-based line of the `From ` separator in the file. */
  line: number;
  /** The separator line (latin1, line end dropped): its date stands in for a missing Date: header. */
  separator: string;
  /** The message's bytes, one `>` taken off each quoted `>From ` line; null when over the size limit. */
  raw: Buffer | null;
  /** The message's size in bytes, counted even when it was too large to keep. */
  size: number;
  /**
   * The file ended inside the message's last line (no line end after it): a file cut short, as an
   * mbox's every message ends with a line end (RFC 4155), so the message may be missing its end.
   */
  endsMidLine?: true;
}

const LF = 0x0a;
const CR = 0x0d;
const GT = 0x3e;
const from_ = Buffer.from('From ', 'latin1');
const bom = Buffer.from([0xef, 0xbb, 0xbf]);

/** `>From `, `>>From `, ...: mboxo and mboxrd quoting, undone by dropping one `>`. */
function isQuotedFrom(line: Buffer): boolean {
  let i = 0;
  while (line[i] === GT) i++;
  return i > 0 && line.subarray(i, i + 5).equals(from_);
}

/**
 * Splits an mbox into messages as its bytes arrive, in chunks cut anywhere (inside a line, a CRLF or
 * a separator). Bytes stay bytes: each message's charset is postal-mime's business. A separator with
 * an asctime date (isAsctimeSeparator) stands anywhere; a looser one must start the file or follow a
 * blank line. Only the current message and the current line's head are
 * held, so memory follows the largest message, not the file. The bytes of a message are exactly
 * what the whole-file split gave before (the newline that precedes a separator is the separator's),
 * which keeps the content hash that names a mail without a Message-ID stable across versions.
 */
export class MboxSplitter {
  /** Bytes of the current line from earlier chunks, while it is short enough to be a separator. */
  #pending: Buffer[] = [];
  #pendingSize = 0;
  /** The current line passed the long-line size: its remaining bytes go straight to the message. */
  #inLongLine = false;
  #lineNo = 0;
  #prevBlank = true;
  #msg: { line: number; separator: string; parts: Buffer[]; size: number; kept: boolean } | null = null;

  constructor(private readonly limit = maxMessageBytes) {}

  /** The messages this chunk completes. */
  push(chunk: Buffer): MboxMessage[] {
    const out: MboxMessage[] = [];
    let pos = 0;
    for (let nl = chunk.indexOf(LF); nl !== -1; nl = chunk.indexOf(LF, pos)) {
      if (this.#inLongLine) {
        this.#append(chunk.subarray(pos, nl + 1));
        this.#inLongLine = false;
        this.#prevBlank = false;
        this.#lineNo++;
      } else if (this.#pending.length > 0) {
        const line = Buffer.concat([...this.#pending, chunk.subarray(pos, nl + 1)]);
        this.#pending = [];
        this.#pendingSize = 0;
        this.#line(line, out);
      } else {
        this.#line(chunk.subarray(pos, nl + 1), out);
      }
      pos = nl + 1;
    }
    if (pos < chunk.length) {
      const rest = chunk.subarray(pos);
      if (this.#inLongLine) this.#append(rest);
      else {
        this.#pending.push(rest);
        this.#pendingSize += rest.length;
        if (this.#pendingSize > longLine) {
          const head = Buffer.concat(this.#pending);
          this.#pending = [];
          this.#pendingSize = 0;
          this.#append(isQuotedFrom(head) ? head.subarray(1) : head);
          this.#inLongLine = true;
        }
      }
    }
    return out;
  }

  /** The last message, once the input has ended. */
  end(): MboxMessage[] {
    const out: MboxMessage[] = [];
    // Whatever follows the last newline (nothing, when the file ends with one) is the last line.
    const midLine = this.#inLongLine || this.#pendingSize > 0;
    if (!this.#inLongLine) this.#line(Buffer.concat(this.#pending), out);
    this.#pending = [];
    this.#pendingSize = 0;
    this.#inLongLine = false;
    this.#finish(out, false, midLine);
    return out;
  }

  /** One whole line, with its LF unless it is the input's last line. */
  #line(whole: Buffer, out: MboxMessage[]): void {
    // A UTF-8 byte order mark before the first separator (an editor's or a converter's) hid it, and the
    // first mail with it.
    const line = this.#lineNo === 0 && whole.subarray(0, 3).equals(bom) ? whole.subarray(3) : whole;
    let end = line.length;
    if (line[end - 1] === LF) end--;
    if (line[end - 1] === CR) end--;
    if (line.subarray(0, 5).equals(from_)) {
      const text = line.toString('latin1', 0, end);
      // After a blank line, the classic test; with none (mails joined by tools that write no blank line
      // between them), or where the line could be a body's, only an asctime date.
      if (isAsctimeSeparator(text) || (this.#prevBlank && fromLine.test(text) && !/^From \d/u.test(text))) {
        this.#finish(out, true);
        this.#msg = { line: this.#lineNo + 1, separator: text, parts: [], size: 0, kept: true };
        this.#prevBlank = false;
        this.#lineNo++;
        return;
      }
    }
    this.#append(isQuotedFrom(line) ? line.subarray(1) : line);
    this.#prevBlank = end === 0;
    this.#lineNo++;
  }

  #append(bytes: Buffer): void {
    const m = this.#msg;
    if (!m || bytes.length === 0) return;
    m.size += bytes.length;
    if (!m.kept) return;
    if (m.size > this.limit) {
      m.parts = [];
      m.kept = false;
      return;
    }
    m.parts.push(bytes);
  }

  #finish(out: MboxMessage[], beforeSeparator: boolean, midLine = false): void {
    const m = this.#msg;
    if (!m) return;
    this.#msg = null;
    let raw = m.kept ? Buffer.concat(m.parts, m.size) : null;
    // The blank line before a separator keeps its CR (if any) but not its LF.
    if (beforeSeparator && m.size > 0) {
      m.size--;
      if (raw) raw = raw.subarray(0, m.size);
    }
    out.push({
      line: m.line,
      separator: m.separator,
      raw,
      size: m.size,
      ...(midLine ? { endsMidLine: true } : {}),
    });
  }
}

/** The messages of an mbox read as a stream of chunks, each handed on as soon as it is complete. */
export async function* mboxMessages(
  chunks: AsyncIterable<Uint8Array>,
  limit = maxMessageBytes,
): AsyncGenerator<MboxMessage> {
  const splitter = new MboxSplitter(limit);
  for await (const chunk of chunks) {
    const buf = Buffer.isBuffer(chunk)
      ? chunk
      : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    for (const m of splitter.push(buf)) yield m;
  }
  for (const m of splitter.end()) yield m;
}

/** The messages of the mbox file at PATH, read 1 MiB at a time. */
export function readMbox(path: string, limit = maxMessageBytes): AsyncGenerator<MboxMessage> {
  return mboxMessages(createReadStream(path, { highWaterMark: 2 ** 20 }), limit);
}
