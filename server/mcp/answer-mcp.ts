import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { MnemoError } from '../../engine/errors/mnemo-error.ts';
import { faultReport } from '../http/error-response.ts';
import { readLimited } from '../http/read-limited.ts';
import type { Engine } from '../../engine/types.ts';
import { enginePort } from './memory-port.ts';
import { createMcpServer, isObject, toolError, type ToolCallContext } from './mcp-tools.ts';
import { guardToolCalls } from './tool-call-params.ts';

/**
 * One /mcp request, once `mountMcp` has let it through: a server and transport of its own (stateless,
 * JSON responses) whose tools reach the key's Brain through the engine. The transport's refusals
 * become errors of the spec's shape (`asMnemoError`).
 */
export async function answerMcp(
  request: Request,
  engine: Engine,
  principal: Parameters<typeof enginePort>[1],
  named: { requestId: string; docsUrlBase: string },
  log: (line: string) => void = () => {},
): Promise<Response> {
  // A tool's error names this request (its X-Request-Id) and docs_url as a /v1 error does. A tool's
  // fault is answered as a tool error, so the app's onError never sees it: logged here, as that
  // handler logs one (faultReport), under the request id the caller is told.
  const call: ToolCallContext = {
    requestId: () => named.requestId,
    docsUrlBase: named.docsUrlBase,
    onFault: (e, requestId) => log(faultReport(e, requestId) ?? String(e)),
  };
  const server = createMcpServer(enginePort(engine, principal, named.requestId), call);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  const body = recordedBody(request);
  guardToolCalls(transport, call, body.text);
  try {
    const res = await transport.handleRequest(body.request);
    if (res.status < 400) return res;
    throw await asMnemoError(res);
  } finally {
    // Stateless: nothing outlives the request (the JSON response is complete by now).
    await server.close();
  }
}

/**
 * The request with its body kept as the transport reads it, so that the guard can read a tool's
 * arguments as they were written (a number's digits, which JSON.parse does not keep). The transport
 * still reads, limits and parses the body itself: its refusals stay its own.
 */
function recordedBody(request: Request): { request: Request; text: () => string | undefined } {
  if (!request.body) return { request, text: () => undefined };
  const chunks: Uint8Array[] = [];
  const kept = request.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, out) {
        chunks.push(chunk);
        out.enqueue(chunk);
      },
    }),
  );
  let text: string | undefined;
  return {
    request: new Request(request.url, {
      method: request.method,
      headers: request.headers,
      body: kept,
      signal: request.signal,
      duplex: 'half',
    } as RequestInit),
    // Read once the transport has parsed the whole body, which it has before it delivers a message.
    text: () => (text ??= Buffer.concat(chunks).toString('utf8')),
  };
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
      // The protocol version is a header's, not the body's: the message names the header.
      if (/protocol version/iu.test(said))
        return new MnemoError('invalid_request_body', `MCP-Protocol-Version: ${said}`);
      return new MnemoError('invalid_request_body', `body: ${said || 'not a JSON-RPC message'}`);
    default:
      return new MnemoError(
        'internal_error',
        `The MCP transport refused the request (${res.status}): ${said}`,
      );
  }
}

/**
 * The most bytes of an over-the-limit request read to find its tool: a key over its limit must cost
 * little to refuse, and a tool's call is a few hundred bytes. A larger one (a long document to
 * remember) stays the 429.
 */
const limitedBodyBytes = 64 * 1024;

/**
 * A tools/call over the key's rate limit, answered as that tool's error, as the stdio bridge answers
 * one: `too_many_requests (429 rate_limit): …` with `retry_after_seconds` where the model reads, and
 * the spec's error body as structuredContent. As an HTTP 429 the SDK client threw a transport error
 * that a host shows as the call failing, without the wait. Null for anything else (initialize, a
 * listing, a batch, a body that is not one JSON-RPC request or is over limitedBodyBytes, a request the
 * transport would refuse), which stays the 429.
 */
export async function answerRateLimited(
  request: Request,
  limited: MnemoError,
  named: { requestId: string; docsUrlBase: string },
): Promise<Response | null> {
  // What the transport would refuse under the limit (406, 415, 400 for a protocol version it does not
  // speak) is no tool's call over it either: its own checks, as it makes them.
  const accept = request.headers.get('accept') ?? '';
  const version = request.headers.get('mcp-protocol-version');
  if (
    !isJsonContentType(request.headers.get('content-type')) ||
    !accept.includes('application/json') ||
    !accept.includes('text/event-stream') ||
    (version !== null && !SUPPORTED_PROTOCOL_VERSIONS.includes(version))
  )
    return null;
  let message: unknown;
  try {
    message = JSON.parse(new TextDecoder().decode(await readLimited(request, limitedBodyBytes)));
  } catch {
    return null;
  }
  if (
    !isObject(message) ||
    message['jsonrpc'] !== '2.0' ||
    message['method'] !== 'tools/call' ||
    !(typeof message['id'] === 'string' || typeof message['id'] === 'number') ||
    !isObject(message['params']) ||
    typeof message['params']['name'] !== 'string'
  )
    return null;
  const call: ToolCallContext = { requestId: () => named.requestId, docsUrlBase: named.docsUrlBase };
  const result = toolError(limited, call, message['params']['name']);
  return Response.json({ jsonrpc: '2.0', id: message['id'], result });
}
