import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Hono } from 'hono';
import type { KeyRegistryPort } from '../../engine/index.ts';
import { MnemoError } from '../../engine/errors/mnemo-error.ts';
import type { Engine } from '../../engine/types.ts';
import type { AppEnv } from '../http/app-env.ts';
import { authenticate } from '../http/authenticate.ts';
import { errorResponse } from '../http/error-response.ts';
import { enginePort } from './memory-port.ts';
import { createMcpServer } from './mcp-tools.ts';
import { guardToolCalls } from './tool-call-params.ts';

export interface McpDeps {
  engine: Engine;
  registry: KeyRegistryPort | null;
  /**
   * Origins a browser-based MCP client may call from, besides the server's own. Requests with no
   * Origin (desktop agents, CLIs) are not browser requests and pass.
   */
  allowedOrigins?: readonly string[];
}

/** Same-origin, or explicitly allowed. An Origin of "null" (sandboxed frames, files) never is. */
export function mcpOriginAllowed(
  origin: string | undefined,
  host: string | undefined,
  allowed: readonly string[] = [],
): boolean {
  if (origin === undefined) return true;
  if (allowed.includes(origin)) return true;
  try {
    const u = new URL(origin);
    return (
      (u.protocol === 'http:' || u.protocol === 'https:') &&
      !!host &&
      u.host.toLowerCase() === host.toLowerCase()
    );
  } catch {
    return false;
  }
}

/**
 * The hosted MCP endpoint at `/mcp` (Streamable HTTP, stateless: one server and transport per request,
 * JSON responses). Needs a key bound to one Brain (`403 mcp_brain_unbound` otherwise); its tools reach
 * that Brain through the engine with the key's tenant and scopes. Errors leave through the app's one
 * error writer, so they have the spec's shape: the transport's own refusals too (see `asMnemoError`).
 * Only POST is served: being stateless, it has no server-sent stream to open with GET and no session to
 * end with DELETE, and 405 is what the MCP transport spec says to answer to both.
 */
export function mountMcp(app: Hono<AppEnv>, deps: McpDeps): void {
  app.all('/mcp', async (c) => {
    if (!mcpOriginAllowed(c.req.header('origin'), c.req.header('host'), deps.allowedOrigins)) {
      throw new MnemoError('http_403', 'Origin: this origin may not use the MCP endpoint');
    }
    const principal = await authenticate(c.req.header('authorization'), deps.registry);
    c.set('principal', principal);
    c.get('countRequest')(principal);
    if (!principal.brain) {
      throw new MnemoError(
        'mcp_brain_unbound',
        'Authorization: /mcp needs a key bound to one Brain (mnemo keys create --brain B)',
      );
    }
    if (c.req.method !== 'POST') {
      const e = new MnemoError(
        'http_405',
        `Method ${c.req.method} is not allowed here; allowed: POST (stateless MCP: no stream to open, no session to end)`,
      );
      return errorResponse(c, e, { Allow: 'POST' });
    }
    const server = createMcpServer(enginePort(deps.engine, { ...principal, brain: principal.brain }));
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    guardToolCalls(transport);
    try {
      const res = await transport.handleRequest(c.req.raw);
      if (res.status < 400) return res;
      throw await asMnemoError(res);
    } finally {
      // Stateless: nothing outlives the request (the JSON response is complete by now).
      await server.close();
    }
  });
}

/**
 * The transport refuses a request before any JSON-RPC exchange (wrong Accept, wrong content type, a
 * body too large, not JSON, not JSON-RPC) with a JSON-RPC error body. The spec allows one error shape
 * for every failure, and an MCP client reads a non-2xx answer as an HTTP error whatever its body, so
 * these become the matching codes of the spec's table, keeping the transport's words as the message.
 */
async function asMnemoError(res: Response): Promise<MnemoError> {
  let said = '';
  try {
    const body = (await res.json()) as { error?: { message?: unknown } };
    if (typeof body.error?.message === 'string') said = body.error.message;
  } catch {
    // No JSON: the status alone decides.
  }
  switch (res.status) {
    case 406:
      return new MnemoError(
        'http_406',
        `Accept: ${said || 'must accept application/json and text/event-stream'}`,
      );
    case 415:
      return new MnemoError('unsupported_media_type', `Content-Type: ${said || 'must be application/json'}`);
    case 400:
    case 413:
      return new MnemoError('invalid_request_body', `body: ${said || 'not a JSON-RPC message'}`);
    default:
      return new MnemoError(
        'internal_error',
        `The MCP transport refused the request (${res.status}): ${said}`,
      );
  }
}
