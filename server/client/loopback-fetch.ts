import http from 'node:http';
import { Readable } from 'node:stream';
import { responseTooLarge } from './limited-fetch.ts';

/**
 * `fetch` for a Mnemo server on this machine, over node:http with kept-alive sockets; any other
 * request goes to the global fetch. Node's fetch (undici behind WHATWG streams) took ~0.35 ms more CPU
 * a request than node:http on loopback here and had a p99 two to three times longer: a cost every call
 * of a local agent's bridge, an import and a benchmark's client paid on a machine whose other core
 * runs the server. What stays fetch's: TLS, proxies, redirects and compression, none of which a
 * loopback server of ours asks for. Unlike fetch, a body that is not an event stream is read whole
 * before the promise settles, so an answer cut short rejects the call itself (as a TypeError, as fetch
 * rejects a refused connection), where the client maps network failures.
 */
export function loopbackFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  return fetchVia(input, init, Infinity);
}

/**
 * loopbackFetch, refusing an answer body longer than maxResponseBytes on its node:http path: reading
 * stops there, the connection is closed and the call rejects with `response_too_large`
 * (limited-fetch.ts, which bounds the global fetch's answers as they are read).
 */
export function createLoopbackFetch(o: { maxResponseBytes: number }): typeof fetch {
  return (input, init) => fetchVia(input, init ?? {}, o.maxResponseBytes);
}

function fetchVia(input: string | URL | Request, init: RequestInit, maxBytes: number): Promise<Response> {
  const url =
    typeof input === 'string'
      ? URL.canParse(input)
        ? new URL(input)
        : null
      : input instanceof URL
        ? input
        : null;
  const body = init.body ?? undefined;
  // node:http follows no redirect: a request that asks for none (`manual`) is as well served here.
  const follows = init.redirect !== undefined && init.redirect !== 'manual';
  if (!url || !isLoopbackHttp(url) || (body !== undefined && typeof body !== 'string') || follows)
    return globalThis.fetch(input, init);
  return send(url, init, body, maxBytes);
}

const loopbackHosts = new Set(['127.0.0.1', 'localhost', '[::1]']);
const isLoopbackHttp = (url: URL) => url.protocol === 'http:' && loopbackHosts.has(url.hostname);

// Sockets idle in the pool are unref'd by the agent, so a process with nothing else to do still ends.
// With a timeout set, the agent drops an idle socket a second before the server's `Keep-Alive:
// timeout=N` says it will, as undici does: a request is not written on a socket the server is closing.
// Nothing is resent here: the server may have read a request whose connection then failed, and the
// client's own retries know which requests may be sent again (docs/agents.md).
const agent = new http.Agent({ keepAlive: true, timeout: 60_000 });

/** Statuses whose Response must have a null body (the constructor throws otherwise). */
const nullBodyStatus = new Set([101, 103, 204, 205, 304]);

function send(url: URL, init: RequestInit, body: string | undefined, maxBytes: number): Promise<Response> {
  const signal = init.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<Response>((resolve, reject) => {
    const req = http.request(url, {
      method: init.method ?? 'GET',
      headers: headerObject(init.headers),
      agent,
    });
    let answered: http.IncomingMessage | null = null;
    const onAbort = () => {
      req.destroy(signal!.reason as Error);
      answered?.destroy(signal!.reason as Error);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => signal?.removeEventListener('abort', onAbort);
    req.on('error', (e: NodeJS.ErrnoException) => {
      if (answered) return;
      done();
      if (signal?.aborted) return reject(signal.reason as Error);
      // As fetch reports it: a TypeError whose cause carries the system error's code.
      reject(new TypeError('fetch failed', { cause: e }));
    });
    req.on('response', (res) => {
      answered = res;
      const status = res.statusCode ?? 0;
      const headers = new Headers();
      for (let i = 0; i < res.rawHeaders.length; i += 2)
        headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
      const meta = { status, statusText: res.statusMessage ?? '', headers };
      if (nullBodyStatus.has(status) || init.method === 'HEAD') {
        done();
        res.resume();
        return resolve(new Response(null, meta));
      }
      if ((headers.get('content-type') ?? '').includes('text/event-stream')) {
        // Streamed as it arrives; an abort later ends the stream with the signal's reason.
        res.once('close', done);
        return resolve(new Response(Readable.toWeb(res) as ReadableStream<Uint8Array>, meta));
      }
      // Reported by the close below; an 'error' without a listener would end the process.
      res.on('error', () => undefined);
      const chunks: Buffer[] = [];
      let bytes = 0;
      let tooLarge = Number(headers.get('content-length') ?? 0) > maxBytes;
      if (tooLarge) res.destroy();
      res.on('data', (c: Buffer) => {
        bytes += c.length;
        if (bytes <= maxBytes) chunks.push(c);
        else if (!tooLarge) {
          tooLarge = true;
          res.destroy();
        }
      });
      res.once('end', () => {
        if (tooLarge) return;
        done();
        resolve(new Response(Buffer.concat(chunks), meta));
      });
      // A response cut before its end (the server gone, an abort): the promise has not settled yet.
      res.once('close', () => {
        done();
        if (!res.complete || tooLarge)
          reject(
            signal?.aborted
              ? (signal.reason as Error)
              : tooLarge
                ? responseTooLarge(`${init.method ?? 'GET'} ${url.pathname}`, maxBytes)
                : new TypeError('fetch failed', { cause: res.errored }),
          );
      });
    });
    req.end(body);
  });
}

function headerObject(headers: RequestInit['headers']): http.OutgoingHttpHeaders {
  if (headers === undefined) return {};
  if (headers instanceof Headers || Array.isArray(headers)) return Object.fromEntries(new Headers(headers));
  // Readonly only in the type: node:http sends an array's values as fetch would.
  return headers as http.OutgoingHttpHeaders;
}
