import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isJSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { maxJsonDepth, nestedDeeperThan, tooDeepMessage } from '../http/json-depth.ts';
import { illFormedTextProblem } from '../http/well-formed-text.ts';

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
 * Answers a `tools/call` whose params are malformed with JSON-RPC -32602 (invalid params) and a
 * message naming the field, before the SDK's own check can answer it as an internal error. Call it
 * after `server.connect(transport)`, which sets the handler it wraps.
 */
export function guardToolCalls(transport: Transport): void {
  const deliver = transport.onmessage;
  if (!deliver) throw new Error('guardToolCalls: connect the server to the transport first');
  transport.onmessage = (message, extra) => {
    if (isJSONRPCRequest(message) && message.method === 'tools/call') {
      const problem = toolCallParamsProblem(message.params);
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
