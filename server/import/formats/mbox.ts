import { createHash, type Hash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import PostalMime, { decodeWords, type Address, type Email } from 'postal-mime';
import { skip, type ImportItem, type ParseOptions } from '../import-item.ts';
import { atOffset, isValidWallTime, toIso } from '../zoned-time.ts';
import { c1AsWindows1252, readHead } from '../decode-text.ts';
import { mailForPostalMime } from './mail-headers.ts';
import { htmlToText } from './html-text.ts';
import { maxMessageBytes, readMbox } from './mbox-split.ts';
import { baseSubject, errorMessage } from '../../../engine/index.ts';

function mailboxes(list: Address[] | Address | undefined): { name: string; address: string }[] {
  const arr = list === undefined ? [] : Array.isArray(list) ? list : [list];
  return arr
    .flatMap((a) => (a.group ? a.group : [a]))
    .map((m) => ({ name: m.name, address: m.address ?? '' }));
}
const show = (m: { name: string; address: string }) => (m.name ? `${m.name} <${m.address}>` : m.address);
const ids = (v: string | undefined) => (v ?? '').match(/<[^<>\s]+>/g) ?? [];

/**
 * A sender's name as compared with the person's own: case, spacing and quotes aside, and "Silva, Ana"
 * (Outlook's "Last, First") read as "Ana Silva".
 */
function comparableName(name: string): string {
  const plain = name
    .replace(/["'“”]/gu, '')
    .replace(/\s+/gu, ' ')
    .trim()
    .toLowerCase();
  const lastFirst = /^([^,]+), ?([^,\s][^,]*)$/u.exec(plain);
  return lastFirst ? `${lastFirst[2]} ${lastFirst[1]}` : plain;
}

/**
 * A sender's name as people say it: Outlook's "Diaz, Carol" as "Carol Diaz", as the same person's chats,
 * contacts and calendar name her. Only a name of one or two capitalised words each side, and not a firm
 * ("Acme, Inc.", "Smith, LLC").
 */
export function saidName(name: string): string {
  const plain = name.replace(/\s+/gu, ' ').trim();
  const m = lastCommaFirst.exec(plain);
  if (!m || notAGivenName.test(m[2]!) || notAGivenName.test(m[1]!.split(' ').at(-1)!)) return plain;
  return `${m[2]} ${m[1]}`;
}
const nameWord = String.raw`\p{Lu}[\p{L}\p{M}'’-]*\.?`;
const lastCommaFirst = new RegExp(`^(${nameWord}(?: ${nameWord})?), (${nameWord}(?: ${nameWord})?)$`, 'u');
/** Not a firm ("Acme, Inc."), nor letters after a name ("Carol Diaz, PhD", "John Smith, MD"). */
const notAGivenName =
  /^(?:inc|llc|ltd|co|corp|gmbh|sa|s\.a|ag|bv|nv|plc|llp|srl|lda|limited|phd|md|esq|cpa|jr|sr|ii|iii|iv|mba|rn|dds|dvm|do|pe|cfa)\.?$/iu;

/** Whether a sender is the person by name or address (`selfName`, `--self` or the Brain's own person). */
function namesSelf(from: { name: string; address: string }, selfName: string | undefined): boolean {
  if (!selfName) return false;
  const self = comparableName(selfName);
  return comparableName(from.name) === self || from.address.toLowerCase() === self;
}

const months = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/**
 * The date of an mbox `From ` separator line as RFC 3339, or null. Writers differ in field order and
 * zone: asctime `Thu Jan  4 10:00:00 2024`, Gmail Takeout `Thu Jan 04 10:00:00 +0000 2024`, some an
 * RFC 5322 date. A numeric offset is honoured. asctime carries no zone, and the writer's zone is
 * unknown (Thunderbird writes local time, Gmail UTC), so it is read as UTC: never the importing
 * machine's zone or --time-zone, so the same file always gives the same Records.
 */
export function separatorDate(line: string): string | null {
  let year: number | undefined;
  let month: number | undefined;
  let day: number | undefined;
  let clock: [number, number, number] | undefined;
  let offsetMin = 0;
  // The first word after "From " is the sender; a word of digits there is not the day.
  for (const word of line.split(/[\s,]+/).slice(2)) {
    const m = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(word);
    if (m) clock = [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
    else if (/^[+-]\d{4}$/.test(word))
      offsetMin = (word[0] === '-' ? -1 : 1) * (Number(word.slice(1, 3)) * 60 + Number(word.slice(3)));
    else if (/^\d{4}$/.test(word)) year = Number(word);
    else if (/^\d{1,2}$/.test(word)) day = Number(word);
    else if (/^[a-z]{3,}$/i.test(word) && months.includes(word.slice(0, 3).toLowerCase()))
      month = months.indexOf(word.slice(0, 3).toLowerCase()) + 1;
  }
  if (year === undefined || month === undefined || day === undefined || !clock) return null;
  const [hour, minute, second] = clock;
  if (!isValidWallTime({ year, month, day, hour, minute, second })) return null;
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second) - offsetMin * 60_000).toISOString();
}

/**
 * A mail's `Date:` as RFC 3339, or null. A date that names no zone (old clients, hand-written mail) is
 * read as UTC, as a separator line's is: postal-mime would read it in the importing machine's zone,
 * so the same file gave other Records on another machine.
 */
export function mailDate(email: Email): string | null {
  const value = email.headers.find((h) => h.key === 'date')?.value.trim() ?? '';
  // A trailing comment, as in "+0100 (CET)", names no zone a parser may trust; the offset before it does.
  const bare = (value.endsWith(')') ? value.slice(0, value.lastIndexOf('(')) : value).trimEnd();
  // "+0100", "+01", "GMT+1", "GMT", "EST", a military letter.
  const zoned = /(?:[+-]\d{1,2}(?::?\d{2})?|(?:^|[^a-z])(?:ut|utc|gmt|[ecmp][sd]t|[a-ik-z]))$/i.test(bare);
  // Only a date V8 reads at all gets a zone: its lenient parser reads "sometime +0000" as the year 2000.
  if (zoned || toIso(bare) === null) return toIso(email.date);
  if (/^\d{4}-\d{2}-\d{2}T/i.test(bare)) return toIso(`${bare}Z`) ?? toIso(email.date);
  const timed = /\d{1,2}:\d{2}/.test(bare) ? bare : `${bare} 00:00`;
  return toIso(`${timed} +0000`) ?? toIso(email.date);
}

/**
 * A mail's time as its sender's clock read it: the instant of mailDate at the numeric offset its
 * `Date:` gives ("Tue, 12 Mar 2024 21:17:45 -0400" is 2024-03-12T21:17:45-04:00, not the next day's
 * 01:17 UTC, which a prompt reads as the 13th). The instant as mailDate writes it without one, and at
 * UTC ("+0000", or "-0000": RFC 5322's unknown zone).
 */
export function mailTimeAsWritten(email: Email, instant: string): string {
  const value = email.headers.find((h) => h.key === 'date')?.value.trim() ?? '';
  const bare = (value.endsWith(')') ? value.slice(0, value.lastIndexOf('(')) : value).trimEnd();
  const m = /\s([+-])(\d{2})(\d{2})$/u.exec(bare);
  const minutes = m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
  // No zone is further than 14 hours from UTC; "+2500" or "-0075" is no offset to write.
  if (!m || minutes === 0 || Number(m[3]) > 59 || Math.abs(minutes) > 14 * 60) return instant;
  return atOffset(new Date(instant), minutes);
}

const hashId = (h: Hash) => `sha256:${h.digest('hex').slice(0, 32)}`;

/**
 * The id of a mail without a Message-ID, from its bytes with every line ended by LF and exactly one
 * LF at its end, and the ids earlier versions gave it. Those hashed the bytes as they were, so the same
 * mbox saved with CRLF line ends (or a mail last in its file, with one more or one fewer newline) was
 * each such mail once more. For a mail ended by one LF (every mail but the last of an LF mbox) the id is
 * the one it always had. The others: its bytes as they are, and the same text with LF or CRLF line ends
 * and each ending the splitter gives (nothing, a line end, a blank line, a CRLF blank line without its
 * LF before a separator): the import keeps the one the Brain holds (former-ids.ts), so a mail already
 * imported under either line ending is not written again.
 */
export function contentIds(raw: Buffer): { id: string; former: string[] } {
  let end = raw.length;
  while (end > 0 && (raw[end - 1] === 0x0a || raw[end - 1] === 0x0d)) end--;
  const lf = createHash('sha256');
  const crlf = createHash('sha256');
  for (let start = 0; start < end;) {
    const nl = raw.indexOf(0x0a, start);
    const stop = nl === -1 || nl >= end ? end : nl;
    const line = raw.subarray(start, stop > start && raw[stop - 1] === 0x0d ? stop - 1 : stop);
    lf.update(line);
    crlf.update(line);
    if (stop === end) break;
    lf.update('\n');
    crlf.update('\r\n');
    start = stop + 1;
  }
  const id = hashId(lf.copy().update('\n'));
  const former = [
    hashId(createHash('sha256').update(raw)),
    hashId(lf.copy()),
    hashId(lf.copy().update('\n\n')),
    hashId(crlf.copy().update('\r\n')),
    hashId(crlf.copy().update('\r\n\r')),
    hashId(crlf.copy().update('\r\n\r\n')),
    hashId(crlf),
  ];
  return { id, former: [...new Set(former)].filter((f) => f !== id) };
}

/**
 * Spam or Trash, as Gmail Takeout labels a mail (`X-Gmail-Labels: Trash,Opened`): its "All mail
 * Including Spam and Trash" file holds both, and a won Tesla or a deleted mail is no one's memory.
 */
function gmailBin(email: Email): 'Spam' | 'Trash' | null {
  const labels = email.headers
    .filter((h) => h.key === 'x-gmail-labels')
    // Takeout encodes the whole header when a label is not ASCII ("=?UTF-8?Q?Trash,=C3=89cole?=").
    .flatMap((h) => decodeWords(h.value).split(','))
    .map((l) => l.trim().toLowerCase());
  if (labels.includes('spam')) return 'Spam';
  return labels.includes('trash') ? 'Trash' : null;
}

/**
 * Mail sent to a list of subscribers: a newsletter, a digest, a shop's offers. Its sender says so in its
 * headers: `List-Unsubscribe` (Gmail and Yahoo refuse bulk mail without it since 2024), `List-Id` (RFC
 * 2919) or `Precedence: bulk`/`list`/`junk`. Not a discussion list (Mailman, Google Groups), which names
 * where to post (`List-Post`, RFC 2369, other than "NO"): its mails are its members' own words. A sender
 * without such headers (a `noreply@` booking, an "Unsubscribe" line in a body) is not read as bulk: the
 * airline's booking is the person's flight.
 */
export function isBulkMail(email: Pick<Email, 'headers'>): boolean {
  const value = (key: string) => email.headers.find((h) => h.key === key)?.value.trim() ?? '';
  const post = value('list-post');
  if (post !== '' && !/^no\b/iu.test(post)) return false;
  return (
    value('list-unsubscribe') !== '' ||
    value('list-id') !== '' ||
    /^(?:bulk|list|junk)\b/iu.test(value('precedence'))
  );
}

/** What a mail says: its text part, else its HTML's text, with LF line ends. */
const bodyText = (email: Pick<Email, 'text' | 'html'>): string =>
  (email.text?.trim() || (email.html ? htmlToText(email.html) : '')).replace(/\r\n/g, '\n');

/**
 * The Record of one parsed mail: headers a reader needs, then the body, then attachment names.
 * `receivedAt` (the mbox separator's date) dates a mail whose Date: header is missing or unreadable.
 */
export function mailToRecord(
  email: Email,
  raw: Buffer,
  ref: string,
  o: ParseOptions,
  subjects: ReadonlyMap<string, string> = new Map(),
  receivedAt: string | null = null,
  /** Addresses the person sent from under their own name anywhere in the file: every mail from one is theirs. */
  selfAddresses: ReadonlySet<string> = new Set(),
): ImportItem {
  const binned = gmailBin(email);
  if (binned) return skip(ref, `in Gmail's ${binned}: not imported`);
  const from = mailboxes(email.from)[0];
  const to = mailboxes(email.to);
  const cc = mailboxes(email.cc);
  const body = bodyText(email);
  const attachments = email.attachments.filter((a) => a.disposition !== 'inline' || a.filename);
  if (!body && attachments.length === 0 && !email.subject)
    return skip(ref, 'message has no subject, body or attachment');
  const messageId = email.messageId?.trim();
  const rootId = ids(email.references)[0] ?? ids(email.inReplyTo)[0] ?? messageId ?? '';
  const subject = email.subject?.trim() ?? '';
  const isSelf = from && (namesSelf(from, o.selfName) || selfAddresses.has(from.address.toLowerCase()));
  const lines = [
    subject ? `Subject: ${subject}` : '',
    from ? `From: ${show(from)}` : '',
    to.length ? `To: ${to.map(show).join(', ')}` : '',
    cc.length ? `Cc: ${cc.map(show).join(', ')}` : '',
    // What the person received, not what anyone in their life said: retrieval puts it behind their own
    // mail (retrieve.ts bulkBehind). One line, whichever header said so; the unsubscribe link (a token of
    // the person's subscription) is not kept. The person's own mail to a list is theirs.
    !isSelf && isBulkMail(email) ? 'Precedence: bulk' : '',
  ].filter(Boolean);
  const text = [
    lines.join('\n'),
    body,
    ...attachments.map((a) => `[attachment: ${a.filename ?? 'unnamed'} (${a.mimeType})]`),
  ]
    .filter(Boolean)
    .join('\n\n');
  const instant = mailDate(email);
  const written = instant === null ? null : mailTimeAsWritten(email, instant);
  const named = messageId ? null : contentIds(raw);
  const externalId = messageId || named!.id;
  return {
    type: 'record',
    ref,
    ...(named && named.former.length > 0
      ? { formerExternalIds: named.former.map((id) => `mbox:${id}`.slice(0, 2000)) }
      : {}),
    // Keyed by the instant as before the offset was kept, so a mail imported then is unchanged.
    ...(written !== instant && instant !== null ? { occurredAtInKey: instant } : {}),
    body: {
      content: {
        kind: 'message',
        text,
        // The person by their name, as chats and contacts name them (the address stays in the From: line);
        // "Carol Diaz <carol@x>" was an entity of its own beside Slack's and the address book's Carol Diaz,
        // and so was Outlook's "Diaz, Carol" (saidName).
        ...(from ? { speaker: isSelf ? 'self' : (saidName(from.name) || from.address).slice(0, 2000) } : {}),
        // Named after the thread's first mail when the file holds it, so a changed "Re:" subject stays in.
        thread: `${baseSubject(subjects.get(rootId) ?? subject) || '(no subject)'} ${rootId}`
          .trim()
          .slice(0, 2000),
      },
      source: { name: 'mbox', external_id: `mbox:${externalId}`.slice(0, 2000) },
      occurred_at: written ?? receivedAt ?? undefined,
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

/** The header block of a raw message: up to and including the blank line that ends it. */
function headerBlock(raw: Buffer): Buffer {
  let start = 0;
  for (let nl = raw.indexOf(0x0a); nl !== -1; nl = raw.indexOf(0x0a, start)) {
    if (nl === start || (nl === start + 1 && raw[start] === 0x0d)) return raw.subarray(0, nl + 1);
    start = nl + 1;
  }
  return raw;
}

/**
 * A string that holds only its own characters: V8 keeps a substring as a view of the string it was
 * cut from, and the subject map below lives for the whole import (a fifth smaller this way). A
 * JSON round trip copies every string exactly, lone surrogates included.
 */
const ownCopy = (s: string) => JSON.parse(JSON.stringify(s)) as string;

/**
 * First pass: the subject of every mail with a Message-ID (the first mail wins), so a reply is named
 * after its thread's first mail wherever in the file that mail lies; Takeout files are not in thread
 * order. Only header blocks are parsed; the map (an id and a subject per mail) is what stays in
 * memory. null when the file holds no message at all.
 */
async function threadSubjects(
  path: string,
  selfName: string | undefined,
  onScan: ((fraction: number) => void) | undefined,
): Promise<{ subjects: Map<string, string>; selfAddresses: Set<string>; messages: number } | null> {
  const subjects = new Map<string, string>();
  const selfAddresses = new Set<string>();
  let messages = 0;
  // A Takeout mailbox of several GB takes minutes to read once before its first mail is sent.
  const bytes = onScan ? (await stat(path)).size : 0;
  let seen = 0;
  for await (const { raw, size, separator } of readMbox(path)) {
    messages++;
    seen += size + separator.length + 2;
    if (onScan && bytes > 0) onScan(Math.min(1, seen / bytes));
    if (!raw) continue;
    try {
      const head = await PostalMime.parse(mailForPostalMime(headerBlock(raw)));
      const id = head.messageId?.trim();
      if (id && head.subject && !subjects.has(id))
        subjects.set(ownCopy(id), ownCopy(c1Repaired(head.subject)));
      const from = mailboxes(head.from)[0];
      if (from?.address && namesSelf({ ...from, name: c1Repaired(from.name) }, selfName))
        selfAddresses.add(ownCopy(from.address.toLowerCase()));
    } catch {
      // The second pass parses the whole message and reports it as unreadable.
    }
  }
  return messages === 0 ? null : { subjects, selfAddresses, messages };
}

/**
 * The Date row of the block postal-mime writes into a mail's text for a mail attached to it (a line of
 * dashes, "From:    …", "Date:    …"): written in this machine's zone and locale ("3/8/2024, 10:00:00"),
 * so the same mailbox read on another machine gave another text (a replaced Record), and no offset said
 * which hour it was.
 */
const attachedDateRow = /^(-{10,}\n(?:(?:From|Subject|To|Cc|Bcc): [^\n]*\n)*Date: +)\S[^\n]*$/gmu;

/**
 * The mail's text with each attached mail's Date row written as its Date header says it, as an RFC 3339
 * time (postal-mime gives the header as ISO 8601 in UTC, or as written when it does not parse). The
 * attached mails are read apart once more, in the order postal-mime writes them; a row whose mail is
 * not found stays as it was.
 */
async function withAttachedDates(raw: Buffer, email: Email): Promise<Email> {
  // search, not test: it ignores the pattern's `g` and leaves its lastIndex as it was.
  if (!email.text || email.text.search(attachedDateRow) === -1) return email;
  const apart = await PostalMime.parse(mailForPostalMime(raw), {
    forceRfc822Attachments: true,
    attachmentEncoding: 'arraybuffer',
  });
  const dates: (string | undefined)[] = [];
  for (const a of apart.attachments) {
    if (a.mimeType !== 'message/rfc822') continue;
    try {
      dates.push((await PostalMime.parse(a.content as ArrayBuffer)).date);
    } catch {
      dates.push(undefined);
    }
  }
  let k = 0;
  const text = email.text.replace(attachedDateRow, (row, head: string) => {
    const date = dates[k++];
    return date ? `${head}${date}` : row;
  });
  return { ...email, text };
}

/** Mails attached whole beyond this many are left as attachment lines: a digest's hundreds would be one Record. */
const maxAttachedMails = 20;

/**
 * A mail forwarded as an attachment ("Forward as attachment" in Gmail, Outlook and Apple Mail: a
 * `message/rfc822` part with `Content-Disposition: attachment`), its text written into the mail's below
 * a forward's marker, with its sender, date and subject, as postal-mime writes one attached inline. Only
 * "[attachment: Flight numbers.eml (message/rfc822)]" was kept, and what it said was lost. The marker
 * makes it someone else's words (not-said.ts), found and quoted but owned by no one who only forwarded it.
 */
async function withForwardedMails(email: Email): Promise<Email> {
  const attached = email.attachments.filter(
    (a) =>
      a.mimeType === 'message/rfc822' && a.disposition === 'attachment' && a.content instanceof ArrayBuffer,
  );
  if (attached.length === 0 || attached.length > maxAttachedMails) return email;
  const blocks: string[] = [];
  const read = new Set<unknown>();
  for (const a of attached) {
    try {
      const inner = await PostalMime.parse(a.content as ArrayBuffer);
      const text = bodyText(inner);
      const from = mailboxes(inner.from)[0];
      const head = [
        '---------- Forwarded message ---------',
        from ? `From: ${show(from)}` : '',
        inner.date ? `Date: ${inner.date}` : '',
        inner.subject ? `Subject: ${inner.subject.trim()}` : '',
        mailboxes(inner.to).length ? `To: ${mailboxes(inner.to).map(show).join(', ')}` : '',
      ].filter(Boolean);
      blocks.push([head.join('\n'), text].filter(Boolean).join('\n\n'));
      read.add(a);
    } catch {
      // Unreadable: it stays an attachment line.
    }
  }
  if (blocks.length === 0) return email;
  return {
    ...email,
    // The mail's own words as mailToRecord reads them (an HTML-only mail's too), then the forwarded ones.
    text: [bodyText(email), ...blocks].filter(Boolean).join('\n\n'),
    attachments: email.attachments.filter((a) => !read.has(a)),
  };
}

/** A mail's bytes parsed, or why they cannot be. */
async function parsedMail(raw: Buffer): Promise<Email | { unreadable: string }> {
  try {
    // Raw 8-bit headers that are not UTF-8 are Windows-1252 (postal-mime would make them U+FFFD);
    // the untouched bytes still name a message without a Message-ID.
    let email = await PostalMime.parse(mailForPostalMime(raw), { attachmentEncoding: 'arraybuffer' });
    // U+FFFD: maybe an encoded text part without a charset, which only a second reading decodes.
    if (email.text?.includes('\ufffd') || email.html?.includes('\ufffd'))
      email = await PostalMime.parse(mailForPostalMime(raw, { decodeToCheck: true }), {
        attachmentEncoding: 'arraybuffer',
      });
    return c1Repaired(await withForwardedMails(await withAttachedDates(raw, email)));
  } catch (e) {
    return { unreadable: errorMessage(e) };
  }
}

/**
 * One `message` Record per mail: sender as speaker, recipients and subject in the text, thread by
 * References. The file is read as a stream, twice (thread subjects, then the mails), and each mail is
 * handed on as soon as it is parsed, so memory follows the largest mail rather than the file. A file
 * with no separator that begins as a mail's header does (a `.eml`, saved from a mail program) is that
 * one mail, named as it would be inside an mbox.
 */
export async function* parseMbox(path: string, o: ParseOptions): AsyncGenerator<ImportItem> {
  const read = await threadSubjects(path, o.selfName, o.onScan);
  if (!read) {
    yield await ((await isOneMail(path))
      ? oneMail(path, o)
      : skip(path, 'no "From " separator line: not an mbox file'));
    return;
  }
  let index = 0;
  for await (const { line, separator, raw, size, endsMidLine } of readMbox(path)) {
    // The first pass counted the messages.
    index += 1;
    o.onRead?.(Math.min(1, (index - 1) / read.messages));
    const ref = `line ${line}`;
    // A cut copy of a mail would replace the whole one an earlier import wrote (same Message-ID).
    const last = index === read.messages;
    if (raw && last && multipartUnclosed(raw)) {
      yield skip(
        ref,
        'the file ends inside this message, which is cut short: not imported (a whole copy of the file ' +
          'imports it; what an earlier import kept of it stays)',
      );
      continue;
    }
    if (!raw) {
      yield skip(
        ref,
        `message of ${Math.round(size / 2 ** 20)} MiB is over the ${maxMessageBytes / 2 ** 20} MiB limit ` +
          '(or the separator line of the next one was not recognised)',
      );
      continue;
    }
    const email = await parsedMail(raw);
    if ('unreadable' in email) {
      yield skip(ref, `unreadable message: ${email.unreadable}`);
      continue;
    }
    const named = email.messageId ? `${ref} ${email.messageId}` : ref;
    const item = mailToRecord(
      email,
      raw,
      named,
      o,
      read.subjects,
      separatorDate(separator),
      read.selfAddresses,
    );
    // No line end after its last line: whole, if its file lost only that, or cut short.
    yield endsMidLine && item.type === 'record'
      ? {
          ...item,
          mayBeCut: true,
          note: [
            item.note,
            'the file ends inside its last line, so it may be cut short: it replaces no copy imported before',
          ]
            .filter(Boolean)
            .join('; '),
        }
      : item;
  }
}

/**
 * Whether a multipart mail lacks its closing boundary ("--b--"), as one whose file was cut after a
 * line end does. Only the top-level boundary of the header block is looked for.
 */
function multipartUnclosed(raw: Buffer): boolean {
  const head = headerBlock(raw).toString('latin1');
  const type = /^content-type:[^\n]*(?:\r?\n[ \t][^\n]*)*/imu.exec(head)?.[0] ?? '';
  if (!/multipart\//iu.test(type)) return false;
  const boundary = /boundary\s*=\s*(?:"([^"]+)"|([^\s;]+))/iu.exec(type);
  const b = boundary?.[1] ?? boundary?.[2];
  return b !== undefined && !raw.includes(`--${b}--`, 0, 'latin1');
}

/** A header field's line ("Received: …", "X-Mailer: …") or its folded continuation. */
const headerLine = /^(?:[\x21-\x39\x3b-\x7e]+:|[ \t])/;

/** Whether a file without separators opens as one mail: a header block that names a sender. */
async function isOneMail(path: string): Promise<boolean> {
  const lines = (await readHead(path, 16 * 1024)).split(/\r?\n/);
  const end = lines.indexOf('');
  const block = end === -1 ? lines.slice(0, -1) : lines.slice(0, end);
  return (
    block.length > 0 &&
    !/^[ \t]/.test(block[0]!) &&
    block.every((l) => headerLine.test(l)) &&
    block.some((l) => /^from:/i.test(l))
  );
}

async function oneMail(path: string, o: ParseOptions): Promise<ImportItem> {
  const ref = 'message';
  const { size } = await stat(path);
  if (size > maxMessageBytes)
    return skip(
      ref,
      `message of ${Math.round(size / 2 ** 20)} MiB is over the ${maxMessageBytes / 2 ** 20} MiB limit`,
    );
  const raw = await readFile(path);
  const email = await parsedMail(raw);
  if ('unreadable' in email) return skip(ref, `unreadable message: ${email.unreadable}`);
  return mailToRecord(email, raw, email.messageId ? `${ref} ${email.messageId}` : ref, o);
}
