import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isJSONRPCRequest, type JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import {
  eachInexactNumber,
  inexactNumberMessage,
  takesAString,
  type InexactNumber,
} from '../http/exact-numbers.ts';
import { maxJsonDepth, nestedDeeperThan, tooDeepMessage } from '../http/json-depth.ts';
import { illFormedTextProblem } from '../http/well-formed-text.ts';
import { toolArguments } from './mcp-tools.ts';

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * What is wrong with the params of a `tools/call`, if anything. The SDK checks them against its request
 * schema before any tool sees them, and answers a failure as -32603 "internal error" carrying zod's
 * issue dump; Mnemo validates a tool's own arguments (mcp-tools.ts), but not whether there are any.
 */
export function toolCallParamsProblem(params: unknown): string | null {
  if (!isObject(params)) return 'params: must be an object with the tool name and its arguments';
  if (typeof params.name !== 'string') return "params.name: must be a string, the tool's name";
  if (params.arguments !== undefined && !isObject(params.arguments))
    return 'params.arguments: must be an object of the tool arguments';
  // As for /v1 bodies (read-input.ts), counted from the arguments object: a tool's validation must
  // not meet a value deep enough to overflow the stack.
  if (nestedDeeperThan(params.arguments, maxJsonDepth)) return tooDeepMessage('params.arguments');
  return params.arguments === undefined ? null : illFormedTextProblem(params.arguments, 'params.arguments');
}

/**
 * The JSON text a message came in, read once for the numbers of tool arguments a double would not
 * keep: the first of each request's (by its index in a batch; -1 when not a batch). Every request of a
 * batch (up to 100) is checked against the same text, which must not be parsed and scanned again for
 * each: a 4 MB batch would block the event loop for seconds.
 */
interface ReadText {
  raw: string;
  found: Map<number, InexactNumber>;
  /** The batch parsed, once a request of it has to be found by its id. */
  batch?: unknown[];
}

function readText(raw: string): ReadText {
  const isBatch = raw.trimStart().startsWith('[');
  const found = new Map<number, InexactNumber>();
  const at = (p: (string | number)[]) => (isBatch ? (p[0] as number) : -1);
  const own = (p: (string | number)[]) => (isBatch ? p.slice(1) : p);
  eachInexactNumber(
    raw,
    (p) => !found.has(at(p)) && own(p)[0] === 'params' && own(p)[1] === 'arguments',
    (n) => {
      found.set(at(n.path), { ...n, path: own(n.path) });
      return true;
    },
  );
  return { raw, found };
}

/**
 * A number of a `tools/call`'s arguments that a double would not keep exactly (exact-numbers.ts), read
 * from `raw`, the JSON text the request came in (alone, or one of a batch); null when there is none.
 * As on /v1: `12345678901234567890` in a fact's value would otherwise be written as
 * `12345678901234567000`. Only the text can tell: the parsed request holds the double. `read`: that
 * text as readText read it, when it was already.
 */
export function inexactArgumentProblem(
  raw: string,
  request: JSONRPCRequest,
  read: ReadText = readText(raw),
): string | null {
  if (read.found.size === 0) return null;
  let found = read.found.get(-1);
  if (found === undefined) {
    // Where in a batch the request is: a JSON-RPC id names one request of a batch (MCP).
    read.batch ??= JSON.parse(raw) as unknown[];
    const at = read.batch.flatMap((m, i) =>
      isObject(m) && m.method === request.method && m.id === request.id ? [i] : [],
    );
    found = at.map((i) => read.found.get(i)).find((n) => n !== undefined);
  }
  if (!found) return null;
  const params = request.params as { name?: unknown; arguments?: unknown };
  // A field that takes text (a fact's value) is told to send the number as text; one that takes only
  // a number (limit) is not.
  const takesString = takesAString(toolArguments(params.name), found.path.slice(2), params.arguments);
  return inexactNumberMessage(found, 'body', takesString);
}

/**
 * Answers a `tools/call` whose params are malformed with JSON-RPC -32602 (invalid params) and a
 * message naming the field, before the SDK's own check can answer it as an internal error. Call it
 * after `server.connect(transport)`, which sets the handler it wraps. `rawText`, when given, is the
 * JSON text the message being delivered came in, read for numbers a double would not keep.
 */
export function guardToolCalls(transport: Transport, rawText?: () => string | undefined): void {
  const deliver = transport.onmessage;
  if (!deliver) throw new Error('guardToolCalls: connect the server to the transport first');
  let last: ReadText | undefined;
  transport.onmessage = (message, extra) => {
    if (isJSONRPCRequest(message) && message.method === 'tools/call') {
      const raw = rawText?.();
      if (raw && last?.raw !== raw) last = readText(raw);
      const problem =
        toolCallParamsProblem(message.params) ?? (raw ? inexactArgumentProblem(raw, message, last) : null);
      if (problem) {
        void transport.send({
          jsonrpc: '2.0',
          id: message.id,
          error: { code: -32602, message: `Invalid params: ${problem}` },
        });
        return;
      }
    }
    deliver(message, extra);
  };
}
