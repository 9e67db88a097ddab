import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Hono } from 'hono';
import type { KeyRegistry } from '../../engine/auth/key-registry.ts';
import { MnemoError } from '../../engine/errors/mnemo-error.ts';
import type { Engine } from '../../engine/types.ts';
import type { AppEnv } from '../http/app-env.ts';
import { authenticate } from '../http/authenticate.ts';
import { enginePort } from './memory-port.ts';
import { createMcpServer } from './mcp-tools.ts';

export interface McpDeps {
  engine: Engine;
  registry: KeyRegistry | null;
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
 * error writer, so they have the spec's shape.
 */
export function mountMcp(app: Hono<AppEnv>, deps: McpDeps): void {
  app.all('/mcp', async (c) => {
    if (!mcpOriginAllowed(c.req.header('origin'), c.req.header('host'), deps.allowedOrigins)) {
      throw new MnemoError('http_403', 'Origin: this origin may not use the MCP endpoint');
    }
    const principal = authenticate(c.req.header('authorization'), deps.registry);
    c.set('principal', principal);
    c.get('countRequest')(principal);
    if (!principal.brain) {
      throw new MnemoError(
        'mcp_brain_unbound',
        'Authorization: /mcp needs a key bound to one Brain (mnemo keys create --brain B)',
      );
    }
    const server = createMcpServer(
      enginePort(deps.engine, principal.tenant, principal.brain, principal.scopes),
    );
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    try {
      return await transport.handleRequest(c.req.raw);
    } finally {
      // Stateless: nothing outlives the request (the JSON response is complete by now).
      await server.close();
    }
  });
}
