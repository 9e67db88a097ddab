import { isJSONRPCRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Readable, Writable } from 'node:stream';
import { newId, parseApiKey } from '../../engine/index.ts';
import { faultReport } from '../http/error-response.ts';
import { Slug } from '../../engine/contract/index.ts';
import { errorCodes, type ErrorCode } from '../../engine/errors/codes.ts';
import { createMnemoClient } from '../client/index.ts';
import { loopbackFetch } from '../client/loopback-fetch.ts';
import { LineTransport } from './line-transport.ts';
import { clientPort } from './memory-port.ts';
import { createMcpServer } from './mcp-tools.ts';
import { guardToolCalls } from './tool-call-params.ts';

/** JSON-RPC error code (implementation-defined server range) carrying a Mnemo error. */
export const mnemoJsonRpcError = -32001;

export interface BridgeOptions {
  env: Record<string, string | undefined>;
  input: Readable;
  output: Writable;
  log: (line: string) => void;
  defaultUrl: string;
  /** What is wrong with a URL as the API's base, or null (the CLI's check, as `mnemo import` makes it). */
  urlProblem?: (url: string) => string | null;
}

interface Refusal {
  code: ErrorCode;
  message: string;
}

/** Reads the bridge's identity from the environment, or says what is wrong with it. */
export function bridgeIdentity(
  env: Record<string, string | undefined>,
): { ok: true; project: string; brain: string; key: string } | { ok: false; refusal: Refusal } {
  const project = env.MNEMO_PROJECT?.trim();
  const brain = env.MNEMO_BRAIN?.trim();
  const missing = [!project && 'MNEMO_PROJECT', !brain && 'MNEMO_BRAIN'].filter(Boolean);
  if (missing.length || !project || !brain) {
    return {
      ok: false,
      refusal: {
        code: 'mcp_identity_unconfigured',
        message: `${missing.join(', ')}: the stdio bridge needs both MNEMO_PROJECT and MNEMO_BRAIN set`,
      },
    };
  }
  if (!Slug.safeParse(brain).success) {
    return {
      ok: false,
      refusal: { code: 'mcp_identity_unconfigured', message: `MNEMO_BRAIN: "${brain}" is not a Brain id` },
    };
  }
  const key = env.MNEMO_KEY?.trim();
  const parsed = key ? parseApiKey(key) : null;
  if (!key || !parsed) {
    return {
      ok: false,
      refusal: {
        code: 'invalid_api_key',
        message: 'MNEMO_KEY: set it to a key of the form sk_<env>_<project>_<secret>',
      },
    };
  }
  if (parsed.project !== project) {
    return {
      ok: false,
      refusal: {
        code: 'mcp_identity_unconfigured',
        message: `MNEMO_KEY belongs to project "${parsed.project}", not MNEMO_PROJECT "${project}"`,
      },
    };
  }
  return { ok: true, project, brain, key };
}

/**
 * Answers every request with the refusal as a JSON-RPC error (so an MCP client sees why it cannot
 * connect) and keeps running until stdin closes.
 */
function refuse(transport: LineTransport, refusal: Refusal): void {
  const info = errorCodes[refusal.code];
  transport.onmessage = (m: JSONRPCMessage) => {
    if (!isJSONRPCRequest(m)) return;
    void transport.send({
      jsonrpc: '2.0',
      id: m.id,
      error: {
        code: mnemoJsonRpcError,
        message: `${refusal.code}: ${refusal.message}`,
        data: { status: info.status, type: info.type, code: refusal.code, message: refusal.message },
      },
    });
  };
}

/**
 * `mnemo mcp`: the MCP server over stdio, for one Brain, reaching the store through the running
 * server at MNEMO_URL with MNEMO_KEY. Resolves when stdin closes.
 */
export async function runStdioBridge(o: BridgeOptions): Promise<void> {
  const transport = new LineTransport(o.input, o.output, o.log);
  const closed = new Promise<void>((resolve) => {
    const prior = transport.onclose;
    transport.onclose = () => {
      prior?.();
      resolve();
    };
  });
  const identity = bridgeIdentity(o.env);
  if (!identity.ok) {
    o.log(`mnemo mcp: ${identity.refusal.code}: ${identity.refusal.message}`);
    refuse(transport, identity.refusal);
    await transport.start();
    return closed;
  }
  const baseUrl = o.env.MNEMO_URL?.trim() || o.defaultUrl;
  // The server's root instead of its /v1 made every tool answer http_404, "The requested path does not
  // exist", and nothing said which setting was wrong: refused at connect, as a bad identity is.
  const urlProblem = o.urlProblem?.(baseUrl);
  if (urlProblem) {
    const refusal: Refusal = { code: 'mcp_identity_unconfigured', message: `MNEMO_URL: ${urlProblem}` };
    o.log(`mnemo mcp: ${refusal.code}: ${refusal.message}`);
    refuse(transport, refusal);
    await transport.start();
    return closed;
  }
  const client = createMnemoClient({ baseUrl, apiKey: identity.key, fetch: loopbackFetch });
  const server = createMcpServer(clientPort(client, identity.brain), (e) =>
    o.log(`mnemo mcp: ${faultReport(e, newId('req')) ?? String(e)}`),
  );
  server.onerror = (e) => o.log(`mnemo mcp: ${e.message}`);
  await server.connect(transport);
  guardToolCalls(transport, () => transport.currentLine);
  o.log(`mnemo mcp: serving Brain "${identity.brain}" of project "${identity.project}" through ${baseUrl}`);
  return closed;
}
