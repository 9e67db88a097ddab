import assert from 'node:assert/strict';
import type { Readable, Writable } from 'node:stream';

/** A tools/call's result as the MCP bridge answers it. */
export interface ToolResult {
  isError?: boolean;
  content: { text: string }[];
  structuredContent?: Record<string, unknown>;
}

/**
 * An MCP client over newline-delimited JSON-RPC, as a host speaks to the stdio bridge (or `mnemo mcp`):
 * messages to INPUT, answers read from OUTPUT. `initialize` opens the session; `call` sends a
 * tools/call and waits for its result, polled every 25 ms up to `tries` times; a missing answer fails
 * the test, with `said()` (the process's stderr, say) in its message.
 */
export function jsonRpcLines(
  input: Writable,
  output: Readable,
  o: { tries?: number; said?: () => string } = {},
) {
  const lines: Record<string, unknown>[] = [];
  let buffered = '';
  output.on('data', (c: Buffer) => {
    buffered += c.toString('utf8');
    for (let at = buffered.indexOf('\n'); at >= 0; at = buffered.indexOf('\n')) {
      lines.push(JSON.parse(buffered.slice(0, at)) as Record<string, unknown>);
      buffered = buffered.slice(at + 1);
    }
  });
  const send = (m: object) => input.write(`${JSON.stringify({ jsonrpc: '2.0', ...m })}\n`);
  const answer = async (id: number) => {
    for (let i = 0; i < (o.tries ?? 400); i += 1) {
      const found = lines.find((l) => l['id'] === id);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 25));
    }
    assert.fail(`no answer to request ${id}${o.said ? `: ${o.said()}` : ''}`);
  };
  let id = 1;
  return {
    initialize: async () => {
      send({
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      });
      await answer(1);
      send({ method: 'notifications/initialized' });
    },
    call: async (name: string, args: object = {}): Promise<ToolResult> => {
      const at = (id += 1);
      send({ id: at, method: 'tools/call', params: { name, arguments: args } });
      return (await answer(at))['result'] as ToolResult;
    },
  };
}
