import { stat } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { skip, type ImportItem, type ParseOptions } from '../import-item.ts';
import {
  decodedText,
  detached,
  fileBytes,
  textEncodingOf,
  textLines,
  type ByteSource,
  type TextEncoding,
} from '../text-lines.ts';
import { isValidWallTime, wallTimeToDate, wallTimeWithOffset } from '../zoned-time.ts';

/**
 * A message header in either export style, with the invisible marks WhatsApp sprinkles in:
 *   iOS      `[31/12/2023, 21:04:05] Anna: text`   or `[12/31/23, 9:04:05 PM] Anna: text`
 *   Android  `31/12/2023, 21:04 - Anna: text`      or `12/31/23, 9:04 PM - Anna: text`, `31.12.23, 21:04 - ...`
 *            `12/03/2024 à 21:15 - Claire: text` (French, its "à" between the date and the time)
 */
const header =
  /^[\u200e\u200f\ufeff]*\[?(\d{1,4})[./-](\d{1,2})[./-](\d{1,4}),?\s+(?:à\s+)?(\d{1,2})[:.](\d{2})(?:[:.](\d{2}))?(?:[\s\u202f\u00a0]*([AaPp])\.?\s?[Mm]\.?)?(?:\]|\s+-\s)\s*(\S.*)?$/;

interface Raw {
  line: number;
  a: number;
  b: number;
  c: number;
  hour: number;
  minute: number;
  second: number;
  rest: string[];
}

/** Which of the first two date fields is the day, as the chat's own dates tell: any value over 12. */
class DateOrder {
  #year = false;
  #dayFirst = false;
  #monthFirst = false;

  see(m: Raw): void {
    this.#year ||= m.a > 31;
    this.#dayFirst ||= m.a > 12;
    this.#monthFirst ||= m.b > 12;
  }

  get decided(): 'dmy' | 'mdy' | 'ymd' | null {
    if (this.#year) return 'ymd';
    if (this.#dayFirst) return 'dmy';
    if (this.#monthFirst) return 'mdy';
    return null;
  }
}

/**
 * Said once, on the chat's first message, when its dates read both ways (a short chat, all on days 1
 * to 12) and no order was asked for: read the other way, every message would be months off. Its times
 * are in its messages' identities, so importing it again the other way needs this import removed first.
 */
function ambiguousDatesNote(example: { a: number; b: number } | null): string | null {
  if (!example) return null;
  const [a, b] = [example.a, example.b];
  const month = (n: number) =>
    new Date(Date.UTC(2000, n - 1, 1)).toLocaleString('en', { month: 'long', timeZone: 'UTC' });
  return (
    `its dates read both ways (${a}/${b} could be ${a} ${month(b)} or ${b} ${month(a)}): read day first; ` +
    'if this chat writes the month first, remove this import and import it again with --date-order mdy ' +
    '(in the app: "Dates in WhatsApp chats", Month first)'
  );
}

/**
 * The chat's name, from the export's file (or, for iOS's `_chat.txt`, folder) name. A browser saves a
 * second download of the same export as "… (1).txt": that copy is the same chat, and a name with the
 * counter would give every message a new identity and import the chat again.
 */
function chatName(path: string): string {
  const file = basename(path)
    .replace(/\.txt$/i, '')
    .replace(/ \(\d+\)$/, '');
  if (file === '_chat' || file.toLowerCase() === 'chat')
    return basename(dirname(path))
      .replace(/ \(\d+\)$/, '')
      .replace(/^WhatsApp Chat - /i, '');
  return file.replace(
    /^(?:WhatsApp[ -]Chat (?:with|mit|con|avec|com|met)|Discussion WhatsApp avec|Conversa do WhatsApp com|Chat de WhatsApp con) /i,
    '',
  );
}

/** iOS's `_chat.txt` (or a `chat.txt`): a chat file named after nothing but its folder. */
export const isBareChatFile = (path: string) => /^_?chat\.txt$/i.test(basename(path));

/** Quotation marks of the languages WhatsApp writes notices in ("…", “…”, „…“, «…»). */
const quoteMarks = /["\u201c\u201d\u201e\u00ab\u00bb]/g;

const oddQuotes = (text: string) => (text.match(quoteMarks)?.length ?? 0) % 2 === 1;

/** A message's text before its first ": " on its first line (a sender's name, most of the time), or "". */
function prefixOf(m: Raw): string {
  const first = m.rest[0] ?? '';
  return first.slice(0, Math.max(0, first.indexOf(': ')));
}

/**
 * Who wrote a message and what, or null for a notice with no sender ("Anna added Ben"). A ": " inside a
 * quotation is no sender's: `Anna created group "Trip: Rome"` is a notice, not a message from `Anna
 * created group "Trip`. It is one when the quotation opens before the ": " and closes after it, on a line
 * whose start no other message shares; a name with a quote of its own (`Dwayne "The Rock`) still writes.
 */
function split(m: Raw, prefixes: Map<string, number>): { sender: string; text: string } | null {
  const full = m.rest.join('\n');
  const colon = full.indexOf(': ');
  if (colon <= 0 || full.slice(0, colon).includes('\n')) return null;
  const prefix = full.slice(0, colon);
  if (oddQuotes(prefix) && oddQuotes(full.slice(colon + 2)) && (prefixes.get(prefix) ?? 0) <= 1) return null;
  return { sender: senderName(prefix), text: full.slice(colon + 2) };
}

/** The chat's people other than the user, in the order they first wrote (at most five named). */
function peopleOf(senders: string[], selfName: string | undefined): string {
  const people = senders.filter((s) => s.toLowerCase() !== selfName?.toLowerCase());
  if (people.length === 0) return 'chat';
  return people.length > 5 ? `${people.slice(0, 5).join(', ')} and others` : people.join(', ');
}

/** The name split (below) reads from a message's text before its ": ". */
const senderName = (prefix: string) => prefix.replace(/[\u200e\u200f\u202a-\u202e]/g, '').trim();

/**
 * What WhatsApp writes in a message's place, in the languages whose exports were checked (English,
 * German, Spanish). Another language's markers stay as the text they are.
 */
const omittedMedia =
  /^<(?:Media omitted|Medien ausgeschlossen|Multimedia omitido)>$|^(image|video|audio|sticker|GIF|document) omitted$/gim;
const editedMark =
  /<(?:This message was edited|Diese Nachricht wurde bearbeitet\.?|Se editó este mensaje\.?)>$/i;
const deletedMessage =
  /^(?:This message was deleted|You deleted this message|Diese Nachricht wurde gelöscht|Du hast diese Nachricht gelöscht|Se eliminó este mensaje|Eliminaste este mensaje)\.?$/i;

/** Android's line for a file exported with the chat: "IMG-20240304-WA0001.jpg (file attached)". */
const androidAttached =
  /^(\S[^\n\r()]*\.[\p{L}\p{N}]{1,6}) \((?:file attached|Datei angehängt|archivo adjunto)\)$/gmu;
/**
 * What stands for a message there is none of: a view-once photo ("null" in Android's exports) and one
 * the phone had not yet decrypted ("Waiting for this message. This may take a while.").
 */
const noMessage = (text: string) =>
  text === 'null' || /^Waiting for this message\.?(?:\s+This may take a while\.?)?$/iu.test(text);

function cleanText(text: string): string {
  return text
    .replace(/[\u200e\u200f]/g, '')
    .replace(/<attached: ([^>]+)>/gi, '[attachment: $1]')
    .replace(androidAttached, '[attachment: $1]')
    .replace(omittedMedia, '[attachment: omitted media]')
    .replace(editedMark, '')
    .trim();
}

/** A header line read into a message, its text's first line in `rest`; null for any other line. */
function headerOf(line: string, lineNo: number): Raw | null {
  const m = header.exec(line);
  if (!m) return null;
  let hour = Number(m[4]);
  if (m[7]) hour = (hour % 12) + (m[7].toLowerCase() === 'p' ? 12 : 0);
  return {
    line: lineNo,
    a: Number(m[1]),
    b: Number(m[2]),
    c: Number(m[3]),
    hour,
    minute: Number(m[5]),
    second: Number(m[6] ?? 0),
    rest: [m[8] ?? ''],
  };
}

/**
 * What a chat export says of itself as a whole: all its items depend on beyond the message being read,
 * found in a first pass that holds one line at a time (readChat), once for an import. The import then
 * reads the file once more, message by message (chatItems), and so does the look for an earlier
 * import's order and zone, in every reading it needs at once (chatReadings, earlier-zone.ts): a chat of
 * any length is read in bounded memory; it was read whole, some eight times its size in memory.
 */
export interface Chat {
  /** The file it was read from. */
  path: string;
  bytes: ByteSource;
  encoding: TextEncoding;
  /** How many messages (header lines) it holds. */
  count: number;
  /** The order its own dates tell (DateOrder), or null when they read both ways. */
  order: 'dmy' | 'mdy' | 'ymd' | null;
  /** Its first message whose first two date fields differ (ambiguousDatesNote). */
  example: { a: number; b: number } | null;
  /** How many messages begin with each text before their first ": " (split). */
  prefixes: Map<string, number>;
  /** The first message, whole (groupWithColon). */
  first: Raw | null;
  /** Who wrote, in the order they first did: each sender split finds (peopleOf). */
  senders: string[];
}

/**
 * The chat at PATH read once through (see Chat). `onScan` hears the share of its bytes read; `bytes`,
 * the file's bytes as they are read (tests cut them into chunks of any size).
 */
export async function readChat(
  path: string,
  onScan?: (fraction: number) => void,
  bytes: ByteSource = fileBytes(path),
): Promise<Chat> {
  const size = onScan ? (await stat(path)).size : 0;
  // Two passes over the bytes (the encoding is only known once all are read): each half the scan.
  const heard = (half: number) => (n: number) => {
    if (size > 0) onScan!(Math.min(1, (half + Math.min(1, n / size)) / 2));
  };
  const encoding = await textEncodingOf(bytes, heard(0));
  const hearDecoded = heard(1);
  const counted: ByteSource = async function* () {
    let n = 0;
    for await (const chunk of bytes()) {
      n += chunk.length;
      hearDecoded(n);
      yield chunk;
    }
  };
  const order = new DateOrder();
  const prefixes = new Map<string, number>();
  // Each prefix's first message, and whether split reads no sender there when no other message has it.
  const firstOf = new Map<string, { index: number; quoted: boolean }>();
  let example: Chat['example'] = null;
  let first: Raw | null = null;
  let count = 0;
  // The current message's prefix, and the parity of the quotation marks after its ": " so far.
  let said: { prefix: string; index: number; odd: boolean } | null = null;
  const finish = () => {
    if (said !== null && !firstOf.has(said.prefix))
      firstOf.set(said.prefix, { index: said.index, quoted: oddQuotes(said.prefix) && said.odd });
  };
  let lineNo = 0;
  for await (const line of textLines(decodedText(counted, encoding))) {
    lineNo += 1;
    const m = headerOf(line, lineNo);
    if (m === null) {
      if (count === 1) first!.rest.push(line);
      // Joined by "\n", which is no quotation mark: the parity of the whole is that of its lines.
      if (said !== null && oddQuotes(line)) said.odd = !said.odd;
      continue;
    }
    finish();
    order.see(m);
    if (example === null && m.a !== m.b) example = { a: m.a, b: m.b };
    first ??= m;
    const prefix = prefixOf(m);
    said = null;
    if (prefix) {
      const seen = prefixes.get(prefix);
      // Kept for the whole chat: not as a view of the chunk of text it was read from (detached).
      const key = seen === undefined ? detached(prefix) : prefix;
      prefixes.set(key, (seen ?? 0) + 1);
      said = { prefix: key, index: count, odd: oddQuotes(m.rest[0]!.slice(prefix.length + 2)) };
    }
    count += 1;
  }
  finish();
  // A prefix split reads as a sender: on every message when more than one has it, else unless quoted.
  const firstWrote = new Map<string, number>();
  for (const [prefix, { index, quoted }] of firstOf) {
    const sender = senderName(prefix);
    if (!sender || (quoted && prefixes.get(prefix)! <= 1)) continue;
    firstWrote.set(sender, Math.min(index, firstWrote.get(sender) ?? Infinity));
  }
  const senders = [...firstWrote].sort((x, y) => x[1] - y[1]).map(([sender]) => sender);
  return { path, bytes, encoding, count, order: order.decided, example, prefixes, first, senders };
}

/** Whether the chat's dates read both ways (all on days 1 to 12): its order is then chosen, not read. */
export const readsBothWays = (chat: Chat) => chat.order === null;

/**
 * One `message` Record per chat message; continuation lines belong to the message above. Times carry no
 * offset in these exports: they are read in `timeZone` (default: this machine's zone). The chat's first
 * pass is `o.whatsappChat` when one was made of it (readingOptions), else made here.
 */
export async function* parseWhatsapp(path: string, o: ParseOptions): AsyncGenerator<ImportItem> {
  const read = o.whatsappChat?.path === path ? o.whatsappChat : undefined;
  yield* chatItems(read ?? (await readChat(path, o.onScan)), path, o);
}

/**
 * The ordinal of a message among those of the same instant and sender so far, which its identity
 * holds. Every message is counted for the rest of the chat (its clock may go back), in a small entry:
 * seconds from the chat's first instant, by sender; a string key only for an instant off the second.
 */
class Ordinals {
  #base: number | null = null;
  #bySender = new Map<string, Map<number, number>>();
  #other = new Map<string, number>();

  next(instant: Date, sender: string): number {
    const ms = instant.getTime();
    this.#base ??= ms;
    const seconds = (ms - this.#base) / 1000;
    if (Number.isInteger(seconds) && Math.abs(seconds) < 2 ** 30) {
      let counts = this.#bySender.get(sender);
      if (counts === undefined) this.#bySender.set(detached(sender), (counts = new Map()));
      const n = (counts.get(seconds) ?? 0) + 1;
      counts.set(seconds, n);
      return n;
    }
    const slot = `${instant.toISOString()}|${sender}`;
    const n = (this.#other.get(slot) ?? 0) + 1;
    this.#other.set(slot, n);
    return n;
  }
}

/**
 * The name of a group that holds ": " ("Porto trip: April"), as its notices name it, from the export's
 * first line: iOS opens every chat with its encryption notice, the LRM right after the name's end
 * ("Porto trip: April: <LRM>Messages and calls are end-to-end encrypted."). Null for any other chat.
 */
function groupWithColon(first: Raw, prefixes: Map<string, number>): string | null {
  const said = split(first, prefixes);
  if (said === null) return null;
  const at = said.text.indexOf(': \u200e');
  return at > 0 && !said.text.slice(0, at).includes('\n')
    ? `${said.sender}: ${said.text.slice(0, at)}`
    : null;
}

/** The items of a chat read (readChat) from PATH, in the order and zone O says, read as the file is. */
export async function* chatItems(chat: Chat, path: string, o: ParseOptions): AsyncGenerator<ImportItem> {
  for await (const items of chatReadings(chat, path, [o])) yield items[0]!;
}

/**
 * The chat read (readChat) from PATH once more, each message read in every one of READINGS (an order,
 * a zone) side by side: the items of one message, one a reading, index for index. The looks for an
 * earlier import's order and zone (earlier-zone.ts) need two readings of each message; read apart,
 * each was a read of the file.
 */
export async function* chatReadings(
  chat: Chat,
  path: string,
  readings: readonly ParseOptions[],
): AsyncGenerator<ImportItem[]> {
  if (chat.count === 0 || chat.first === null) {
    yield readings.map(() => skip(path, 'no WhatsApp message lines found'));
    return;
  }
  const first = chat.first;
  const readers = readings.map((o) => messageReader(chat, first, path, o));
  const each = (m: Raw) => readers.map((itemOf) => itemOf(m));
  let message: Raw | null = null;
  let lineNo = 0;
  for await (const line of textLines(decodedText(chat.bytes, chat.encoding))) {
    lineNo += 1;
    const m = headerOf(line, lineNo);
    if (m !== null) {
      if (message !== null) yield each(message);
      message = m;
    } else if (message !== null) message.rest.push(line);
    else if (line.trim()) yield readings.map(() => skip(`line ${lineNo}`, 'text before the first message'));
  }
  if (message !== null) yield each(message);
}

/** Each message of a chat, whose first is FIRST, as one reading (O's order and zone) makes it an item. */
function messageReader(chat: Chat, first: Raw, path: string, o: ParseOptions): (m: Raw) => ImportItem {
  const order = chat.order ?? o.dateOrder ?? 'dmy';
  let note = chat.order === null && o.dateOrder === undefined ? ambiguousDatesNote(chat.example) : null;
  const { prefixes } = chat;
  const group = groupWithColon(first, prefixes);
  // A lone `_chat.txt` uploaded in the app has no folder of its own to be named after: its people are
  // its name, or every such chat would be one thread ("upload") and share message identities.
  const name =
    o.uploadRoot !== undefined && resolve(dirname(path)) === resolve(o.uploadRoot) && isBareChatFile(path)
      ? peopleOf(chat.senders, o.selfNameByDefault ? undefined : o.selfName)
      : chatName(path);
  const ordinals = new Ordinals();
  let read = 0;

  return (m: Raw): ImportItem => {
    o.onRead?.(Math.min(1, read++ / chat.count));
    const ref = `line ${m.line}`;
    const [day, month, y] =
      order === 'dmy' ? [m.a, m.b, m.c] : order === 'mdy' ? [m.b, m.a, m.c] : [m.c, m.b, m.a];
    const year = y < 100 ? 2000 + y : y;
    const wall = { year, month, day, hour: m.hour, minute: m.minute, second: m.second };
    if (!isValidWallTime(wall)) {
      return skip(ref, 'invalid date or time in the message header');
    }
    const said = split(m, prefixes);
    if (said === null) {
      return skip(ref, 'system message (no sender)');
    }
    const { sender, text: spoken } = said;
    // The export's last line ends with a line break, read as an empty line of the last message: an
    // attachment's message must end where "omitted" is looked for.
    const rawText = spoken.trimEnd();
    // iOS marks notices ("Messages and calls are end-to-end encrypted", "Anna added Ben") with a leading
    // LRM, and also what stands for a message: an attachment, omitted media, a shared location (a link).
    // The LRM follows the ": " that ends the sender, which for a group named "Porto trip: April" is not
    // the first one: that group's name is read from the export's first line, always such a notice.
    const lrm = rawText.indexOf(': \u200e');
    const marked =
      group !== null && lrm > 0 && `${sender}: ${rawText.slice(0, lrm)}` === group
        ? rawText.slice(lrm + 2)
        : rawText;
    if (
      /^\u200e/.test(marked) &&
      !/^\u200e\s*(?:<attached:|\w[\w ]* omitted$)/i.test(marked) &&
      !/https?:\/\//i.test(marked)
    ) {
      return skip(ref, 'system message');
    }
    const text = cleanText(rawText);
    if (!text) {
      return skip(ref, 'empty message');
    }
    if (deletedMessage.test(text)) {
      return skip(ref, 'deleted message');
    }
    if (noMessage(text)) {
      return skip(ref, 'no message: a view-once photo, or one not yet received');
    }
    const instant = wallTimeToDate(wall, o.timeZone);
    const at = instant.toISOString();
    const written = wallTimeWithOffset(wall, instant);
    // No message ids in these exports: time, sender and position among equals identify a message.
    const n = ordinals.next(instant, sender);
    const isSelf = o.selfName !== undefined && sender.toLowerCase() === o.selfName.toLowerCase();
    const item: ImportItem = {
      type: 'record',
      ref,
      body: {
        content: {
          kind: 'message',
          text,
          speaker: isSelf ? 'self' : sender.slice(0, 2000),
          thread: `WhatsApp: ${name}`.slice(0, 2000),
        },
        source: { name: 'whatsapp', external_id: `whatsapp:${name}:${at}:${sender}:${n}`.slice(0, 2000) },
        occurred_at: written,
      },
      // Keyed by the instant as before the offset was kept, so a message imported then is unchanged.
      ...(written !== at ? { occurredAtInKey: at } : {}),
      ...(note !== null ? { note } : {}),
    };
    note = null;
    return item;
  };
}
