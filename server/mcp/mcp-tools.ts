import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { listedChars, listedPage, listedPageSize, shownProfile, shownRevision } from './listed-memory.ts';
import { evidenceWindowed, textChars, windowed } from './text-window.ts';
import { shownContext } from './shown-context.ts';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
  type Tool,
  type ToolAnnotations,
} from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import {
  allKinds,
  ContextRequest,
  MemoryListQuery,
  MessageContent,
  pageSize,
  RecordCreate,
  RecordListQuery,
  sinceNotAfterUntil,
  type RecordCreate as RecordBody,
} from '../../engine/contract/index.ts';
import { contractVersion } from '../../engine/contract/version.ts';
import { errorCodes, isErrorCode } from '../../engine/errors/codes.ts';
import { coerceError, isMnemoError, MnemoError } from '../../engine/errors/mnemo-error.ts';
import { isOutcomeUnknown, MnemoApiError, newIdempotencyKey } from '../client/index.ts';
import { withoutWriteAdvice, writeKeptAdvice } from '../../engine/errors/store-unavailable.ts';
import { parseWith } from '../http/validate.ts';
import type { MemoryPort } from './memory-port.ts';
import { isToldError, reworded } from './reworded.ts';
import { errorMessage, newId } from '../../engine/index.ts';

/** The tools a model gets. acceptObject is absent on purpose: a model may never call it. */
export const mcpToolNames = [
  'remember',
  'remember_conversation',
  'get_context',
  'list_memories',
  'get_memory',
  'get_record',
  'list_records',
  'get_profile',
  'forget_record',
  'get_trace',
] as const;

/** The source of the Records agents remember (remember writes no other): the only ones a tool forgets. */
const agentSource = 'mcp';

/**
 * A tool's answer, as compact JSON: a model pays for every token of it, and indentation would add a
 * third to a page of Memories (whitespace tokens on every line) and tell it nothing. /v1 sends the same.
 */
function ok(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }] };
}

/** What a tool error names besides its code, as a /v1 error does: the call, and its code's page. */
export interface ToolCallContext {
  /** The id of the call: the /mcp request's (its X-Request-Id); the stdio bridge makes one per call. */
  requestId: () => string;
  /** `{docs_url_base}` for what this side refuses; an error of /v1 carries the server's own docs_url. */
  docsUrlBase: string;
  /**
   * A failure that is not one of Mnemo's errors, to be logged with its stack under the request id the
   * caller is told, as the /v1 app logs one.
   */
  onFault?: (e: unknown, requestId: string) => void;
}

/** For a server made without one (embedding, tests): an id per call, docs_url relative to the server. */
const standaloneCall: ToolCallContext = { requestId: () => newId('req'), docsUrlBase: '/docs' };

/**
 * Any failure, as a tool error the model can read and a program can branch on. The text reads
 * `<code> (<status> <type>): <message>` and, on a second line, `request_id: …; docs_url: …` (with
 * `trace_id: trc_…` between them when a failed Context left a Trace, `retry_after_seconds: N` when a
 * rate limit was met);
 * `structuredContent` is the spec's one error body, field for field what /v1 answers
 * (`{type, code, message, request_id, docs_url, ...extra}`). An error of /v1 (the stdio bridge's)
 * keeps /v1's request id and docs_url, so it names the call in the server's log. Anything else is a
 * fault, answered as /v1 answers one: `internal_error` with no word of its own (an exception's text
 * can hold a file path, a SQL statement or a database host), and handed to `onFault` to be logged
 * with its stack under the request id the caller is told.
 */
export function toolError(
  e: unknown,
  call: ToolCallContext = standaloneCall,
  tool?: string,
  reads = false,
): CallToolResult {
  const known = isToldError(e);
  const own = known && e instanceof MnemoApiError ? e : null;
  const requestId = own?.requestId ?? call.requestId();
  // A fault wrapped to carry a failed Context's trace_id is still a fault, and logged; an error told on
  // purpose with a cause (store_unavailable) is not, as /v1 logs only internal_error (faultReport).
  if (!known || (isMnemoError(e) && e.code === 'internal_error')) call.onFault?.(e, requestId);
  const { code, message: said } = known ? { code: e.code, message: errorMessage(e) } : coerceError(e);
  // A scope is needed by the /v1 operation a tool calls ("that getRecord needs"): a model knows the tool.
  // A read-only tool wrote nothing that /v1's advice to resend a write could mean.
  const message =
    code === 'missing_scope' && tool !== undefined
      ? said.replace(/ that (\w+) needs$/u, ` that the tool ${tool} needs (it calls $1)`)
      : reads
        ? withoutWriteAdvice(said)
        : said;
  const info = isErrorCode(code)
    ? errorCodes[code]
    : { status: own?.status ?? 500, type: own?.type ?? 'internal' };
  // The client's own codes (network_error) have status 0: no HTTP answer came, so none is named.
  const answered = info.status === 0 ? 'no HTTP answer' : `${info.status} ${info.type}`;
  const docsUrl =
    typeof own?.body.docs_url === 'string'
      ? own.body.docs_url
      : `${call.docsUrlBase.replace(/\/$/, '')}/errors/${code}`;
  const body: Record<string, unknown> = {
    ...(own ? own.body : isMnemoError(e) ? e.extra : {}),
    type: info.type,
    code,
    message,
    request_id: requestId,
    docs_url: docsUrl,
  };
  // What a model acts on is named where it reads, not only in structuredContent: a failed Context's
  // Trace (for get_trace), and how long a rate limit asks it to wait.
  const named =
    (typeof body['trace_id'] === 'string' ? `; trace_id: ${body['trace_id']}` : '') +
    (typeof body['retry_after_seconds'] === 'number'
      ? `; retry_after_seconds: ${body['retry_after_seconds']}`
      : '');
  return {
    isError: true,
    content: [
      {
        type: 'text',
        text: `${code} (${answered}): ${message}\nrequest_id: ${requestId}${named}; docs_url: ${docsUrl}`,
      },
    ],
    structuredContent: body,
  };
}

const run = async (
  f: () => Promise<unknown>,
  call: ToolCallContext,
  tool: string,
  reads: boolean,
): Promise<CallToolResult> => {
  try {
    return ok(await f());
  } catch (e) {
    return toolError(e, call, tool, reads);
  }
};

interface ToolSpec<S extends z.ZodRawShape> {
  /** The /v1 operation it calls, whose scope a key needs for it (a key without is not offered it). */
  operation: string;
  title: string;
  description: string;
  /** The arguments: contract fields, so a message names the field as /v1 would. */
  input: S;
  annotations: ToolAnnotations;
  /**
   * Arguments that only the store can judge, before they are validated here: returns the call to
   * make instead, or null to go on.
   */
  storeJudges?: (port: MemoryPort, args: Record<string, unknown>) => Promise<unknown> | null;
  call: (port: MemoryPort, args: z.output<z.ZodObject<S>>) => Promise<unknown>;
}

interface McpTool {
  readonly name: string;
  readonly operation: string;
  /** What its arguments must be. */
  readonly schema: z.ZodType;
  readonly definition: Tool;
  call: (port: MemoryPort, args: Record<string, unknown>, call: ToolCallContext) => Promise<CallToolResult>;
}

/**
 * A tool whose arguments are validated here, not by the SDK: McpServer (1.32) parses them before the
 * handler runs and answers a failure with its own text ("MCP error -32602: Input validation error:
 * ... Invalid input at content"), while a failure must read `<code> (<status> <type>): <message>`
 * with the field and what it allows, as /v1 says it (`invalid_request_body`, validate.ts). An unknown
 * argument is an error naming it (`<name>: unknown field`), as an unknown body field is on /v1, and the
 * listed schema says so (`additionalProperties: false`).
 */
function defineTool<S extends z.ZodRawShape>(name: string, spec: ToolSpec<S>): McpTool {
  const schema = z.strictObject(spec.input);
  // Built on first listing, once per process: the hosted /mcp endpoint creates a server per request,
  // and converting the five schemas to JSON Schema took ~14 ms (so not at start-up either).
  let definition: Tool | null = null;
  return {
    name,
    operation: spec.operation,
    schema,
    get definition() {
      definition ??= {
        name,
        title: spec.title,
        description: spec.description,
        // What the SDK listed: JSON Schema draft-7 of what the tool accepts, each definition in place.
        inputSchema: inlined(
          z.toJSONSchema(schema, {
            target: 'draft-7',
            io: 'input',
            override: (ctx) => {
              withoutDateTimePattern(ctx);
              withoutSpeakerWords(ctx);
            },
          }),
        ) as Tool['inputSchema'],
        annotations: spec.annotations,
      };
      return definition;
    },
    call: (port, args, call) =>
      run(
        () => spec.storeJudges?.(port, args) ?? spec.call(port, parseWith(schema, args, 'arguments')),
        call,
        name,
        spec.annotations.readOnlyHint === true,
      ),
  };
}

/** A JSON object (not an array, not null). */
export const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * No description of a message's `speaker` from the contract (which /v1's readers have in the OpenAPI
 * document): remember's own description tells a model which speaker is the user, and every session
 * pays the listing.
 */
function withoutSpeakerWords(ctx: { jsonSchema: { description?: string } }): void {
  if (ctx.jsonSchema.description === MessageContent.shape.speaker.description)
    delete ctx.jsonSchema.description;
}

/**
 * No `pattern` beside `format: "date-time"` (zod's override hook, as openapi.ts adjusts the pattern):
 * zod writes RFC 3339's 317-character expression beside the format, ten times in the listing (3.2 KB of
 * its 22.5), and every session of a model pays the listing in its context. The format says the same to
 * a model; the arguments are still checked against the contract's own schema when a tool runs.
 */
function withoutDateTimePattern(ctx: { jsonSchema: { format?: string; pattern?: string } }): void {
  if (ctx.jsonSchema.format === 'date-time') delete ctx.jsonSchema.pattern;
}

/**
 * A tool's schema with each contract definition written where it is used, and no `$schema`: a
 * definition's own description (Visibility's, 333 bytes, for /v1's readers) was listed beside the
 * argument's, which says it for a model, in remember and remember_conversation alike. Without
 * `definitions` the schema reads the same in draft-7 and in 2020-12, MCP's default dialect. A
 * definition that refers to itself stays a definition.
 */
function inlined(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: dialect, definitions, ...root } = schema;
  const defs = isObject(definitions) ? definitions : {};
  let kept = false;
  const resolving = new Set<string>();
  const definition = (ref: unknown): Record<string, unknown> | null => {
    const name = typeof ref === 'string' ? /^#\/definitions\/([^/]+)$/u.exec(ref)?.[1] : undefined;
    const def = name === undefined ? undefined : defs[name];
    if (name === undefined || !isObject(def) || resolving.has(name)) return null;
    resolving.add(name);
    const out = walk(def) as Record<string, unknown>;
    resolving.delete(name);
    return out;
  };
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (!isObject(v)) return v;
    const { $ref, allOf, ...rest } = v;
    // zod writes a reference with a description of its own as {description, allOf: [{$ref}]}.
    const wrapped = Array.isArray(allOf) && allOf.length === 1 && isObject(allOf[0]) ? allOf[0] : null;
    const target = $ref ?? (wrapped && Object.keys(wrapped).length === 1 ? wrapped['$ref'] : undefined);
    if (target !== undefined) {
      const def = definition(target);
      if (def) return { ...def, ...Object.fromEntries(Object.entries(rest).map(([k, x]) => [k, walk(x)])) };
      kept = true;
    }
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
  };
  const out = walk(root) as Record<string, unknown>;
  return kept ? { $schema: dialect, ...out, definitions } : out;
}

const req = ContextRequest.shape;
const mem = MemoryListQuery.shape;
const rec = RecordListQuery.shape;

const budgetShape = req.budget.unwrap().shape;
/** The contract's budget, its units and defaults said, as a model needs them to set it. */
const contextBudget = z
  .strictObject({
    tokens: budgetShape.tokens.describe(
      'The most tokens of text to return (1 to 100,000; default 4,000). The Context says whether it was cut.',
    ),
    ms: budgetShape.ms.describe('The most milliseconds to spend (1 to 60,000).'),
  })
  .optional()
  .describe('How much text to return, and how long to take over it.');

const filterShape = req.filter.unwrap().shape;
/**
 * The contract's filter without `subjects`, `owner` and `sensitivity_lte`: a Context records them and
 * enforces none (the spec: "use listMemories for subject and owner filtering"), so a model that set
 * `owner: "other"` or `subjects: ["Bob"]` was served the Brain's own evidence as if filtered, and could
 * only present it as Bob's. Sent anyway, they are unknown fields, named.
 */
const contextFilter = z
  .strictObject({
    since: filterShape.since,
    until: filterShape.until,
    sources: filterShape.sources.describe(
      'Only evidence from these sources (a Record\'s source.name: "mcp" for what agents remembered; ' +
        'imports are named by format, such as "chatgpt", "mbox", "obsidian").',
    ),
  })
  .refine(sinceNotAfterUntil.check, sinceNotAfterUntil.params)
  .optional()
  .describe(
    'Narrow the evidence by when it occurred or where it came from. To filter by subject or owner, ' +
      'use list_memories.',
  );

const rememberInput = {
  content: RecordCreate.shape.content,
  occurred_at: RecordCreate.shape.occurred_at.describe(
    'When it happened (RFC 3339 with an offset, e.g. 2024-05-01T09:30:00Z). Default: now; set it for anything historical.',
  ),
  visibility: RecordCreate.shape.visibility.describe(
    'Where the Record may go when the Brain syncs: "shareable" (default), "redacted_summary", or "local_only" (this device only).',
  ),
  idempotency_key: z
    .string()
    .min(1, 'must not be empty')
    .max(200, 'must be at most 200 characters')
    .optional()
    .describe('Resend the same key when retrying, so a retry returns the original Record.'),
};

/** remember's arguments with content left to the store: a kind no engine has is the store's to judge. */
const rememberForStore = z.strictObject({ ...rememberInput, content: z.unknown() });

/** A Record as an agent writes it: under the agents' source, with the time and visibility given. */
const agentRecord = (
  content: RecordBody['content'],
  a: { occurred_at?: string | undefined; visibility?: RecordBody['visibility'] },
): RecordBody => ({
  content,
  source: { name: agentSource },
  ...(a.occurred_at ? { occurred_at: a.occurred_at } : {}),
  ...(a.visibility ? { visibility: a.visibility } : {}),
});

/** remember's arguments as the Record and key the port writes, whichever side judged the content. */
async function remembered(port: MemoryPort, a: z.output<typeof rememberForStore>): Promise<unknown> {
  // Made here when the model gave none (on /mcp no client makes one), so that a failure whose outcome
  // is unknown can name it: the same call with it then replays the write, not makes it twice.
  const key = a.idempotency_key ?? newIdempotencyKey();
  const again =
    a.idempotency_key === undefined ? `idempotency_key ${JSON.stringify(key)}` : 'the same idempotency_key';
  const r = await port
    .remember(agentRecord(a.content as RecordBody['content'], a), key)
    .catch(namingTheKeyArgument)
    .catch((e: unknown): never => {
      if (!outcomeUnknown(e)) throw e;
      throw toldAgain(
        e,
        (said) =>
          `${said}; whether the Record was written is unknown: call remember again with the same ` +
          `arguments and ${again}, which returns the Record if it was written and writes it once if not`,
        { idempotency_key: key },
      );
    });
  // The caller has the words it sent: the echo is their start.
  return { ...r, record: windowed(r.record, textChars.written) };
}

/** A store_unavailable's word that a write may have been kept: whether it was, a tool says itself. */
const keptMaybe = (e: MnemoError | MnemoApiError) =>
  e.code === 'store_unavailable' && e.message.endsWith(writeKeptAdvice);

/**
 * Whether a failed write may have been made all the same, so that only its replay (the same call,
 * the same key) is safe to send: over the bridge, no answer came or the server failed on it
 * (isOutcomeUnknown); on /mcp, the engine's own fault, which may come after its commit (the steps
 * after it, or a commit whose answer was lost); on either, a store_unavailable saying that a write
 * may have been kept. A refusal is made before anything is written.
 */
function outcomeUnknown(e: unknown): boolean {
  if (e instanceof MnemoApiError) return isOutcomeUnknown(e) || keptMaybe(e);
  if (!isMnemoError(e)) return true;
  return e.code === 'internal_error' || keptMaybe(e);
}

/**
 * A write's failure in the tool's words (`say` is given what it said), with `extra` (how to send it
 * again: the key, and what else the tool chose) in structuredContent too. /v1's advice after a
 * store_unavailable names a header and an operation a model does not have: the tool's words replace
 * it. A /v1 error keeps its request id and docs_url; a fault keeps its cause, logged as a fault is.
 */
function toldAgain(
  e: unknown,
  say: (said: string) => string,
  extra: Record<string, string>,
): MnemoError | MnemoApiError {
  const told = isToldError(e) ? e : coerceError(e);
  // Its full stop goes, the tool's words going on after a semicolon, and the client's own clause
  // that the outcome is unknown: the tool says so, and what to do.
  const own = withoutWriteAdvice(told.message)
    .trimEnd()
    .replace(/\.$/u, '')
    .replace(/; whether the call was applied is unknown$/u, '');
  const message = say(own);
  if (told instanceof MnemoApiError)
    return new MnemoApiError(
      told.status,
      { ...told.body, message, ...extra },
      { idempotencyKey: extra['idempotency_key'] ?? told.idempotencyKey },
    );
  const out = new MnemoError(told.code, message, { ...told.extra, ...extra });
  out.cause = told === e ? (told.cause ?? told) : e;
  return out;
}

/**
 * The store names a header of /v1 when one is wrong (`Brain-Watermark: not a watermark …`,
 * `Idempotency-Key: already used …`); a tool's caller sent it as an argument, and is told that name.
 */
function namingTheArgument(header: string, argument: string) {
  return (e: unknown): never => {
    if (isToldError(e) && e.message.startsWith(`${header}:`))
      throw reworded(e, `${argument}:${e.message.slice(header.length + 1)}`);
    throw e;
  };
}
const namingTheWatermarkArgument = namingTheArgument('Brain-Watermark', 'watermark');
const namingTheKeyArgument = namingTheArgument('Idempotency-Key', 'idempotency_key');

/** The most messages remember_conversation writes in one call: a long session is sent in parts. */
const conversationMost = 200;

interface Conversation {
  messages: { text: string; speaker?: string | undefined; occurred_at?: string | undefined }[];
  thread?: string | undefined;
  visibility?: RecordBody['visibility'];
  idempotency_key?: string | undefined;
}

/**
 * Writes a conversation's messages in order, each as remember writes one (source "mcp"), under one
 * thread. Each message has an Idempotency-Key of its own made from the call's (`<key>#<n>`), so a call
 * that stopped part way and is sent again replays what it wrote and writes the rest. A failure names the
 * message, the Records written before it and, where a second call is to write the rest or may replay
 * what was written, how to make it the same call: the key (made here when the model gave none) and the
 * thread chosen, in the text and in structuredContent.
 */
async function rememberConversation(port: MemoryPort, a: Conversation): Promise<unknown> {
  const key = a.idempotency_key ?? newIdempotencyKey();
  // From the key, given or made: the same key makes the same thread, and so the same messages.
  const thread = a.thread ?? `mcp:${key}`;
  const made = { idempotency_key: key, ...(a.thread === undefined ? { thread } : {}) };
  const again =
    a.idempotency_key !== undefined
      ? 'the same idempotency_key'
      : `idempotency_key ${JSON.stringify(key)}${a.thread === undefined ? ` and thread ${JSON.stringify(thread)}` : ''}`;
  const written: { id: string; replayed: boolean | null }[] = [];
  let watermark: string | null = null;
  for (const [n, m] of a.messages.entries()) {
    try {
      const content = {
        kind: 'message' as const,
        text: m.text,
        thread,
        ...(m.speaker ? { speaker: m.speaker } : {}),
      };
      const r = await port
        .remember(
          agentRecord(content, { occurred_at: m.occurred_at, visibility: a.visibility }),
          `${key}#${n}`,
        )
        .catch(namingTheKeyArgument);
      written.push({ id: r.record.id, replayed: r.replayed });
      watermark = r.watermark ?? watermark;
    } catch (e) {
      const before =
        written.length === 0
          ? null
          : `the ${n} before it ${n === 1 ? 'was' : 'were'} written (${written.map((w) => w.id).join(', ')})`;
      if (outcomeUnknown(e))
        throw toldAgain(
          e,
          (said) =>
            `messages[${n}]: ${said}; whether it was written is unknown${before ? ` (${before})` : ''}: call ` +
            `remember_conversation again with the same arguments and ${again}, which writes each message once`,
          made,
        );
      if (!isToldError(e)) throw e;
      if (before === null) throw reworded(e, `messages[${n}]: ${errorMessage(e)}; none was written`);
      throw toldAgain(
        e,
        (said) => `messages[${n}]: ${said}; ${before}: send the call again with ${again} to write the rest`,
        made,
      );
    }
  }
  return { thread, records: written, watermark };
}

/** The tools, their input schemas the contract's own fields. */
const tools: McpTool[] = [
  defineTool('remember', {
    operation: 'rememberRecord',
    title: 'Remember a Record',
    description:
      'Write a Record (raw input) into the memory. content is a plain string (stored as a document) or a typed ' +
      'object tagged by kind: message {text, speaker?, thread?}, document {text, title?}, event {title, starts_at?, ' +
      'ends_at?, participants?, place?}, fact {subject, predicate, value}, correction {corrects: mem_..., statement?, reason?, valid_from?}. ' +
      'For what the user said, use a message with speaker "user": their "my ..." is then theirs (without a ' +
      'speaker, or as a plain string, whose it is stays unresolved); give anyone else by name. ' +
      'Set occurred_at for anything historical; without it the Record is dated now (an event too: give its ' +
      'occurred_at as well as its starts_at to file it under that day). Returns the Record (its text cut to ' +
      `the first ${textChars.written} characters) and a watermark; pass the watermark to ` +
      'get_context to read your own write (replayed: true when an idempotency_key returned an earlier ' +
      'Record). Records are immutable. To mend a Memory, ' +
      'remember a correction of it: with a statement, that statement replaces it; without one, the Memory ' +
      'is withdrawn (for what the user takes back or says was never true). Give valid_from when the ' +
      'statement holds from another day than the Memory says ("I start on 11 January" taken as holding ' +
      'already); a value that changes on a day is a new Record, not a correction.',
    input: rememberInput,
    annotations: {
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
    },
    // Which kinds a Brain takes, and the code for one it does not, are the engine's (as on /v1, which
    // checks the kind first): a kind no engine has goes to the store, which refuses it in its own
    // words, or (a newer /v1 behind the bridge) takes it with every other argument, checked here as
    // for any kind.
    storeJudges: (port, args) =>
      isObject(args['content']) && !(allKinds as readonly unknown[]).includes(args['content'].kind)
        ? remembered(port, parseWith(rememberForStore, args, 'arguments'))
        : null,
    call: remembered,
  }),

  defineTool('remember_conversation', {
    operation: 'rememberRecord',
    title: 'Remember a conversation',
    description:
      'Write the messages of one conversation (a chat, a session with the user) as Records, in order, one ' +
      'message each: what remember does for one message, for up to 200 at once. Give speaker "user" for what ' +
      'the user said (their "my ..." is then theirs) and a name for anyone else. The messages share thread ' +
      '(the conversation), so later context keeps them together. Returns the Records written and the ' +
      'watermark of the last, which covers them all for get_context. If it stops part way or cannot tell ' +
      'what was written, it says which were, and how to call again so that none is written twice.',
    input: {
      messages: z
        .array(
          z.strictObject({
            text: MessageContent.shape.text.describe('What was said.'),
            speaker: MessageContent.shape.speaker.describe(
              'Who said it: "user" for the user, else a name (the assistant, another person).',
            ),
            occurred_at: RecordCreate.shape.occurred_at.describe(
              'When it was said (RFC 3339 with an offset). Default: now.',
            ),
          }),
        )
        .min(1, 'must hold at least one message')
        .max(
          conversationMost,
          `must hold at most ${conversationMost} messages: send the rest in another call`,
        )
        .describe('The messages, oldest first.'),
      thread: MessageContent.shape.thread.describe(
        'The conversation: an id of the session or chat. Default: one made for this call (from ' +
          'idempotency_key when given, so a retry names the same one).',
      ),
      visibility: rememberInput.visibility,
      idempotency_key: z
        .string()
        .min(1, 'must not be empty')
        .max(190, 'must be at most 190 characters')
        .optional()
        .describe(
          'Resend the same key when retrying, so the messages already written are not written twice.',
        ),
    },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    call: rememberConversation,
  }),

  defineTool('get_context', {
    operation: 'createContext',
    title: 'Get Context for a task',
    description:
      'Ask the memory for cited, budgeted context for a task or question. Returns text for direct use in a prompt ' +
      '(null when nothing answers) in numbered blocks [n], each quoting one Record; citations {record_id, block: n} ' +
      "naming each block's Record; conflicts, unknowns and, when it abstains, the reason. Text null with " +
      'budget.truncated true and no abstention: evidence was found but none fitted the budget; ask with a ' +
      'larger budget.tokens. It serves what holds now (or at as_of); for what held before (a ' +
      'previous job), set as_of to then, or list_memories with status "superseded". ' +
      'Its status "processing" means the watermark is not ' +
      'reached yet, or a thorough answer is still being put together: call again shortly with exactly the same ' +
      'arguments, until status is "ready".',
    input: {
      query: req.query.describe('The task or question, in words: what the context is for.'),
      purpose: req.purpose.describe('off_device: leaves this device; shareable Records only.'),
      as_of: req.as_of.describe(
        'Answer as things stood at this time (RFC 3339): Memories valid then. Default: now.',
      ),
      budget: contextBudget,
      include: req.include.describe(
        'Extra parts: "memories" adds the Memories (inferred statements) behind the evidence, short; ' +
          '"explain" adds how retrieval ranked it. Citations, conflicts and unknowns always come.',
      ),
      filter: contextFilter,
      mode: req.mode.describe(
        '"fast" (default): cited evidence, nothing composed. "thorough": a wider search; may answer ' +
          'status "processing" first.',
      ),
      // Not min(1): an empty one is a watermark the engine cannot read, invalid_watermark as on /v1.
      watermark: z.string().optional().describe('A watermark from remember: answer at or after that write.'),
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
    // The Context (its quotes once, in its text); its own status says ready or processing (the HTTP
    // 200/202 adds nothing).
    call: async (port, { watermark, ...body }) =>
      shownContext((await port.context(body, watermark).catch(namingTheWatermarkArgument)).context),
  }),

  defineTool('list_memories', {
    operation: 'listMemories',
    title: 'List or search Memories',
    description:
      'List or search the Memories (inferred statements, each resting on cited Records) of this Brain: by ' +
      'default a short form of each, to choose from (get_memory gives one whole, get_record a cited Record). ' +
      'Page with cursor / next_cursor. To follow changes, pass since_watermark: only the Memories learned or ' +
      'revised after it, oldest first, and a watermark to send back next time.',
    input: {
      // Without the contract's word on a blank q: the error says it to a model that sends one.
      q: mem.q.describe(
        'Words that must all be in the statement, subject or owner, any order; case, accents ignored.',
      ),
      // The query's own flag reads a string (from a URL); a model writes a JSON boolean: both are taken.
      contested: z
        .union([z.boolean(), z.enum(['true', 'false'])])
        .optional()
        .describe(mem.contested.description ?? ''),
      slot: mem.slot,
      subject: mem.subject.describe(
        'Only Memories about this subject: a name or words of it; case, accents ignored.',
      ),
      owner: mem.owner.describe(
        'Only Memories whose owner is this: "self" (the Brain\'s own person), "other", "unresolved", or a ' +
          'name or words of it; case, accents ignored.',
      ),
      status: mem.status.describe(
        'Which versions: "active" (current), "scheduled" (valid later), "superseded", "retracted", or ' +
          '"all". Default: the current ones.',
      ),
      as_of: mem.as_of.describe('The Memories valid at this time (RFC 3339). Default: now.'),
      since_watermark: mem.since_watermark.describe(
        'Delta read: only Memories learned or revised after this watermark (from remember, get_context or ' +
          'an earlier delta page; "start": from the beginning), oldest first; not with cursor.',
      ),
      cursor: mem.cursor.describe("A page's next_cursor; alone, it keeps the list's filters and order."),
      order: mem.order.describe(
        '"asc" (default): oldest first; "desc": newest first. A cursor alone keeps its order. ' +
          'Not with since_watermark.',
      ),
      // The query's own limit reads a decimal string (from a URL); a tool argument is a JSON number.
      limit: pageSize(200).optional().describe(`Page size, default ${listedPageSize}.`),
      detail: z
        .enum(['short', 'full'])
        .optional()
        .describe(
          `"short" (default): each Memory's id, statement (cut at ${listedChars.statement} characters), ` +
            'subject, predicate, slot, owner, status, version, validity, citation_count and first_citation. ' +
            '"full": as /v1 gives it, every citation whole.',
        ),
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
    call: async (port, { contested, detail, limit, ...q }) => {
      const page = await port.listMemories({
        ...q,
        limit: limit ?? listedPageSize,
        ...(contested === undefined ? {} : { contested: String(contested) as 'true' | 'false' }),
      });
      return detail === 'full' ? page : listedPage(page);
    },
  }),

  defineTool('get_memory', {
    operation: 'getMemory',
    title: 'Get a Memory',
    description:
      'One Memory whole, with its revisions (every version of its slot; a statement only where not this ' +
      `one's, cut at ${listedChars.statement} characters) and evidence (each citation's quote and Record: ` +
      `each text cut to the ${textChars.listed.toLocaleString('en')} characters around its quote, with ` +
      "text_window; get_record reads a message's or document's on).",
    input: {
      memory_id: z
        .string()
        .regex(/^mem_/, 'must be a Memory id (mem_...)')
        .describe('A Memory id (mem_...), from list_memories or get_context with include ["memories"].'),
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
    call: async (port, { memory_id }) => {
      // Each citation is in evidence, its quote and Record beside it: listed twice, a long quote was too.
      const { citations: _inEvidence, ...memory } = await port.getMemory(memory_id);
      return {
        ...memory,
        revisions: memory.revisions.map((r) => shownRevision(r, memory.statement)),
        evidence: memory.evidence.map(evidenceWindowed),
      };
    },
  }),

  defineTool('get_trace', {
    operation: 'getTrace',
    title: 'Get the trace of a Context',
    description:
      'How a get_context answer was made: the lanes that searched, their candidates and scores, the budget ' +
      'and what it cut (what else was dropped and why: get_context include explain). trace_id is a Context ' +
      "id (ctx_...) or an error's trc_... id. Recent traces only: an old one is trace_not_found.",
    input: {
      trace_id: z
        .string()
        .regex(/^(?:ctx|trc)_/, 'must be a Context id (ctx_...) or a trace id (trc_...)')
        .describe("A Context's id (ctx_...), or the trace_id (trc_...) of an error."),
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
    call: (port, { trace_id }) => port.getTrace(trace_id),
  }),

  defineTool('get_record', {
    operation: 'getRecord',
    title: 'Get a Record',
    description:
      'One Record as it entered: content, source, occurred_at and the Memories derived from it. A text longer ' +
      `than ${textChars.read.toLocaleString('en')} characters comes in windows: text_window says where this one ` +
      'starts and ends; call again with text_offset = its next_offset to read on.',
    input: {
      record_id: z
        .string()
        .regex(/^rec_/, 'must be a Record id (rec_...)')
        .describe("A Record id (rec_...), such as a citation's record_id."),
      text_offset: z
        .int()
        .min(0)
        .optional()
        .describe(
          "Where in the Record's text to start (a previous answer's text_window.next_offset); default 0.",
        ),
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
    call: async (port, { record_id, text_offset }) =>
      windowed(await port.getRecord(record_id), textChars.read, text_offset ?? 0),
  }),

  defineTool('list_records', {
    operation: 'listRecords',
    title: 'List recent Records',
    description:
      'The Records (raw input: messages, documents, events, facts, corrections) of this Brain, the last ' +
      'written first (an import of old chats lists above what was said yesterday): what was written lately, ' +
      'or with since / until those that occurred in a time range ("what did we talk about last week"). Each ' +
      `with its content (a text cut at ${textChars.listed.toLocaleString('en')} characters, with text_window; ` +
      'get_record reads on), source and the Memories derived from it. Page with cursor / next_cursor. ' +
      'To answer a question, prefer get_context, which searches and cites.',
    input: {
      q: rec.q.describe('Words all in the text, speaker or title (to find a Record to forget).'),
      kind: rec.kind.describe('Only Records of this kind: message, document, event, fact or correction.'),
      source: rec.source.describe(
        'Only Records from this source (source.name: "mcp" for what agents remembered; imports are named ' +
          'by format, such as "chatgpt", "mbox", "obsidian").',
      ),
      since: rec.since,
      until: rec.until,
      cursor: rec.cursor.describe("A page's next_cursor; alone, it keeps the list's filters."),
      // Each Record's text is up to textChars.listed characters: 50 of them were ~100 KB for a model.
      limit: pageSize(200).optional().describe(`Page size, default ${listedPageSize}.`),
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
    call: async (port, { limit, ...q }) => {
      const page = await port.listRecords({ ...q, limit: limit ?? listedPageSize });
      return { ...page, data: page.data.map((r) => windowed(r, textChars.listed)) };
    },
  }),

  defineTool('get_profile', {
    operation: 'getProfile',
    title: "Get the Brain's profile",
    description:
      "Who this Brain's person is, as the memory holds it: its self, and one line per current Memory about " +
      'them, each citing its Records, by `group`: `health` (allergies, intolerances, conditions, ' +
      'medication, disabilities: heed before acting), then `slot` (where they live, work, partner, diet, ' +
      'birthday, favourites), then `other`, each newest first. A short card to read before a ' +
      'conversation; page with cursor / next_cursor for more lines.',
    input: {
      cursor: z
        .string()
        .min(1, 'must not be empty')
        .optional()
        .describe("The previous page's next_cursor, for the lines after it."),
      // /v1's default is 50: each line carries its citations whole, and a page is read whole.
      limit: pageSize(200).optional().describe(`Lines per page, default ${listedPageSize}.`),
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
    call: async (port, { limit, ...q }) =>
      shownProfile(await port.getProfile({ ...q, limit: limit ?? listedPageSize })),
  }),

  defineTool('forget_record', {
    operation: 'forgetRecord',
    title: 'Forget a Record an agent remembered',
    description:
      'Erase a Record that an agent wrote with remember (source "mcp"), and every Memory that rests on it ' +
      'alone, for good: for when the user asks that something they told an agent be forgotten. It cannot be ' +
      "undone. The user's own notes, mail, chats and other imports are theirs to forget in the Mnemo app: " +
      "this tool refuses them, whatever a Record's erasable says. To say a Memory is wrong " +
      'instead, remember a correction.',
    input: {
      record_id: z
        .string()
        .regex(/^rec_/, 'must be a Record id (rec_...)')
        .describe("A Record id (rec_...) that remember returned, or a citation's record_id."),
    },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    async call(port, { record_id }) {
      const record = await port.getRecord(record_id);
      // record_not_erasable (403 policy), as /v1 refuses an import's Record: a rule about which
      // Records a caller may erase, not a credential that lacks something (permission, missing_scope)
      // nor a refusal below the route layer (http_403, which the spec keeps for those).
      if (record.source.name !== agentSource) {
        // An import's Record goes with its import (forgetSource, as /v1 says); another by itself.
        // A hosted server has no app: there the person forgets it on their device, and the forget travels.
        const app = 'in the Mnemo app on their device (a forget there reaches the servers it syncs with)';
        const how = record.erasable
          ? `${app}, or with DELETE /v1/brains/{brain_id}/records/${record_id}`
          : `${app}, or by removing its import (mnemo import --remove ${JSON.stringify(record.source.name)} --brain BRAIN)`;
        // A Record written over /v1 without a source has none, and so has one a device synced: say
        // so, not "came from null".
        const from =
          record.source.name === null
            ? 'was written over the /v1 API with no source, or came from a device by sync'
            : `came from ${JSON.stringify(record.source.name)}`;
        throw new MnemoError(
          'record_not_erasable',
          `record_id: ${record_id} ${from}, not through this MCP server (source "mcp"), and this tool ` +
            `erases only those: the person forgets it, ${how}`,
        );
      }
      return port.forgetRecord(record_id);
    },
  }),
];
const byName = new Map(tools.map((t) => [t.name, t]));

/** The schema of a tool's arguments, for a check made before the tool runs; undefined for no such tool. */
export const toolArguments = (name: unknown): z.ZodType | undefined =>
  typeof name === 'string' ? byName.get(name)?.schema : undefined;

/**
 * An MCP server over one Brain. `call` names each call in its errors; its `onFault` gets each failure
 * that is not one of Mnemo's errors (a bug, a store's own exception), to be logged; the caller is told
 * only `internal_error`.
 */
export function createMcpServer(port: MemoryPort, call: ToolCallContext = standaloneCall): Server {
  const server = new Server(
    { name: 'mnemo', version: contractVersion },
    {
      capabilities: { tools: {} },
      instructions:
        `Mnemo is the user's memory (Brain "${port.brainId}"). Call get_context before answering anything that may ` +
        'depend on what the user said, did or decided before; cite its record ids. Call remember to keep something ' +
        'worth recalling later, or remember_conversation for a whole conversation. Memories are inferences from Records; a miss is not a denial.',
    },
  );
  // A key that may not write is not offered the tools that write: a model would call them, to be refused.
  const listed = tools.filter((t) => port.may?.(t.operation) ?? true);
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed.map((t) => t.definition) }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = byName.get(request.params.name);
    // A tool error, as McpServer answered one, but in the form of every other failure.
    if (!tool) {
      const names = tools.map((t) => JSON.stringify(t.name)).join(', ');
      return toolError(new MnemoError('invalid_request_body', `name: must be one of ${names}`), call);
    }
    return tool.call(port, request.params.arguments ?? {}, call);
  });
  return server;
}
