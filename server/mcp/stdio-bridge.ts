import { isJSONRPCRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Readable, Writable } from 'node:stream';
import { newId, parseApiKey } from '../../engine/index.ts';
import { errorBodyFor, faultReport } from '../http/error-response.ts';
import { MnemoError } from '../../engine/errors/mnemo-error.ts';
import { Slug } from '../../engine/contract/index.ts';
import { errorCodes, type ErrorCode } from '../../engine/errors/codes.ts';
import { createMnemoClient, MnemoApiError } from '../client/index.ts';
import { loopbackFetch } from '../client/loopback-fetch.ts';
import { LineTransport } from './line-transport.ts';
import { clientPort, type MemoryPort } from './memory-port.ts';
import { createMcpServer, type ToolCallContext } from './mcp-tools.ts';
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
  /** How long one request to the server may go unanswered (default bridgeRequestTimeoutMs). */
  requestTimeoutMs?: number;
  /**
   * With no MNEMO_URL: how the bridge finds the server to send its key to, checked (the CLI's
   * locate-server.ts), instead of sending it to defaultUrl. Absent: defaultUrl, as given.
   */
  discovery?: ServerDiscovery;
}

/**
 * A server found for the bridge: where, and whether it is still the one found, asked before each call
 * (locate-server.ts serverDiscovery, which may ask the server to prove itself again).
 */
export interface ServerDiscovery {
  locate(): Promise<
    | {
        url: string;
        current(): boolean | Promise<boolean>;
        /** What to send the key with there (default loopbackFetch). */
        fetch?: typeof fetch;
      }
    | { problem: string }
  >;
}

/**
 * A server that takes the connection and never answers (stopped in a debugger, the machine asleep, a
 * frozen app) left every tool call waiting for ever: the host's own timeout came first, with no word
 * of why. The client retries a network failure once, so two of these stay under the 60 s an MCP host
 * commonly waits; a Context that takes longer answers 202 from the server long before.
 */
export const bridgeRequestTimeoutMs = 25_000;

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
function refuse(transport: LineTransport, refusal: Refusal, docsUrlBase: () => string): void {
  const info = errorCodes[refusal.code];
  transport.onmessage = (m: JSONRPCMessage) => {
    if (!isJSONRPCRequest(m)) return;
    // `data` is the spec's one error body (and the status), as a /v1 refusal would carry it.
    const e = new MnemoError(refusal.code, refusal.message);
    void transport.send({
      jsonrpc: '2.0',
      id: m.id,
      error: {
        code: mnemoJsonRpcError,
        message: `${refusal.code}: ${refusal.message}`,
        data: { status: info.status, ...errorBodyFor(e, newId('req'), docsUrlBase()) },
      },
    });
  };
}

/**
 * `{docs_url_base}` of the server the bridge reaches: its own `/docs` beside `/v1`, as `mnemo serve`
 * serves it by default (MNEMO_URL `http://127.0.0.1:7821/v1` has its error pages at
 * `http://127.0.0.1:7821/docs/errors/…`). An error of /v1 carries the server's own docs_url; this one
 * names the pages of what the bridge refuses itself.
 */
export function bridgeDocsUrlBase(apiBase: string): string {
  try {
    const u = new URL(apiBase);
    let path = u.pathname;
    while (path.endsWith('/')) path = path.slice(0, -1);
    if (path.endsWith('/v1')) path = path.slice(0, -'/v1'.length);
    return `${u.origin}${path}/docs`;
  } catch {
    return '/docs';
  }
}

/**
 * `mnemo mcp`: the MCP server over stdio, for one Brain, reaching the store through the running
 * server at MNEMO_URL with MNEMO_KEY. Resolves when stdin closes: whether it served the Brain, or only
 * refused every request for a setting it could not use (mcp_identity_unconfigured).
 */
export async function runStdioBridge(o: BridgeOptions): Promise<'served' | 'refused'> {
  const transport = new LineTransport(o.input, o.output, o.log);
  const closed = new Promise<void>((resolve) => {
    const prior = transport.onclose;
    transport.onclose = () => {
      prior?.();
      resolve();
    };
  });
  const givenUrl = o.env.MNEMO_URL?.trim() || undefined;
  const baseUrl = givenUrl ?? o.defaultUrl;
  const discovery = givenUrl === undefined ? o.discovery : undefined;
  // With no MNEMO_URL the default port is a guess (another program may hold it): the error pages
  // named before a first call found the server are those of the server its server.json names.
  // That look is the first call's too (discoveredPort), not one more.
  let docsBase = bridgeDocsUrlBase(baseUrl);
  let foundOne = false;
  const docsUrlBase = () => docsBase;
  const firstLook = discovery?.locate().catch(() => null) ?? null;
  void firstLook?.then((at) => {
    if (at !== null && 'url' in at && !foundOne) docsBase = bridgeDocsUrlBase(at.url);
  });
  const identity = bridgeIdentity(o.env);
  if (!identity.ok) {
    o.log(`mnemo mcp: ${identity.refusal.code}: ${identity.refusal.message}`);
    refuse(transport, identity.refusal, docsUrlBase);
    await transport.start();
    await closed;
    return 'refused';
  }
  // The server's root instead of its /v1 made every tool answer http_404, "The requested path does not
  // exist", and nothing said which setting was wrong: refused at connect, as a bad identity is.
  const urlProblem = givenUrl === undefined && o.discovery ? undefined : o.urlProblem?.(baseUrl);
  if (urlProblem) {
    const refusal: Refusal = { code: 'mcp_identity_unconfigured', message: `MNEMO_URL: ${urlProblem}` };
    o.log(`mnemo mcp: ${refusal.code}: ${refusal.message}`);
    refuse(transport, refusal, docsUrlBase);
    await transport.start();
    await closed;
    return 'refused';
  }
  const portAt = (url: string, via: typeof fetch = loopbackFetch) =>
    clientPort(
      createMnemoClient({
        baseUrl: url,
        apiKey: identity.key,
        fetch: via,
        timeoutMs: o.requestTimeoutMs ?? bridgeRequestTimeoutMs,
        // A rate limit's wait (up to a minute, five times over) outlasted the host's own timeout, which
        // then failed the call while the bridge went on to apply it: a model retrying a remember wrote it
        // twice. The tool error says when to call again instead (retry_after_seconds).
        retry: { maxRateLimitRetries: 0 },
      }),
      identity.brain,
    );
  // What the bridge refuses itself names a call of its own; what /v1 refused keeps /v1's request id.
  const call: ToolCallContext = {
    requestId: () => newId('req'),
    get docsUrlBase() {
      return docsBase;
    },
    onFault: (e, requestId) => o.log(`mnemo mcp: ${faultReport(e, requestId) ?? String(e)}`),
  };
  // A found server's error pages are its own: the bridge's refusals name them too, not defaultUrl's.
  const found = (url: string) => {
    foundOne = true;
    docsBase = bridgeDocsUrlBase(url);
  };
  const server = createMcpServer(
    discovery ? discoveredPort(identity.brain, discovery, portAt, found, firstLook) : portAt(baseUrl),
    call,
  );
  server.onerror = (e) => o.log(`mnemo mcp: ${e.message}`);
  await server.connect(transport);
  guardToolCalls(transport, call, () => transport.currentLine);
  o.log(
    `mnemo mcp: serving Brain "${identity.brain}" of project "${identity.project}" through ${
      discovery ? "the running Mnemo that its server.json names (found at each tool call's need)" : baseUrl
    }`,
  );
  await closed;
  return 'served';
}

/**
 * The port of a bridge with no MNEMO_URL: each call goes to the server discovery found and checked,
 * found again (and checked again) when its server.json changed (a restart: a new secret, maybe another
 * port) or a call could not reach it. An agent's host often starts the bridge before the app: the
 * first call then finds the app, where a search made once at start would have failed for good. When
 * no server can be trusted the call fails with why, and nothing is sent.
 */
function discoveredPort(
  brainId: string,
  discovery: ServerDiscovery,
  portAt: (url: string, via?: typeof fetch) => MemoryPort,
  onFound: (url: string) => void,
  /** The look made at start: used by the first call while its server still holds (`current`). */
  firstLook: Promise<Awaited<ReturnType<ServerDiscovery['locate']>> | null> | null = null,
): MemoryPort {
  let current: { port: MemoryPort; current(): boolean | Promise<boolean> } | null = null;
  let first = firstLook;
  const get = async (): Promise<MemoryPort> => {
    const started = first;
    first = null;
    const early = started === null ? null : await started;
    if (current === null && early !== null && 'url' in early && (await early.current())) {
      current = { port: portAt(early.url, early.fetch), current: early.current };
      onFound(early.url);
      return current.port;
    }
    const held = current;
    if (held !== null && (await held.current())) return held.port;
    if (current === held) current = null;
    const found = await discovery.locate();
    if ('problem' in found)
      throw new MnemoApiError(0, {
        type: 'internal',
        code: 'network_error',
        message: found.problem,
        reached_server: false,
      });
    current = { port: portAt(found.url, found.fetch), current: found.current };
    onFound(found.url);
    return current.port;
  };
  const via =
    <A extends unknown[], R>(call: (p: MemoryPort, ...a: A) => Promise<R>) =>
    async (...a: A): Promise<R> => {
      const port = await get();
      try {
        return await call(port, ...a);
      } catch (e) {
        // Gone, or something else answers there now: the next call looks again, and checks again.
        if (e instanceof MnemoApiError && e.code === 'network_error' && current?.port === port)
          current = null;
        throw e;
      }
    };
  return {
    brainId,
    remember: via((p, ...a: Parameters<MemoryPort['remember']>) => p.remember(...a)),
    context: via((p, ...a: Parameters<MemoryPort['context']>) => p.context(...a)),
    listMemories: via((p, q: Parameters<MemoryPort['listMemories']>[0]) => p.listMemories(q)),
    getMemory: via((p, id: string) => p.getMemory(id)),
    getRecord: via((p, id: string) => p.getRecord(id)),
    listRecords: via((p, q: Parameters<MemoryPort['listRecords']>[0]) => p.listRecords(q)),
    getProfile: via((p, q: Parameters<MemoryPort['getProfile']>[0]) => p.getProfile(q)),
    forgetRecord: via((p, id: string) => p.forgetRecord(id)),
    getTrace: via((p, id: string) => p.getTrace(id)),
  };
}
