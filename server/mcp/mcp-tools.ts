import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { ContextRequest, MemoryListQuery, RecordCreate } from '../../engine/contract/index.ts';
import { contractVersion } from '../../engine/contract/version.ts';
import { errorCodes, isErrorCode } from '../../engine/errors/codes.ts';
import type { MemoryPort } from './memory-port.ts';
import { errorMessage } from '../../engine/shared/error-message.ts';

/** The tools a model gets. acceptObject is absent on purpose: a model may never call it. */
export const mcpToolNames = ['remember', 'get_context', 'list_memories', 'get_memory', 'get_record'] as const;

function ok(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }] };
}

/** Any failure, as a tool error the model can read: code, status and type first, then the message. */
export function toolError(e: unknown): CallToolResult {
  const code =
    e && typeof e === 'object' && 'code' in e && typeof e.code === 'string' ? e.code : 'internal_error';
  const message = errorMessage(e);
  const info = isErrorCode(code) ? errorCodes[code] : { status: 500, type: 'internal' };
  return {
    isError: true,
    content: [{ type: 'text', text: `${code} (${info.status} ${info.type}): ${message}` }],
  };
}

const run = async (f: () => Promise<unknown>): Promise<CallToolResult> => {
  try {
    return ok(await f());
  } catch (e) {
    return toolError(e);
  }
};

const req = ContextRequest.shape;
const mem = MemoryListQuery.shape;

/** An MCP server over one Brain. Input schemas are the contract's own fields. */
export function createMcpServer(port: MemoryPort): McpServer {
  const server = new McpServer(
    { name: 'mnemo', version: contractVersion },
    {
      instructions:
        `Mnemo is the user's memory (Brain "${port.brainId}"). Call get_context before answering anything that may ` +
        'depend on what the user said, did or decided before; cite its record ids. Call remember to keep something ' +
        'worth recalling later. Memories are inferences from Records; a miss is not a denial.',
    },
  );

  server.registerTool(
    'remember',
    {
      title: 'Remember a Record',
      description:
        'Write a Record (raw input) into the memory. content is a plain string (stored as a document) or a typed ' +
        'object tagged by kind: message {text, speaker?, thread?}, document {text, title?}, event {title, starts_at?, ' +
        'ends_at?, participants?, place?}, fact {subject, predicate, value}, correction {corrects: mem_..., statement?}. ' +
        'Set occurred_at for anything historical. Returns the Record and a watermark; pass the watermark to ' +
        'get_context to read your own write (replayed is true when an idempotency_key returned an earlier Record ' +
        'and nothing new was written). Records are immutable; nothing is updated in place.',
      inputSchema: {
        content: RecordCreate.shape.content,
        occurred_at: RecordCreate.shape.occurred_at,
        visibility: RecordCreate.shape.visibility,
        idempotency_key: z
          .string()
          .min(1)
          .max(200)
          .optional()
          .describe('Resend the same key when retrying, so a retry returns the original Record.'),
      },
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    (a) =>
      run(() =>
        port.remember(
          {
            content: a.content,
            source: { name: 'mcp' },
            ...(a.occurred_at ? { occurred_at: a.occurred_at } : {}),
            ...(a.visibility ? { visibility: a.visibility } : {}),
          },
          a.idempotency_key,
        ),
      ),
  );

  server.registerTool(
    'get_context',
    {
      title: 'Get Context for a task',
      description:
        'Ask the memory for cited, budgeted context for a task or question. Returns text for direct use in a prompt ' +
        '(null when nothing answers), citations {record_id, quote}, conflicts, unknowns and, when it abstains, the ' +
        'reason. status "processing" means the watermark is not reached yet, or a thorough answer is still being put ' +
        'together: call again shortly with exactly the same arguments.',
      inputSchema: {
        query: req.query,
        purpose: req.purpose,
        as_of: req.as_of,
        budget: req.budget,
        include: req.include,
        filter: req.filter,
        mode: req.mode,
        watermark: z
          .string()
          .min(1)
          .optional()
          .describe('A watermark from remember: answer at or after that write.'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ watermark, ...body }) => run(() => port.context(body, watermark)),
  );

  server.registerTool(
    'list_memories',
    {
      title: 'List or search Memories',
      description:
        'List the Memories (inferred statements, each with citations) of this Brain, optionally searching with q and ' +
        'filtering by subject, owner (self, other or unresolved), status or as_of. Page with cursor / next_cursor.',
      inputSchema: {
        q: mem.q,
        subject: mem.subject,
        owner: mem.owner,
        status: mem.status,
        as_of: mem.as_of,
        cursor: mem.cursor,
        limit: z.int().min(1).max(200).optional().describe('Page size, default 50.'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (q) => run(() => port.listMemories(q)),
  );

  server.registerTool(
    'get_memory',
    {
      title: 'Get a Memory',
      description:
        'One Memory with its revisions (every version of its slot) and evidence (the cited Records).',
      inputSchema: { memory_id: z.string().regex(/^mem_/, 'must be a Memory id (mem_...)') },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ memory_id }) => run(() => port.getMemory(memory_id)),
  );

  server.registerTool(
    'get_record',
    {
      title: 'Get a Record',
      description: 'One Record as it entered: content, source, occurred_at and the Memories derived from it.',
      inputSchema: { record_id: z.string().regex(/^rec_/, 'must be a Record id (rec_...)') },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ record_id }) => run(() => port.getRecord(record_id)),
  );

  return server;
}
