import { getRequestListener, RequestError, type HttpBindings } from '@hono/node-server';
import {
  createServer,
  STATUS_CODES,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { MnemoError } from '../engine/errors/mnemo-error.ts';
import { quoted } from '../engine/errors/shown-value.ts';
import { answeredError, faultReport, frameworkError } from './http/error-response.ts';
import { absoluteTarget, hostAllowed, type LoopbackPolicy } from './http/loopback-guard.ts';

export interface ListenOptions {
  /** The app's fetch (Hono's `app.fetch`). */
  fetch: (request: Request, env: HttpBindings) => Response | Promise<Response>;
  host: string;
  port: number;
  loopback: LoopbackPolicy;
  docsUrlBase: () => string;
  log: (line: string) => void;
  /** Tests' smaller limits; absent: connectionLimits. */
  limits?: Partial<ConnectionLimits>;
}

/** How many connections a server keeps open and for how long (docs/decisions.md, "Connections and timeouts"). */
export interface ConnectionLimits {
  /** Open at once from one remote address; one more is answered 429 http_429 and closed. */
  perAddress: number;
  /** Open at once from all addresses; beyond it Node closes a new connection unanswered. */
  total: number;
  /** From a connection's (or a request's) start to the end of its headers. */
  headersTimeoutMs: number;
  /** From a request's start to the end of its body (an upload through a slow link included). */
  requestTimeoutMs: number;
  /** How long a kept-alive connection may stay idle between requests. */
  keepAliveTimeoutMs: number;
  /** How often the first two are checked: Node's 30 s would let a connection overstay by that much. */
  checkIntervalMs: number;
}

/**
 * A local process, or one address beyond, could open sockets until the server ran out of file
 * descriptors (and the store with it). 512 from one address is some sixty times what `bench write`
 * (8) or a browser (6 per host) keeps, while a reverse proxy, whose connections all come from one
 * address, still gets 512 requests at once; 2,048 in all stays under common descriptor limits.
 */
export const connectionLimits: ConnectionLimits = {
  perAddress: 512,
  total: 2_048,
  headersTimeoutMs: 15_000,
  requestTimeoutMs: 300_000,
  keepAliveTimeoutMs: 5_000,
  checkIntervalMs: 1_000,
};

export interface Listener {
  server: Server;
  port: number;
  /**
   * Stops accepting, closes idle connections at once, lets in-flight requests finish for up to
   * `graceMs` (or until `force` settles), answers any still running with a 500, and resolves once every
   * connection is gone. Returns how many requests were cut off.
   */
  shutdown(graceMs: number, force: Promise<void>): Promise<number>;
}

/** Thrown through @hono/node-server so it writes nothing for a request shutdown already answered. */
const alreadyAnswered = new Error('answered by shutdown');

/** How long a connection the parser gave up on may stay open to read our answer before it is dropped. */
const lingerMs = 2_000;

/**
 * The HTTP/1.1 server under the app: @hono/node-server's request listener on node:http, with what
 * that pair leaves to its user. Failures before the app runs (Node's parser, node-server's own request
 * checks, the Host guard) still answer in the spec's one error shape; and shutdown drains in-flight
 * requests instead of dropping them.
 */
export async function listen(options: ListenOptions): Promise<Listener> {
  const inflight = new Set<ServerResponse>();
  const cut = new WeakSet<ServerResponse>();
  /** Sockets with a response under way: a parser error there must not write into that response. */
  const busySockets = new WeakMap<Socket, number>();
  /** The request each socket carries now, to tell a parser error in its body from one after it. */
  const current = new WeakMap<Socket, { req: IncomingMessage; res: ServerResponse }>();
  /** What to write on a socket once its responses under way are done (a pipelined request's 400). */
  const afterResponses = new WeakMap<Socket, () => void>();
  let closing = false;
  let onDrained: (() => void) | null = null;

  const reply = (e: MnemoError) => frameworkError(e, options.docsUrlBase());
  const asResponse = (r: ReturnType<typeof reply>) =>
    new Response(r.body, { status: r.status, headers: r.headers });
  const writeError = (res: ServerResponse, e: MnemoError, extra: Record<string, string> = {}) => {
    const r = reply(e);
    res.writeHead(r.status, { ...r.headers, ...extra });
    res.end(r.body);
  };

  const fetch = async (request: Request, env: HttpBindings) => {
    const response = await options.fetch(request, env);
    if (cut.has(env.outgoing)) throw alreadyAnswered;
    return response;
  };
  const nodeServerListener = getRequestListener(fetch as Parameters<typeof getRequestListener>[0], {
    // Its default answers a bad request with an empty text/plain 400 and no request id.
    errorHandler: (e) => {
      if (e === alreadyAnswered) return;
      if (e instanceof RequestError)
        return asResponse(reply(new MnemoError('http_400', requestErrorMessage(e))));
      const r = reply(answeredError(e));
      options.log(faultReport(e, r.headers['X-Request-Id']!) ?? String(e));
      return asResponse(r);
    },
  });

  const track = (res: ServerResponse) => {
    inflight.add(res);
    const socket = res.socket;
    if (socket) busySockets.set(socket, (busySockets.get(socket) ?? 0) + 1);
    if (closing) res.setHeader('Connection', 'close');
    res.once('close', () => {
      inflight.delete(res);
      if (socket) {
        const busy = (busySockets.get(socket) ?? 1) - 1;
        busySockets.set(socket, busy);
        const then = afterResponses.get(socket);
        if (busy === 0 && then) {
          afterResponses.delete(socket);
          then();
        }
      }
      if (inflight.size === 0) onDrained?.();
    });
  };

  const limits = { ...connectionLimits, ...options.limits };
  /** Connections answered 429 as they opened: a request that arrives on one anyway gets nothing more. */
  const refused = new WeakSet<Socket>();
  const server = createServer(
    {
      // A missing Host is answered below in the error shape, not by Node with an empty 400.
      requireHostHeader: false,
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: limits.checkIntervalMs,
    },
    (req: IncomingMessage, res: ServerResponse) => {
      if (refused.has(req.socket)) return void res.destroy();
      track(res);
      closeWhenBodyUnread(req, res);
      if (res.socket) current.set(res.socket, { req, res });
      const host = req.headers.host;
      if (!host) return writeError(res, new MnemoError('http_400', 'Host: the header is required'));
      // Node keeps the first of several Host headers; RFC 9112 says such a request is refused.
      if (req.rawHeaders.filter((h, i) => i % 2 === 0 && h.toLowerCase() === 'host').length > 1)
        return writeError(res, new MnemoError('http_400', 'Host: send the header once'));
      const absolute = absoluteTarget(req.url ?? '');
      const authority = absolute?.authority ?? host;
      // Before node-server, which refuses some Hosts itself (a user@ part, a non-canonical address)
      // with a bare 400: whatever is not this server's own name gets the guard's answer.
      if (!hostAllowed(options.loopback, authority))
        return writeError(
          res,
          new MnemoError(
            'http_403',
            `${options.loopback.refusal}; it was sent ${quoted(authority)}${absolute ? ' in the request target' : ''}`,
          ),
        );
      // From here on the request names its host once, in Host, and its target is a path.
      if (absolute) req.url = absolute.path;
      // node-server reads the target as a WHATWG URL, which resolves "." and ".." segments, %2E-encoded
      // ones too: `DELETE /v1/brains/b/sources/..`, a source that may well be named "..", forgot Brain b.
      if (hasDotSegment(req.url ?? ''))
        return writeError(
          res,
          new MnemoError('http_400', 'The request target is not a valid path: it has a "." or ".." segment.'),
        );
      // Host names are case-insensitive; node-server accepts only the canonical (lower-case) spelling.
      req.headers.host = authority.toLowerCase();
      void nodeServerListener(req, res);
    },
  );

  /** An answer written straight to the socket, which then closes: there is no response object. */
  const answerOnSocket = (socket: Socket, e: MnemoError) => {
    const r = reply(e);
    const head = Object.entries({ ...r.headers, Connection: 'close' })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.end(`HTTP/1.1 ${r.status} ${STATUS_CODES[r.status]}\r\n${head}\r\n${r.body}`);
    // Keep reading what the client still sends (the rest of an oversized header): closing with unread
    // data resets the connection, and the client may lose the answer before it reads it.
    socket.resume();
    const drop = setTimeout(() => socket.destroy(), lingerMs);
    drop.unref();
    socket.once('close', () => clearTimeout(drop));
  };

  /** The answer now, or once the requests before it on the socket are answered (pipelining). */
  const answerInTurn = (socket: Socket, e: MnemoError) => {
    if ((busySockets.get(socket) ?? 0) === 0) return answerOnSocket(socket, e);
    afterResponses.set(socket, () => {
      if (socket.writable) answerOnSocket(socket, e);
      else socket.destroy();
    });
  };

  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  // A kept-alive connection idle past its time is closed as Node would, but only once the event loop
  // has read what arrived: after a stall (a long synchronous step, a loaded machine) the expired timer
  // runs before the poll for I/O, and closing then reset a request its client had sent in time
  // (ECONNRESET: a write the client cannot know was not applied). With a listener, Node leaves a
  // timed-out socket to it.
  server.on('timeout', (socket: Socket) => {
    const read = socket.bytesRead;
    setImmediate(() => {
      if (!socket.destroyed && socket.bytesRead === read && (busySockets.get(socket) ?? 0) === 0)
        socket.destroy();
    });
  });
  server.maxConnections = limits.total;
  const openPerAddress = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const open = (openPerAddress.get(address) ?? 0) + 1;
    openPerAddress.set(address, open);
    socket.once('close', () => {
      const left = (openPerAddress.get(address) ?? 1) - 1;
      if (left === 0) openPerAddress.delete(address);
      else openPerAddress.set(address, left);
    });
    if (open <= limits.perAddress) return;
    refused.add(socket);
    answerOnSocket(
      socket,
      new MnemoError(
        'http_429',
        `This server keeps at most ${limits.perAddress} connections open at once from one address; ` +
          'close idle ones, or try again once some have closed.',
      ),
    );
  });

  // Without a listener Node closes a CONNECT's connection without a word.
  server.on('connect', (_req: IncomingMessage, socket: Socket) => {
    if (refused.has(socket)) return void socket.destroy();
    answerInTurn(socket, new MnemoError('http_400', 'CONNECT: this server is not a proxy.'));
  });
  // Without a listener Node answers an Expect other than 100-continue with an empty 417.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    if (refused.has(req.socket)) return void res.destroy();
    track(res);
    const expectation = String(req.headers.expect).slice(0, 100);
    writeError(
      res,
      new MnemoError('http_400', `Expect: only 100-continue is understood, not "${expectation}"`),
      {
        Connection: 'close',
      },
    );
  });

  // Node's parser gave up: there is no request or response object, so the answer goes on the socket.
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    const peerGone = err.code === 'ECONNRESET' || err.code === 'EPIPE';
    const busy = busySockets.get(socket) ?? 0;
    // The body of the one request under way is malformed (a bad chunk size): nothing was answered yet, so
    // the answer is this 400, and whatever the app makes of the cut-off body is never written.
    const open = current.get(socket);
    const inBody = busy === 1 && open && !open.req.complete && !open.res.headersSent;
    if (peerGone || !socket.writable) {
      socket.destroy();
      return;
    }
    const refusal = new MnemoError('http_400', clientErrorMessage(err));
    if (inBody) {
      cut.add(open.res);
      return answerOnSocket(socket, refusal);
    }
    // A malformed request pipelined behind whole ones: they are answered first, in order, then this.
    answerInTurn(socket, refusal);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });

  const drained = () =>
    new Promise<void>((resolve) => {
      if (inflight.size === 0) resolve();
      else onDrained = resolve;
    });

  return {
    server,
    port: (server.address() as AddressInfo).port,
    async shutdown(graceMs, force) {
      closing = true;
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      // Connections answer their current request and then close; idle ones close now.
      for (const res of inflight) if (!res.headersSent) res.setHeader('Connection', 'close');
      server.closeIdleConnections();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        drained(),
        force,
        new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs))),
      ]);
      clearTimeout(timer);
      const stillRunning = [...inflight];
      for (const res of stillRunning) {
        cut.add(res);
        if (res.headersSent) {
          // A stream already under way cannot change its status.
          res.destroy();
          continue;
        }
        const unfinished = new MnemoError(
          'internal_error',
          'The server stopped before this request finished; part of it may have been applied.',
        );
        writeError(res, unfinished, { Connection: 'close' });
      }
      if (stillRunning.length > 0) {
        await Promise.race([drained(), new Promise((resolve) => setTimeout(resolve, lingerMs).unref())]);
      }
      // What is left is idle, or a request whose headers never finished: it never reached the app.
      server.closeAllConnections();
      await stopped;
      return stillRunning.length;
    },
  };
}

/**
 * A response that starts while its request's body is still arriving answers without that body: a
 * refusal that did not need it (no key, a wrong Host, a cross-origin page, a missing scope, too large).
 * It says `Connection: close`, and the rest of the body is not read: before, node-server read and
 * dropped up to 64 MB (or half a second) of it to keep the connection for a next request, and Node
 * itself, for a refused Host, read it without end. A request whose body has all arrived, every one
 * that succeeds, keeps its connection.
 */
function closeWhenBodyUnread(req: IncomingMessage, res: ServerResponse): void {
  const hasBody =
    req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
  if (!hasBody) return;
  const writeHead = res.writeHead;
  // Every head goes out through writeHead (an implicit one too), so this sees each response start.
  res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse['writeHead']>) {
    if (!req.complete) {
      this.setHeader('Connection', 'close');
      closeUnread(req, this);
    }
    return writeHead.apply(this, args);
  } as ServerResponse['writeHead'];
}

/**
 * How a `Connection: close` answer to a request with its body unread ends. Node ends one with the
 * socket's destroySoon: destroyed as soon as the answer is written out, which, with the body's bytes
 * still arriving, resets the connection, and a client still sending (curl with a large upload) loses
 * the answer before it reads it. Instead the socket stops reading (the client's sends stop once the
 * kernel's buffers fill: nothing of the body reaches this process), our side is ended after the answer,
 * and the socket is destroyed once the client has closed, or after lingerMs.
 */
function closeUnread(req: IncomingMessage, res: ServerResponse): void {
  const socket = req.socket;
  const stopReading = () => {
    req.pause();
    socket.pause();
  };
  let ending = false;
  socket.destroySoon = () => {
    if (ending) return;
    ending = true;
    stopReading();
    socket.end();
    const drop = setTimeout(() => socket.destroy(), lingerMs);
    drop.unref();
    socket.once('close', () => clearTimeout(drop));
  };
  // node-server's clean-up, told of the end after Node, resumes the body to drop up to 64 MB of it.
  res.once('finish', stopReading);
}

/**
 * Whether a request target's path has a "." or ".." segment, written out or percent-encoded (the URL
 * standard resolves `%2e%2e` as it does `..`). No route of this API has one, and resolving it would
 * answer for another resource than the one named: the parent of a source or a Record is its Brain.
 */
function hasDotSegment(target: string): boolean {
  let path = target;
  const end = path.search(/[?#]/);
  if (end !== -1) path = path.slice(0, end);
  return path.split('/').some((segment) => {
    const s = segment.replace(/%2e/gi, '.');
    return s === '.' || s === '..';
  });
}

function requestErrorMessage(e: RequestError): string {
  if (/host/i.test(e.message)) return 'Host: not a valid host name and port';
  return 'The request target is not a valid path.';
}

/** Generic messages (spec: http_* codes carry generic messages), by what Node's parser reported. */
function clientErrorMessage(err: NodeJS.ErrnoException): string {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return 'The request headers are larger than this server accepts.';
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return 'The request did not arrive in full in time.';
    case 'HPE_INVALID_CHUNK_SIZE':
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
    case 'HPE_INVALID_TRANSFER_ENCODING':
      return 'The request body is not valid chunked encoding.';
    default:
      return 'The request is not valid HTTP/1.1.';
  }
}
