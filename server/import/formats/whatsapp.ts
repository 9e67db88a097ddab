import { basename, dirname, resolve } from 'node:path';
import { readText } from '../decode-text.ts';
import { skip, type ImportItem, type ParseOptions } from '../import-item.ts';
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
function decidedOrder(msgs: Raw[]): 'dmy' | 'mdy' | 'ymd' | null {
  if (msgs.some((m) => m.a > 31)) return 'ymd';
  if (msgs.some((m) => m.a > 12)) return 'dmy';
  if (msgs.some((m) => m.b > 12)) return 'mdy';
  return null;
}

/**
 * Said once, on the chat's first message, when its dates read both ways (a short chat, all on days 1
 * to 12) and no order was asked for: read the other way, every message would be months off. Its times
 * are in its messages' identities, so importing it again the other way needs this import removed first.
 */
function ambiguousDatesNote(msgs: Raw[]): string | null {
  const example = msgs.find((m) => m.a !== m.b);
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

/** How many messages begin with each text before their first ": " (a sender's name, most of the time). */
function prefixCounts(msgs: Raw[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const m of msgs) {
    const first = m.rest[0] ?? '';
    const prefix = first.slice(0, Math.max(0, first.indexOf(': ')));
    if (prefix) counts.set(prefix, (counts.get(prefix) ?? 0) + 1);
  }
  return counts;
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
  const sender = full
    .slice(0, colon)
    .replace(/[\u200e\u200f\u202a-\u202e]/g, '')
    .trim();
  return { sender, text: full.slice(colon + 2) };
}

/** The chat's people other than the user, in the order they first wrote (at most five named). */
function peopleOf(msgs: Raw[], prefixes: Map<string, number>, selfName: string | undefined): string {
  const seen = new Set<string>();
  for (const m of msgs) {
    const s = split(m, prefixes)?.sender;
    if (s && s.toLowerCase() !== selfName?.toLowerCase()) seen.add(s);
  }
  const people = [...seen];
  if (people.length === 0) return 'chat';
  return people.length > 5 ? `${people.slice(0, 5).join(', ')} and others` : people.join(', ');
}

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

/** A chat export's lines, read into messages: what every reading of it (order, zone) starts from. */
export interface Chat {
  msgs: Raw[];
  /** Lines with text before the first message. */
  leading: number[];
}

/**
 * The chat at PATH read into messages, once: the import reads it in the order and zone an earlier
 * import used, which are found by reading it several ways (earlier-zone.ts), each from this.
 */
export async function readChat(path: string): Promise<Chat> {
  const lines = (await readText(path)).split(/\r\n|\r|\n/);
  const msgs: Raw[] = [];
  const leading: number[] = [];
  for (const [i, line] of lines.entries()) {
    const m = header.exec(line);
    if (m) {
      let hour = Number(m[4]);
      if (m[7]) hour = (hour % 12) + (m[7].toLowerCase() === 'p' ? 12 : 0);
      msgs.push({
        line: i + 1,
        a: Number(m[1]),
        b: Number(m[2]),
        c: Number(m[3]),
        hour,
        minute: Number(m[5]),
        second: Number(m[6] ?? 0),
        rest: [m[8] ?? ''],
      });
    } else if (msgs.length > 0) msgs[msgs.length - 1]!.rest.push(line);
    else if (line.trim()) leading.push(i + 1);
  }
  return { msgs, leading };
}

/** Whether the chat's dates read both ways (all on days 1 to 12): its order is then chosen, not read. */
export const readsBothWays = (chat: Chat) => decidedOrder(chat.msgs) === null;

/**
 * One `message` Record per chat message; continuation lines belong to the message above. Times carry no
 * offset in these exports: they are read in `timeZone` (default: this machine's zone).
 */
export async function* parseWhatsapp(path: string, o: ParseOptions): AsyncGenerator<ImportItem> {
  yield* chatItems(await readChat(path), path, o);
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

/** The items of a chat read (readChat) from PATH, in the order and zone O says. */
export function* chatItems({ msgs, leading }: Chat, path: string, o: ParseOptions): Generator<ImportItem> {
  if (msgs.length === 0) {
    yield skip(path, 'no WhatsApp message lines found');
    return;
  }
  for (const line of leading) yield skip(`line ${line}`, 'text before the first message');
  const decided = decidedOrder(msgs);
  const order = decided ?? o.dateOrder ?? 'dmy';
  let note = decided === null && o.dateOrder === undefined ? ambiguousDatesNote(msgs) : null;
  // A lone `_chat.txt` uploaded in the app has no folder of its own to be named after: its people are
  // its name, or every such chat would be one thread ("upload") and share message identities.
  const prefixes = prefixCounts(msgs);
  const group = groupWithColon(msgs[0]!, prefixes);
  const chat =
    o.uploadRoot !== undefined && resolve(dirname(path)) === resolve(o.uploadRoot) && isBareChatFile(path)
      ? peopleOf(msgs, prefixes, o.selfNameByDefault ? undefined : o.selfName)
      : chatName(path);
  const ordinals = new Map<string, number>();
  for (const [i, m] of msgs.entries()) {
    o.onRead?.(i / msgs.length);
    const ref = `line ${m.line}`;
    const [day, month, y] =
      order === 'dmy' ? [m.a, m.b, m.c] : order === 'mdy' ? [m.b, m.a, m.c] : [m.c, m.b, m.a];
    const year = y < 100 ? 2000 + y : y;
    const wall = { year, month, day, hour: m.hour, minute: m.minute, second: m.second };
    if (!isValidWallTime(wall)) {
      yield skip(ref, 'invalid date or time in the message header');
      continue;
    }
    const said = split(m, prefixes);
    if (said === null) {
      yield skip(ref, 'system message (no sender)');
      continue;
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
      yield skip(ref, 'system message');
      continue;
    }
    const text = cleanText(rawText);
    if (!text) {
      yield skip(ref, 'empty message');
      continue;
    }
    if (deletedMessage.test(text)) {
      yield skip(ref, 'deleted message');
      continue;
    }
    if (noMessage(text)) {
      yield skip(ref, 'no message: a view-once photo, or one not yet received');
      continue;
    }
    const instant = wallTimeToDate(wall, o.timeZone);
    const at = instant.toISOString();
    const written = wallTimeWithOffset(wall, instant);
    // No message ids in these exports: time, sender and position among equals identify a message.
    const slot = `${at}|${sender}`;
    const n = (ordinals.get(slot) ?? 0) + 1;
    ordinals.set(slot, n);
    const isSelf = o.selfName !== undefined && sender.toLowerCase() === o.selfName.toLowerCase();
    yield {
      type: 'record',
      ref,
      body: {
        content: {
          kind: 'message',
          text,
          speaker: isSelf ? 'self' : sender.slice(0, 2000),
          thread: `WhatsApp: ${chat}`.slice(0, 2000),
        },
        source: { name: 'whatsapp', external_id: `whatsapp:${chat}:${at}:${sender}:${n}`.slice(0, 2000) },
        occurred_at: written,
      },
      // Keyed by the instant as before the offset was kept, so a message imported then is unchanged.
      ...(written !== at ? { occurredAtInKey: at } : {}),
      ...(note !== null ? { note } : {}),
    };
    note = null;
  }
}
