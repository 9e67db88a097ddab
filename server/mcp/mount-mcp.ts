import type { Hono } from 'hono';
import type { KeyRegistryPort } from '../../engine/index.ts';
import { isMnemoError, MnemoError } from '../../engine/errors/mnemo-error.ts';
import type { Engine } from '../../engine/types.ts';
import type { AppEnv } from '../http/app-env.ts';
import { authenticate } from '../http/authenticate.ts';
import { errorResponse } from '../http/error-response.ts';
import type * as AnswerMcp from './answer-mcp.ts';

export interface McpDeps {
  engine: Engine;
  registry: KeyRegistryPort | null;
  /**
   * Origins a browser-based MCP client may call from, besides the server's own. Requests with no
   * Origin (desktop agents, CLIs) are not browser requests and pass.
   */
  allowedOrigins?: readonly string[];
  /** Where a tool's fault (not one of Mnemo's errors) is logged, with its stack: the server's log. */
  log?: (line: string) => void;
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
 * error writer, so they have the spec's shape: the transport's own refusals too (answer-mcp.ts).
 * Only POST is served: being stateless, it has no server-sent stream to open with GET and no session to
 * end with DELETE, and 405 is what the MCP transport spec says to answer to both.
 */
export function mountMcp(app: Hono<AppEnv>, deps: McpDeps): void {
  let answering: Promise<typeof AnswerMcp> | undefined;
  app.all('/mcp', async (c) => {
    if (!mcpOriginAllowed(c.req.header('origin'), c.req.header('host'), deps.allowedOrigins)) {
      throw new MnemoError('http_403', 'Origin: this origin may not use the MCP endpoint');
    }
    const principal = await authenticate(c.req.header('authorization'), deps.registry);
    c.set('principal', principal);
    // Only a POST does work: the GET an MCP client sends on connecting, to open a stream this server
    // does not offer, is answered 405 and costs the key nothing, or it spent a call of its limit.
    const limited = c.req.method === 'POST' ? overTheLimit(() => c.get('countRequest')(principal)) : null;
    if (limited && !principal.brain) throw limited;
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
    // The MCP SDK (its zod schemas, ajv) costs ~0.4 CPU s to load: paid by the first /mcp request,
    // not by every server's start.
    answering ??= import('./answer-mcp.ts');
    const answer = await answering;
    const named = { requestId: c.get('requestId'), docsUrlBase: c.get('docsUrlBase')?.() ?? '' };
    if (limited) {
      const told = await answer.answerRateLimited(c.req.raw, limited, named);
      if (told) return told;
      throw limited;
    }
    return answer.answerMcp(
      c.req.raw,
      deps.engine,
      { ...principal, brain: principal.brain },
      named,
      deps.log,
    );
  });
}

/** The rate limit's refusal, if `count` met it; any other failure is thrown. */
function overTheLimit(count: () => void): MnemoError | null {
  try {
    count();
    return null;
  } catch (e) {
    if (isMnemoError(e) && e.code === 'too_many_requests') return e;
    throw e;
  }
}
