import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { errorMessage } from '../../../engine/index.ts';
import { readJsonExportText } from '../decode-text.ts';
import { skip, type ImportItem, type ParseOptions } from '../import-item.ts';
import { isObj, str, type Json } from './json-fields.ts';
import { epochSecondsToIso, toIso } from '../zoned-time.ts';
import { matchesOf } from '../../../engine/contract/matches-of.ts';

/**
 * `conversations.json` itself, or an export folder holding it. Read whole, up to `o.wholeJsonBytes`
 * (readJsonExportText).
 */
export async function readConversations(path: string, o: ParseOptions = {}): Promise<unknown[]> {
  const file = (await stat(path)).isDirectory() ? join(path, 'conversations.json') : path;
  const text = await readJsonExportText(file, o.wholeJsonBytes);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    // A download cut short ends mid-value: say which file, and what that likely means.
    throw new Error(`${basename(file)} is not valid JSON (was the export cut short?): ${errorMessage(e)}`);
  }
  if (!Array.isArray(data)) throw new Error(`${basename(file)}: expected an array of conversations`);
  return data;
}

function threadName(title: string | undefined, id: string): string {
  return (title ? `${title.trim()} (${id})` : id).slice(0, 2000);
}

/**
 * The text of a ChatGPT message; non-text parts (images, files) become `[attachment: <name>]`, named as
 * the message's `metadata.attachments` names the file (an image part points at it by its id), and a
 * file attached without a part of its own ("Summarize the attached PDF") is named after the text.
 */
function chatgptText(content: unknown, metadata: unknown): string {
  if (!isObj(content)) return '';
  const files = new Map<string, string>();
  const attached = isObj(metadata) && Array.isArray(metadata.attachments) ? metadata.attachments : [];
  for (const a of attached.filter(isObj)) {
    const name = str(a.name);
    if (name) files.set(str(a.id) ?? name, name);
  }
  const named = new Set<string>();
  const partText = (p: unknown): string => {
    if (typeof p === 'string') return p;
    if (!isObj(p)) return '';
    if (typeof p.text === 'string') return p.text;
    const id = str(p.asset_pointer)?.replace(/^[a-z-]+:\/\//u, '');
    const file = id === undefined ? undefined : files.get(id);
    if (id !== undefined && file !== undefined) named.add(id);
    const kind = str(p.content_type) === 'image_asset_pointer' ? 'image' : str(p.content_type);
    return `[attachment: ${file ?? str(p.name) ?? kind ?? 'file'}]`;
  };
  const said =
    typeof content.text === 'string'
      ? [content.text]
      : (Array.isArray(content.parts) ? content.parts : []).map(partText);
  const rest = [...files].filter(([id]) => !named.has(id)).map(([, name]) => `[attachment: ${name}]`);
  return [...said, ...rest].filter((t) => t.trim()).join('\n');
}

/**
 * What ChatGPT wrote into a canvas: a message to `canmore.create_textdoc` whose text is the document
 * as JSON (`{"name": …, "content": …}`), as `[canvas: <name>]` and its text. Null for any other
 * message, or one whose JSON cannot be read (an edit, `canmore.update_textdoc`, holds patterns, not
 * the document).
 */
function canvasText(m: Json): string | null {
  if (m.recipient !== 'canmore.create_textdoc' || !isObj(m.content)) return null;
  const parts = Array.isArray(m.content.parts) ? m.content.parts : [];
  const raw = typeof m.content.text === 'string' ? m.content.text : parts.find((p) => typeof p === 'string');
  if (typeof raw !== 'string') return null;
  try {
    const doc: unknown = JSON.parse(raw);
    const body = isObj(doc) ? str(doc.content)?.trim() : undefined;
    if (!isObj(doc) || !body) return null;
    const name = str(doc.name)?.trim();
    return `[canvas${name ? `: ${name}` : ''}]\n${body}`;
  } catch {
    return null;
  }
}

/**
 * ChatGPT's marks of a source inside an answer: "\ue200cite\ue202turn0search1\ue201" (web search) and
 * "【4:0†source】" (files). They are no words anyone said: each becomes what the export says it shows
 * (its `content_references` entry's `alt`, "([Wikipedia](https://…))"), else nothing.
 */
const citationMark = /(?:\ue200[^\ue200\ue201]{0,2000}\ue201|【[^】\n]{0,200}†[^】\n]{0,200}】)/gu;

function withoutCitationMarks(text: string, metadata: unknown): string {
  if (!/[\ue200【]/u.test(text)) return text;
  const shown = new Map<string, string>();
  const refs =
    isObj(metadata) && Array.isArray(metadata.content_references) ? metadata.content_references : [];
  for (const r of refs.filter(isObj)) {
    const mark = str(r.matched_text);
    const alt = str(r.alt)?.trim();
    if (mark && alt) shown.set(mark.trim(), alt);
  }
  let out = '';
  let from = 0;
  for (const m of matchesOf(citationMark, text)) {
    // The space before a mark went with it: "545,000 residents \ue200…\ue201." reads "545,000 residents.".
    let before = text.slice(from, m.index);
    let end = before.length;
    while (end > 0 && (before[end - 1] === ' ' || before[end - 1] === '\t')) end -= 1;
    before = before.slice(0, end);
    const alt = shown.get(m[0]);
    out += alt ? `${before} ${alt}` : before;
    from = m.index + m[0].length;
  }
  return out + text.slice(from);
}

/**
 * The person's own words in ChatGPT's custom instructions ("About me", "How should ChatGPT respond"),
 * which the export carries as a hidden message of each conversation, inside ChatGPT's framing of them:
 * the text between its last pair of ``` fences, else the whole field.
 */
function customInstructions(content: unknown): { field: string; said: string }[] {
  if (!isObj(content) || content.content_type !== 'user_editable_context') return [];
  const fields = [
    ['about', content.user_profile],
    ['respond', content.user_instructions],
  ] as const;
  return fields.flatMap(([name, field]) => {
    if (typeof field !== 'string') return [];
    // Between the last two fences: the person's words may hold a backtick of their own ("use `pnpm`").
    const close = field.trimEnd().endsWith('```') ? field.trimEnd().length - 3 : -1;
    const open = close > 0 ? field.lastIndexOf('```', close - 1) : -1;
    const said = (open >= 0 ? field.slice(open + 3, close) : field).trim();
    return said ? [{ field: name, said }] : [];
  });
}

/** ChatGPT nodes on the branch the user last saw (root to current_node); other edits are drafts. */
function chatgptBranch(mapping: Json, current: unknown): Json[] {
  const nodes: Json[] = [];
  let id = typeof current === 'string' ? current : undefined;
  const seen = new Set<string>();
  while (id && !seen.has(id) && isObj(mapping[id])) {
    seen.add(id);
    const node = mapping[id] as Json;
    nodes.push(node);
    id = typeof node.parent === 'string' ? node.parent : undefined;
  }
  if (nodes.length > 0) return nodes.reverse();
  // No current_node: every node, in time order.
  return Object.values(mapping)
    .filter(isObj)
    .sort(
      (a, b) =>
        Number((a.message as Json | null)?.create_time ?? 0) -
        Number((b.message as Json | null)?.create_time ?? 0),
    );
}

/**
 * Says the share of the export's messages read (ParseOptions.onRead) when called with a conversation's
 * index and how many of its messages were read: a conversation holds one message or thousands.
 */
function sharesRead(
  conversations: readonly unknown[],
  messagesOf: (conv: unknown) => number,
  o: ParseOptions,
): (conversation: number, messages: number) => void {
  const counts = conversations.map((c) => Math.max(1, messagesOf(c)));
  const starts: number[] = [];
  let all = 0;
  for (const n of counts) {
    starts.push(all);
    all += n;
  }
  return (i, j) => {
    const read = starts[i]! + Math.min(j, counts[i]!);
    if (read > 0) o.onRead?.(read / all);
  };
}

/** One `message` Record per ChatGPT message (user as `self`); threads are conversations. */
export async function* parseChatgpt(path: string, o: ParseOptions): AsyncGenerator<ImportItem> {
  const conversations = await readConversations(path, o);
  // The custom instructions each conversation carried, to be dated once all are read.
  const carried: { field: string; said: string; at: string | undefined; ref: string }[] = [];
  const readTo = sharesRead(
    conversations,
    (conv) => (isObj(conv) && isObj(conv.mapping) ? Object.keys(conv.mapping).length : 1),
    o,
  );
  for (const [i, conv] of conversations.entries()) {
    readTo(i, 0);
    const convId = isObj(conv) ? (str(conv.conversation_id) ?? str(conv.id)) : undefined;
    if (!isObj(conv) || !convId || !isObj(conv.mapping)) {
      yield skip(`conversation #${i + 1}`, 'not a ChatGPT conversation (no id or mapping)');
      continue;
    }
    const thread = threadName(str(conv.title), convId);
    // A message without a time of its own is dated with the one before it, not the conversation's
    // start: an answer must not be dated before the question it answers.
    let last = epochSecondsToIso(conv.create_time) ?? epochSecondsToIso(conv.update_time);
    for (const [j, node] of chatgptBranch(conv.mapping, conv.current_node).entries()) {
      readTo(i, j);
      const m = node.message;
      if (!isObj(m)) continue; // the synthetic root carries no message
      const ref = `${convId}/${str(m.id) ?? str(node.id) ?? '?'}`;
      const role = isObj(m.author) ? m.author.role : undefined;
      last = epochSecondsToIso(m.create_time) ?? last;
      for (const c of customInstructions(m.content)) carried.push({ ...c, at: last ?? undefined, ref });
      if (role === 'system' || role === 'tool') continue; // scaffolding, not what was said
      // A canvas the assistant wrote (an essay, code) is addressed to the canvas tool but is its answer.
      const canvas = canvasText(m);
      // The assistant addressing a tool (a search, code to run) is a step, not something it said.
      if (canvas === null && typeof m.recipient === 'string' && m.recipient !== 'all') continue;
      if (isObj(m.metadata) && m.metadata.is_visually_hidden_from_conversation) continue;
      if (isObj(m.content) && ['thoughts', 'reasoning_recap'].includes(str(m.content.content_type) ?? '')) {
        yield skip(ref, "the model's reasoning, not its answer");
        continue;
      }
      const text = (canvas ?? withoutCitationMarks(chatgptText(m.content, m.metadata), m.metadata)).trim();
      if (!text) {
        yield skip(ref, 'message has no text');
        continue;
      }
      yield {
        type: 'record',
        ref,
        body: {
          content: { kind: 'message', text, speaker: role === 'user' ? 'self' : 'ChatGPT', thread },
          source: { name: 'chatgpt', external_id: `chatgpt:${ref}` },
          occurred_at: last ?? undefined,
        },
      };
    }
  }

  for (const [said, { at, ref }] of instructionsByText(carried)) {
    const id = createHash('sha256').update(said).digest('base64url').slice(0, 22);
    yield {
      type: 'record',
      ref: `${ref} (custom instructions)`,
      body: {
        content: { kind: 'message', text: said, speaker: 'self', thread: 'ChatGPT custom instructions' },
        source: { name: 'chatgpt', external_id: `chatgpt:custom-instructions:${id}` },
        occurred_at: at,
      },
    };
  }
}

/**
 * Each text of the custom instructions once, dated where its last stretch as that field's text began,
 * in the conversations' time order: "About me" set to A, then B, then A again is A from its return, so
 * it is the newest, as it is in ChatGPT; a text kept unchanged keeps its date, however many
 * conversations since carried it.
 */
function instructionsByText(
  carried: readonly { field: string; said: string; at: string | undefined; ref: string }[],
): Map<string, { at: string | undefined; ref: string }> {
  const inOrder = [...carried].sort((a, b) => (a.at ?? '').localeCompare(b.at ?? ''));
  const current = new Map<string, string>();
  const out = new Map<string, { at: string | undefined; ref: string }>();
  for (const c of inOrder) {
    if (current.get(c.field) !== c.said || !out.has(c.said)) out.set(c.said, { at: c.at, ref: c.ref });
    current.set(c.field, c.said);
  }
  return out;
}

/** The files a Claude message carries: their names, and the text Claude read from each, if any. */
function claudeFiles(m: Json): { name: string; said: string | undefined }[] {
  const files = [
    ...(Array.isArray(m.attachments) ? m.attachments : []),
    ...(Array.isArray(m.files) ? m.files : []),
  ]
    .filter(isObj)
    .map((f) => ({
      name: str(f.file_name) ?? str(f.name),
      said: str(f.extracted_content)?.trim() || undefined,
    }))
    .filter((f): f is { name: string; said: string | undefined } => Boolean(f.name));
  // An export lists a file under both keys, its text under one of them: one file. Two files of one name
  // whose texts differ (two "image.png" read) are two.
  const out: { name: string; said: string | undefined }[] = [];
  for (const f of files) {
    const same = out.find(
      (o) => o.name === f.name && (o.said === f.said || o.said === undefined || f.said === undefined),
    );
    if (same) same.said ??= f.said;
    else out.push({ ...f });
  }
  return out;
}

/**
 * What a Claude export's `text` writes for each block that is not text (an artifact, a tool's call or
 * result): a fenced line that says nothing. The blocks themselves are in `content`.
 */
const unsupportedBlock =
  /```[^\S\n]*\n[^\S\n]*This block is not supported on your current device yet\.?[^\S\n]*\n```/u;

/**
 * An artifact's content, titled ("[artifact: Transplant plan]" then its text), for each block of
 * `content` that `text` renders as unsupportedBlock, in order; "" for those that hold none (a tool's
 * result, an artifact's edit).
 */
function claudeBlocks(m: Json): string[] {
  if (!Array.isArray(m.content)) return [];
  return m.content
    .filter(isObj)
    .filter((c) => c.type !== 'text')
    .map((c) => {
      const input = isObj(c.input) ? c.input : null;
      const body = input ? str(input.content)?.trim() : undefined;
      if (c.type !== 'tool_use' || !body) return '';
      const title = str(input!.title)?.trim();
      return `[artifact${title ? `: ${title}` : ''}]\n${body}`;
    });
}

/**
 * `text` with each unsupportedBlock in place of the block it stands for: an artifact ("Transplant: 1
 * June") was lost, and the placeholder became a Memory of Claude's. When the blocks cannot be matched
 * one to one, the placeholders go and the artifacts follow the text.
 */
function withClaudeBlocks(text: string, m: Json): string {
  const parts = text.split(unsupportedBlock);
  if (parts.length === 1) return text;
  const blocks = claudeBlocks(m);
  // Unmatched, every block goes after the text, in order.
  const paired = blocks.length === parts.length - 1;
  let out = parts[0]!;
  for (let i = 1; i < parts.length; i += 1) {
    const block = paired ? blocks[i - 1]! : '';
    // A block that holds nothing leaves one blank line where it was, not three.
    out = block ? out + block + parts[i]! : `${out.trimEnd()}\n\n${parts[i]!.trimStart()}`;
  }
  return [out.trim(), ...(paired ? [] : blocks.filter(Boolean))].filter(Boolean).join('\n\n');
}

function claudeText(m: Json): string {
  let text = withClaudeBlocks(typeof m.text === 'string' ? m.text : '', m);
  if (!text.trim() && Array.isArray(m.content)) {
    text = m.content
      .filter(isObj)
      .map((c) => (c.type === 'text' && typeof c.text === 'string' ? c.text : ''))
      .filter(Boolean)
      .join('\n');
  }
  return [text.trim(), ...claudeFiles(m).map((f) => `[attachment: ${f.name}]`)].filter(Boolean).join('\n');
}

/** The first n UTF-16 units of s, one fewer where the cut would split a surrogate pair. */
const wholeChars = (s: string, n: number) =>
  s.length <= n ? s : s.slice(0, /[\uD800-\uDBFF]/u.test(s[n - 1]!) ? n - 1 : n);

/** The most of an attachment's text kept in its document (the Record limit is 1,000,000 characters). */
export const maxAttachmentChars = 200_000;

/** One `message` Record per Claude message (the human as `self`); threads are conversations. */
export async function* parseClaude(path: string, o: ParseOptions): AsyncGenerator<ImportItem> {
  const conversations = await readConversations(path, o);
  const readTo = sharesRead(
    conversations,
    (conv) => (isObj(conv) && Array.isArray(conv.chat_messages) ? conv.chat_messages.length : 1),
    o,
  );
  for (const [i, conv] of conversations.entries()) {
    readTo(i, 0);
    const convId = isObj(conv) ? str(conv.uuid) : undefined;
    if (!isObj(conv) || !convId || !Array.isArray(conv.chat_messages)) {
      yield skip(`conversation #${i + 1}`, 'not a Claude conversation (no uuid or chat_messages)');
      continue;
    }
    const thread = threadName(str(conv.name), convId);
    for (const [j, m] of conv.chat_messages.entries()) {
      readTo(i, j);
      const msgId = isObj(m) ? str(m.uuid) : undefined;
      const ref = `${convId}/${msgId ?? `#${j + 1}`}`;
      if (!isObj(m) || !msgId) {
        yield skip(ref, 'message has no uuid');
        continue;
      }
      const text = claudeText(m);
      if (!text) {
        yield skip(ref, 'message has no text');
        continue;
      }
      const occurredAt = toIso(m.created_at) ?? toIso(conv.created_at) ?? undefined;
      yield {
        type: 'record',
        ref,
        body: {
          content: { kind: 'message', text, speaker: m.sender === 'human' ? 'self' : 'Claude', thread },
          source: { name: 'claude', external_id: `claude:${ref}` },
          occurred_at: occurredAt,
        },
      };
      // The text Claude read from an attached file ("Soil pH 6.5, tested by GreenLab.") as a document of
      // its own, titled by the file: findable and citable, and not the words of whoever attached it (a CV
      // someone else wrote would have given the user its author's home and employer).
      const named = new Map<string, number>();
      for (const f of claudeFiles(m)) {
        // The first file of a name keeps the plain id; a second of that name is told apart by its number.
        const nth = (named.get(f.name) ?? 0) + 1;
        named.set(f.name, nth);
        const id = nth === 1 ? f.name : `${f.name} (${nth})`;
        if (!f.said) continue;
        const cut = f.said.length > maxAttachmentChars;
        yield {
          type: 'record',
          ref: `${ref} ${id}`,
          ...(cut
            ? {
                note: `attachment ${f.name}: its first ${maxAttachmentChars.toLocaleString('en')} characters of ${f.said.length.toLocaleString('en')} are kept`,
              }
            : {}),
          body: {
            content: {
              kind: 'document',
              title: f.name.slice(0, 2000),
              text: wholeChars(f.said, maxAttachmentChars),
            },
            source: { name: 'claude', external_id: `claude:${ref}#${id}`.slice(0, 2000) },
            occurred_at: occurredAt,
          },
        };
      }
    }
  }
}
