import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import PostalMime, { type Address, type Email } from 'postal-mime';
import { skip, type ImportItem, type ParseOptions } from '../import-item.ts';
import { toIso } from '../zoned-time.ts';
import { c1AsWindows1252 } from '../decode-text.ts';
import { headersToUtf8 } from './mail-headers.ts';
import { errorMessage } from '../../../engine/shared/error-message.ts';

/** An mbox separator: `From <sender> <asctime date>`; a body line "From here on..." is not one. */
const fromLine = /^From \S+ .*\b\d{1,2}:\d{2}(?::\d{2})?\b.*\b\d{4}\s*$/;

/**
 * Splits an mbox into raw messages. The file is handled as latin1 so bytes survive untouched (each
 * message's own charset is postal-mime's business). A separator must start the file or follow a blank
 * line; `>From ` quoting (mboxo and mboxrd) loses one `>`.
 */
export function splitMbox(buf: Buffer): { line: number; raw: Buffer }[] {
  const text = buf.toString('latin1');
  const lines = text.split('\n');
  const out: { line: number; raw: Buffer }[] = [];
  let current: string[] | null = null;
  let start = 0;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!.replace(/\r$/, '');
    const prevBlank = i === 0 || lines[i - 1]!.replace(/\r$/, '') === '';
    if (prevBlank && fromLine.test(l)) {
      if (current) out.push({ line: start + 1, raw: Buffer.from(current.join('\n'), 'latin1') });
      current = [];
      start = i;
      continue;
    }
    if (current) current.push(/^>+From /.test(lines[i]!) ? lines[i]!.slice(1) : lines[i]!);
  }
  if (current) out.push({ line: start + 1, raw: Buffer.from(current.join('\n'), 'latin1') });
  return out;
}

function mailboxes(list: Address[] | Address | undefined): { name: string; address: string }[] {
  const arr = list === undefined ? [] : Array.isArray(list) ? list : [list];
  return arr
    .flatMap((a) => (a.group ? a.group : [a]))
    .map((m) => ({ name: m.name, address: m.address ?? '' }));
}
const show = (m: { name: string; address: string }) => (m.name ? `${m.name} <${m.address}>` : m.address);
const ids = (v: string | undefined) => (v ?? '').match(/<[^<>\s]+>/g) ?? [];

/** Subject without `Re:`/`Fwd:` prefixes, so a thread keeps one name. */
export function baseSubject(subject: string): string {
  return subject.replace(/^(\s*(re|fw|fwd|aw|sv|wg)(\[\d+\])?\s*:\s*)+/i, '').trim();
}

function htmlToText(html: string): string {
  return html
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, '')
    .replace(/<br\s*\/?>|<\/p>|<\/div>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The Record of one parsed mail: headers a reader needs, then the body, then attachment names. */
export function mailToRecord(
  email: Email,
  raw: Buffer,
  ref: string,
  o: ParseOptions,
  subjects: Map<string, string> = new Map(),
): ImportItem {
  const from = mailboxes(email.from)[0];
  const to = mailboxes(email.to);
  const cc = mailboxes(email.cc);
  const body = (email.text?.trim() || (email.html ? htmlToText(email.html) : '')).replace(/\r\n/g, '\n');
  const attachments = email.attachments.filter((a) => a.disposition !== 'inline' || a.filename);
  if (!body && attachments.length === 0 && !email.subject)
    return skip(ref, 'message has no subject, body or attachment');
  const messageId = email.messageId?.trim();
  const rootId = ids(email.references)[0] ?? ids(email.inReplyTo)[0] ?? messageId ?? '';
  const subject = email.subject?.trim() ?? '';
  const lines = [
    subject ? `Subject: ${subject}` : '',
    from ? `From: ${show(from)}` : '',
    to.length ? `To: ${to.map(show).join(', ')}` : '',
    cc.length ? `Cc: ${cc.map(show).join(', ')}` : '',
  ].filter(Boolean);
  const text = [
    lines.join('\n'),
    body,
    ...attachments.map((a) => `[attachment: ${a.filename ?? 'unnamed'} (${a.mimeType})]`),
  ]
    .filter(Boolean)
    .join('\n\n');
  const isSelf =
    from &&
    o.selfName &&
    [from.name, from.address].some((v) => v.toLowerCase() === o.selfName!.toLowerCase());
  const externalId = messageId || `sha256:${createHash('sha256').update(raw).digest('hex').slice(0, 32)}`;
  return {
    type: 'record',
    ref,
    body: {
      content: {
        kind: 'message',
        text,
        ...(from ? { speaker: isSelf ? 'self' : show(from).slice(0, 2000) } : {}),
        // Named after the thread's first mail when the file holds it, so a changed "Re:" subject stays in.
        thread: `${baseSubject(subjects.get(rootId) ?? subject) || '(no subject)'} ${rootId}`
          .trim()
          .slice(0, 2000),
      },
      source: { name: 'mbox', external_id: `mbox:${externalId}`.slice(0, 2000) },
      occurred_at: toIso(email.date) ?? undefined,
    },
  };
}

/**
 * postal-mime decodes windows-1252 and Latin-1 parts and encoded words with Node's TextDecoder, which
 * gives C1 controls for 0x80-0x9F (decode-text.ts): every string of the parsed mail (subject, bodies,
 * names, attachment names, any field postal-mime adds) is read as the sender meant. Attachment bytes
 * (ArrayBuffers) are left alone.
 */
function c1Repaired<T>(v: T): T {
  if (typeof v === 'string') return c1AsWindows1252(v) as T;
  if (Array.isArray(v)) return v.map(c1Repaired) as T;
  if (v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype)
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, c1Repaired(x)])) as T;
  return v;
}

/** One `message` Record per mail: sender as speaker, recipients and subject in the text, thread by References. */
export async function* parseMbox(path: string, o: ParseOptions): AsyncGenerator<ImportItem> {
  const messages = splitMbox(await readFile(path));
  if (messages.length === 0) {
    yield skip(path, 'no "From " separator line: not an mbox file');
    return;
  }
  const parsed: { ref: string; raw: Buffer; email: Email | null; error?: string }[] = [];
  const subjects = new Map<string, string>();
  for (const { line, raw } of messages) {
    const ref = `line ${line}`;
    try {
      // Raw 8-bit headers that are not UTF-8 are Windows-1252 (postal-mime would make them U+FFFD);
      // the untouched bytes still name a message without a Message-ID.
      const email = c1Repaired(
        await PostalMime.parse(headersToUtf8(raw), { attachmentEncoding: 'arraybuffer' }),
      );
      const id = email.messageId?.trim();
      if (id && email.subject && !subjects.has(id)) subjects.set(id, email.subject);
      parsed.push({ ref: email.messageId ? `${ref} ${email.messageId}` : ref, raw, email });
    } catch (e) {
      parsed.push({ ref, raw, email: null, error: errorMessage(e) });
    }
  }
  for (const p of parsed) {
    yield p.email
      ? mailToRecord(p.email, p.raw, p.ref, o, subjects)
      : skip(p.ref, `unreadable message: ${p.error}`);
  }
}
