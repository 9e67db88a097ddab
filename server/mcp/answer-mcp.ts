import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { MnemoError } from '../../engine/errors/mnemo-error.ts';
import { faultReport } from '../http/error-response.ts';
import type { Engine } from '../../engine/types.ts';
import { enginePort } from './memory-port.ts';
import { createMcpServer, type ToolCallContext } from './mcp-tools.ts';
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
