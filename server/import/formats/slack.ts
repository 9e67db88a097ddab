import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { NodeType, parse as parseMrkdwn, type Node as SlackNode } from 'slack-message-parser';
import { readText } from '../decode-text.ts';
import { skip, type ImportItem, type ParseOptions } from '../import-item.ts';
import { isObj, str } from './json-fields.ts';
import { epochSecondsToIso } from '../zoned-time.ts';
import { errorMessage } from '../../../engine/index.ts';

async function readJsonArray(path: string): Promise<unknown[]> {
  try {
    const v: unknown = JSON.parse(await readText(path));
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}

/** Subtypes that are Slack's own notices, not something a person said. */
const noticeSubtypes = new Set([
  'channel_join',
  'channel_leave',
  'channel_topic',
  'channel_purpose',
  'channel_name',
  'channel_archive',
  'channel_unarchive',
  'group_join',
  'group_leave',
  'pinned_item',
  'unpinned_item',
  'bot_add',
  'bot_remove',
  'tombstone',
]);

/**
 * Slack's encoding of mentions, links and specials to readable text: `<@U1>` to `@Name`,
 * `<#C1|general>` to `#general`, links to `label (url)`, and the three entities Slack escapes.
 */
function decodeSpecials(text: string, users: Map<string, string>): string {
  return (
    text
      .replace(
        /<@([UW][A-Z0-9]+)(?:\|([^<>]+))?>/g,
        (_m, id: string, label?: string) => `@${users.get(id) ?? label ?? id}`,
      )
      .replace(/<#[CG][A-Z0-9]+\|([^<>]*)>/g, (_m, name: string) => `#${name}`)
      .replace(/<!(here|channel|everyone)(?:\|[^<>]*)?>/g, '@$1')
      // A user group (`<!subteam^S1|@design>`) by its handle; a date (`<!date^1392734382^{date}|Feb 18>`)
      // and any other special by the text Slack gives for clients that cannot render it.
      .replace(
        /<!subteam\^([A-Z0-9]+)(?:\|@?([^<>]+))?>/g,
        (_m, id: string, handle?: string) => `@${handle ?? id}`,
      )
      .replace(/<![^<>|]*\|([^<>]+)>/g, '$1')
      .replace(/<(https?:[^<|>]+)\|([^<>]+)>/g, '$2 ($1)')
      .replace(/<(https?:[^<>]+)>/g, '$1')
      .replace(/<mailto:([^<|>]+)(?:\|[^<>]+)?>/g, '$1')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&')
  );
}

/**
 * Slack mrkdwn to readable text: what a person said, without the `*bold*`, `_italic_` and `~strike~`
 * marks a search or an answer would quote, and with mentions and links as decodeSpecials reads them.
 * slack-message-parser tells marks from characters the way Slack does (`snake_case`, `2*3*4` and an
 * unpaired `*` are text). Code keeps its backticks and every character inside: `a*b*c` is code, not
 * emphasis; only Slack's own escaping of `<`, `>`, `&` and of links is undone there. A quote keeps `>`.
 */
export function slackText(text: string, users: Map<string, string>): string {
  const render = (nodes: readonly SlackNode[]): string => nodes.map(one).join('');
  const one = (n: SlackNode): string => {
    switch (n.type) {
      case NodeType.Bold:
      case NodeType.Italic:
      case NodeType.Strike:
        return render(n.children);
      case NodeType.Quote:
        return `>${render(n.children)}${n.source.endsWith('\n') ? '\n' : ''}`;
      case NodeType.Code:
        return `\`${decodeSpecials(n.text, users)}\``;
      case NodeType.PreText:
        return `\`\`\`${decodeSpecials(n.text, users)}\`\`\``;
      case NodeType.URL:
        // A link's label may carry marks of its own (`<https://x|*the plan*>`).
        return n.label && !n.url.startsWith('mailto:')
          ? `${render(n.label)} (${decodeSpecials(n.url, users)})`
          : decodeSpecials(n.source, users);
      default:
        return decodeSpecials(n.source, users);
    }
  };
  let nodes: SlackNode[];
  try {
    nodes = parseMrkdwn(text).children;
  } catch {
    // The parser recurses once per quoted line: thousands of them (a pasted log) overflow its stack.
    // That message keeps its marks rather than failing its file.
    return decodeSpecials(text, users);
  }
  return render(nodes);
}

/**
 * What a person's message says in its rich-text blocks alone, when its `text` is empty (some exports,
 * and messages sent from some clients): sections, lists, quotes and code as lines, a mention by the
 * person's name, a link by its words (or address), an emoji by its name.
 */
function richText(m: Record<string, unknown>, users: Map<string, string>): string {
  const inline = (e: unknown): string => {
    if (!isObj(e)) return '';
    switch (e.type) {
      case 'text':
        return str(e.text) ?? '';
      case 'link':
        return str(e.text) ?? str(e.url) ?? '';
      case 'user':
        return `@${users.get(str(e.user_id) ?? '') ?? str(e.user_id) ?? 'someone'}`;
      case 'channel':
        return `#${str(e.channel_id) ?? 'channel'}`;
      case 'emoji':
        return `:${str(e.name) ?? ''}:`;
      case 'broadcast':
        return `@${str(e.range) ?? 'here'}`;
      case 'usergroup':
        return `@${str(e.usergroup_id) ?? 'group'}`;
      case 'date':
        return str(e.fallback) ?? '';
      default:
        return '';
    }
  };
  const lines = (el: unknown): string[] => {
    if (!isObj(el)) return [];
    const parts = Array.isArray(el.elements) ? el.elements : [];
    if (el.type === 'rich_text_list' || el.type === 'rich_text') return parts.flatMap(lines);
    const said = parts.map(inline).join('');
    // Every line of a quote is marked, so none reads as the sender's own words.
    return el.type === 'rich_text_quote' ? said.split('\n').map((line) => `> ${line}`) : [said];
  };
  return (Array.isArray(m.blocks) ? m.blocks : [])
    .filter((b) => isObj(b) && b.type === 'rich_text')
    .flatMap(lines)
    .map((l) => l.trim())
    .filter(Boolean)
    .join('\n');
}

/**
 * What a bot's message with no text of its own says: its (or an integration's) attachments, each by its
 * pretext, title and text, else its fallback; else its blocks' section texts. A person's message with
 * text keeps only that: its attachments are then link previews, the linked page's words, not theirs.
 */
function attachedText(m: Record<string, unknown>): string {
  const attachments = (Array.isArray(m.attachments) ? m.attachments : []).filter(isObj).map((a) => {
    const own = [str(a.pretext), str(a.title), str(a.text)].filter(Boolean).join('\n');
    return own || (str(a.fallback) ?? '');
  });
  const blocks = (Array.isArray(m.blocks) ? m.blocks : [])
    .filter(isObj)
    .flatMap((b) => [b.text, ...(Array.isArray(b.fields) ? b.fields : [])])
    .map((t) => (isObj(t) ? (str(t.text) ?? '') : ''));
  const texts = attachments.some(Boolean) ? attachments : blocks;
  return texts.filter(Boolean).join('\n');
}

/** The stats made at once while an export's days are listed. */
const statsAtOnce = 64;

/**
 * The day files (`YYYY-MM-DD.json`) of each conversation folder, in order, each with its size (0 when it
 * cannot be told): the sizes are asked for as the folders are listed, many at once. One awaited after
 * another, before the first message was read, they held it back (30,000 days: seconds).
 */
async function listDays(
  path: string,
  folders: readonly string[],
): Promise<Array<{ folder: string; day: string; bytes: number }>> {
  const days = await Promise.all(
    folders.map(async (folder) =>
      (await readdir(join(path, folder)))
        .filter((f) => /^\d{4}-\d{2}-\d{2}\.json$/.test(f))
        .sort()
        .map((day) => ({ folder, day, bytes: 0 })),
    ),
  ).then((each) => each.flat());
  let next = 0;
  const sizeNext = async (): Promise<void> => {
    for (let i = next++; i < days.length; i = next++) {
      const d = days[i]!;
      d.bytes = (await stat(join(path, d.folder, d.day)).catch(() => null))?.size ?? 0;
    }
  };
  await Promise.all(Array.from({ length: statsAtOnce }, sizeNext));
  return days;
}

/**
 * Slack workspace export folder: users.json names people; channels.json, groups.json, dms.json and
 * mpims.json name conversations; each conversation folder holds one JSON array per day. One `message`
 * Record per message; a thread reply's thread names its parent.
 */
export async function* parseSlack(path: string, o: ParseOptions): AsyncGenerator<ImportItem> {
  if (!(await stat(path)).isDirectory()) {
    yield skip(path, 'not a Slack export: Slack exports a folder (or its .zip) of channels, not one file');
    return;
  }
  const users = new Map<string, string>();
  const aliases = new Map<string, string[]>(); // user id -> every name --self may use
  for (const u of await readJsonArray(join(path, 'users.json'))) {
    if (!isObj(u) || !str(u.id)) continue;
    const id = u.id as string;
    const profile = isObj(u.profile) ? u.profile : {};
    // The full name first, as mail and contacts name the person ("Carol Diaz", not the handle "carol"), so
    // one person is one speaker across imports; every name stays an alias for --self.
    const names = [str(u.real_name), str(profile.real_name), str(profile.display_name), str(u.name)].filter(
      (n): n is string => !!n,
    );
    users.set(id, names[0] ?? id);
    aliases.set(
      id,
      [id, ...names].map((n) => n.toLowerCase()),
    );
  }
  const conversations = new Map<string, string>(); // folder name -> conversation id
  // A direct message's folder is its id ("D01") and a group's "mpdm-maria--bob--dana-1": its thread is
  // named by the people in it instead, the person's own name left out.
  const self = o.selfName?.toLowerCase();
  const selfId = self === undefined ? undefined : [...aliases].find(([, names]) => names.includes(self))?.[0];
  const peopleThreads = new Map<string, string>(); // folder name -> "DM with Bob Smith"
  for (const file of ['channels.json', 'groups.json', 'dms.json', 'mpims.json']) {
    for (const c of await readJsonArray(join(path, file))) {
      if (!isObj(c) || !str(c.id)) continue;
      const folder = str(c.name) ?? (c.id as string);
      conversations.set(folder, c.id as string);
      if (file !== 'dms.json' && file !== 'mpims.json') continue;
      const members = (Array.isArray(c.members) ? c.members : []).filter(
        (m): m is string => typeof m === 'string',
      );
      const others = members.filter((m) => m !== selfId);
      const named = (others.length > 0 ? others : members).map((m) => users.get(m) ?? m);
      if (named.length > 0)
        peopleThreads.set(folder, `${file === 'dms.json' ? 'DM' : 'Group DM'} with ${named.join(', ')}`);
    }
  }
  const entries = await readdir(path, { withFileTypes: true });
  const folders = entries
    .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
    .map((e) => e.name)
    .sort();
  if (folders.length === 0) {
    yield skip(path, 'no conversation folders: not a Slack export');
    return;
  }
  // Every day's file and its size before the first is read: the share of the export read is the share
  // of its bytes (ParseOptions.onRead), as a day's messages are a day's bytes.
  const dayFiles = await listDays(path, folders);
  const allBytes = dayFiles.reduce((n, f) => n + f.bytes, 0);
  let bytesRead = 0;
  for (const [n, { folder, day, bytes }] of dayFiles.entries()) {
    if (n > 0) o.onRead?.(allBytes > 0 ? bytesRead / allBytes : n / dayFiles.length);
    bytesRead += bytes;
    const channelId = conversations.get(folder) ?? folder;
    const file = join(path, folder, day);
    let messages: unknown;
    try {
      messages = JSON.parse(await readText(file));
    } catch (e) {
      yield skip(`${folder}/${day}`, `unreadable JSON: ${errorMessage(e)}`);
      continue;
    }
    if (!Array.isArray(messages)) {
      yield skip(`${folder}/${day}`, 'expected an array of messages');
      continue;
    }
    for (const [i, m] of messages.entries()) {
      const ts = isObj(m) ? str(m.ts) : undefined;
      const ref = `${folder}/${day}#${ts ?? i + 1}`;
      if (!isObj(m) || !ts) {
        yield skip(ref, 'message has no ts');
        continue;
      }
      const subtype = str(m.subtype);
      if (subtype && noticeSubtypes.has(subtype)) {
        yield skip(ref, `Slack notice (${subtype})`);
        continue;
      }
      const files = (Array.isArray(m.files) ? m.files : [])
        .filter(isObj)
        .map((f) => `[attachment: ${str(f.name) ?? str(f.title) ?? 'file'}]`);
      const said = slackText(typeof m.text === 'string' ? m.text : '', users).trim();
      // Only a bot's: a person's message of attachments alone shares someone else's words.
      const bot = str(m.bot_id) !== undefined || m.subtype === 'bot_message' || isObj(m.bot_profile);
      const text = [said || (bot ? slackText(attachedText(m), users).trim() : richText(m, users)), ...files]
        .filter(Boolean)
        .join('\n');
      const at = epochSecondsToIso(ts);
      if (!text || !at) {
        yield skip(ref, text ? 'unreadable ts' : 'message has no text');
        continue;
      }
      const profile = isObj(m.user_profile) ? m.user_profile : {};
      const userId = str(m.user);
      const speaker =
        (userId && users.get(userId)) ??
        str(profile.real_name) ??
        str(profile.display_name) ??
        str(m.username) ??
        (isObj(m.bot_profile) ? str(m.bot_profile.name) : undefined) ??
        userId ??
        'unknown';
      const isSelf =
        self !== undefined &&
        (speaker.toLowerCase() === self || (userId !== undefined && !!aliases.get(userId)?.includes(self)));
      const threadTs = str(m.thread_ts);
      yield {
        type: 'record',
        ref,
        body: {
          content: {
            kind: 'message',
            text,
            speaker: isSelf ? 'self' : speaker.slice(0, 2000),
            thread:
              `${peopleThreads.get(folder) ?? `#${folder}`}${threadTs ? ` thread ${threadTs}` : ''}`.slice(
                0,
                2000,
              ),
          },
          source: { name: 'slack', external_id: `slack:${channelId}:${ts}` },
          occurred_at: at,
        },
      };
    }
  }
}

export async function isSlackExport(path: string): Promise<boolean> {
  try {
    return (
      (await stat(join(path, 'users.json'))).isFile() && (await stat(join(path, 'channels.json'))).isFile()
    );
  } catch {
    return false;
  }
}
