import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isJSONRPCRequest, type JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { firstInexactNumber, inexactNumberMessage } from '../http/exact-numbers.ts';
import { maxJsonDepth, nestedDeeperThan, tooDeepMessage } from '../http/json-depth.ts';
import { acceptedAt } from '../http/validate.ts';
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
 * A number of a `tools/call`'s arguments that a double would not keep exactly (exact-numbers.ts), read
 * from `raw`, the JSON text the request came in (alone, or one of a batch); null when there is none.
 * As on /v1: `12345678901234567890` in a fact's value would otherwise be written as
 * `12345678901234567000`. Only the text can tell: the parsed request holds the double.
 */
export function inexactArgumentProblem(raw: string, request: JSONRPCRequest): string | null {
  // Where in a batch the request is: a JSON-RPC id names one request of a batch (MCP).
  const at = raw.trimStart().startsWith('[')
    ? (JSON.parse(raw) as unknown[]).flatMap((m, i) =>
        isObject(m) && m.method === request.method && m.id === request.id ? [i] : [],
      )
    : null;
  const ownPath = (p: (string | number)[]) =>
    at === null ? p : at.includes(p[0] as number) ? p.slice(1) : [];
  const found = firstInexactNumber(raw, (p) => {
    const own = ownPath(p);
    return own[0] === 'params' && own[1] === 'arguments';
  });
  if (!found) return null;
  const path = ownPath(found.path);
  const params = request.params as { name?: unknown; arguments?: unknown };
  // A field that takes text (a fact's value) is told to send the number as text; one that takes only
  // a number (limit) is not.
  const schema = toolArguments(params.name);
  const accepted = schema ? acceptedAt(schema, path.slice(2), params.arguments) : null;
  return inexactNumberMessage({ ...found, path }, 'body', accepted === null || accepted.includes('a string'));
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
  transport.onmessage = (message, extra) => {
    if (isJSONRPCRequest(message) && message.method === 'tools/call') {
      const raw = rawText?.();
      const problem =
        toolCallParamsProblem(message.params) ?? (raw ? inexactArgumentProblem(raw, message) : null);
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
