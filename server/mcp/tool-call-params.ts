import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isJSONRPCRequest, type JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import {
  inexactNumberMessage,
  inexactNumbers,
  takesAString,
  type InexactNumber,
} from '../http/exact-numbers.ts';
import { duplicateKeyMessage, duplicateKeys } from '../http/duplicate-keys.ts';
import { walkJson } from '../http/json-walk.ts';
import { maxJsonDepth, nestedDeeperThan, tooDeepMessage } from '../http/json-depth.ts';
import { illFormedTextProblem } from '../http/well-formed-text.ts';
import { MnemoError } from '../../engine/errors/mnemo-error.ts';
import { isObject, toolArguments, toolError, type ToolCallContext } from './mcp-tools.ts';

/**
 * What is wrong with the params of a `tools/call` as a request, if anything: no tool name, or
 * arguments that are not an object. The SDK checks them against its request schema before any tool
 * sees them, and answers a failure as -32603 "internal error" carrying zod's issue dump. These fail
 * the protocol's own request schema, so they stay protocol errors (-32602).
 */
export function toolCallParamsProblem(params: unknown): string | null {
  if (!isObject(params)) return 'params: must be an object with the tool name and its arguments';
  if (typeof params.name !== 'string') return "params.name: must be a string, the tool's name";
  if (params.arguments !== undefined && !isObject(params.arguments))
    return 'params.arguments: must be an object of the tool arguments';
  return null;
}

/**
 * What is wrong with the values of a tool's arguments before the tool may read them, named from the
 * arguments' top as the tool's own validation names a field (`content.text: …`). As for /v1 bodies
 * (read-input.ts), counted from the arguments object: a tool's validation must not meet a value deep
 * enough to overflow the stack, nor text the store does not keep.
 */
export function argumentValuesProblem(args: unknown): string | null {
  if (args === undefined) return null;
  if (nestedDeeperThan(args, maxJsonDepth)) return tooDeepMessage('arguments');
  return illFormedTextProblem(args, 'body');
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
  /** The first field name given twice in a request's arguments, by the request's index, from its top. */
  twice: Map<number, (string | number)[]>;
  /** The batch parsed, once a request of it has to be found by its id. */
  batch?: unknown[];
}

function readText(raw: string): ReadText {
  const isBatch = raw.trimStart().startsWith('[');
  const found = new Map<number, InexactNumber>();
  const at = (p: (string | number)[]) => (isBatch ? (p[0] as number) : -1);
  const own = (p: (string | number)[]) => (isBatch ? p.slice(1) : p);
  const twice = new Map<number, (string | number)[]>();
  const inArguments = (p: (string | number)[]) => own(p)[0] === 'params' && own(p)[1] === 'arguments';
  walkJson(raw, {
    ...inexactNumbers(
      (p) => !found.has(at(p)) && inArguments(p),
      (n) => {
        found.set(at(n.path), { ...n, path: own(n.path) });
        return true;
      },
    ),
    ...duplicateKeys(
      (p) => !twice.has(at(p)) && inArguments(p),
      (p) => {
        twice.set(at(p), own(p).slice(2));
        return true;
      },
    ),
  });
  return { raw, found, twice };
}

/** What `read` holds of `request` (alone, or one of a batch, found by its id), or undefined. */
function ofRequest<T>(
  byIndex: Map<number, T>,
  raw: string,
  request: JSONRPCRequest,
  read: ReadText,
): T | undefined {
  if (byIndex.size === 0) return undefined;
  const alone = byIndex.get(-1);
  if (alone !== undefined) return alone;
  // Where in a batch the request is: a JSON-RPC id names one request of a batch (MCP).
  read.batch ??= JSON.parse(raw) as unknown[];
  const at = read.batch.flatMap((m, i) =>
    isObject(m) && m.method === request.method && m.id === request.id ? [i] : [],
  );
  return at.map((i) => byIndex.get(i)).find((n) => n !== undefined);
}

/**
 * A field name given twice in one object of a `tools/call`'s arguments, read from `raw` as
 * `inexactArgumentProblem` reads numbers; null when there is none. JSON.parse kept the last of the two
 * without a word, so the tool would have run on a value its caller may not have meant, as /v1 refuses.
 */
export function duplicateArgumentProblem(
  raw: string,
  request: JSONRPCRequest,
  read: ReadText = readText(raw),
): string | null {
  const path = ofRequest(read.twice, raw, request, read);
  return path ? duplicateKeyMessage(path) : null;
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
  const found = ofRequest(read.found, raw, request, read);
  if (!found) return null;
  const params = request.params as { name?: unknown; arguments?: unknown };
  // A field that takes text (a fact's value) is told to send the number as text; one that takes only
  // a number (limit) is not.
  const takesString = takesAString(toolArguments(params.name), found.path.slice(2), params.arguments);
  // Named from the arguments' top, as the tool's validation names its fields.
  return inexactNumberMessage({ ...found, path: found.path.slice(2) }, 'body', takesString);
}

/**
 * Answers a `tools/call` whose params are malformed with JSON-RPC -32602 (invalid params) and a
 * message naming the field, before the SDK's own check can answer it as an internal error. Arguments
 * whose values no tool may read (nested too deep, text the store does not keep, a number a double
 * would not keep) are answered as the tool's own bad arguments are: a tool error
 * `invalid_request_body (400 invalid_request): <field>: …`. MCP (2025-11-25, SEP-1303) makes input
 * validation a tool execution error, so that the model sees it and can correct its call; hosts pass a
 * protocol error to the model as a bare failure, if at all. Call it after `server.connect(transport)`,
 * which sets the handler it wraps. `call` names the call in such an error, as the tools do. `rawText`,
 * when given, is the JSON text the message being delivered came in, read for numbers a double would
 * not keep.
 */
export function guardToolCalls(
  transport: Transport,
  call?: ToolCallContext,
  rawText?: () => string | undefined,
): void {
  const deliver = transport.onmessage;
  if (!deliver) throw new Error('guardToolCalls: connect the server to the transport first');
  let last: ReadText | undefined;
  transport.onmessage = (message, extra) => {
    if (isJSONRPCRequest(message) && message.method === 'tools/call') {
      const malformed = toolCallParamsProblem(message.params);
      if (malformed) {
        void transport.send({
          jsonrpc: '2.0',
          id: message.id,
          error: { code: -32602, message: `Invalid params: ${malformed}` },
        });
        return;
      }
      const raw = rawText?.();
      if (raw && last?.raw !== raw) last = readText(raw);
      const problem =
        argumentValuesProblem((message.params as { arguments?: unknown }).arguments) ??
        (raw
          ? (duplicateArgumentProblem(raw, message, last) ?? inexactArgumentProblem(raw, message, last))
          : null);
      if (problem) {
        const result = toolError(new MnemoError('invalid_request_body', problem), call);
        void transport.send({ jsonrpc: '2.0', id: message.id, result });
        return;
      }
    }
    deliver(message, extra);
  };
}
