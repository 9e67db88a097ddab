import { MnemoApiError } from './mnemo-api-error.ts';

/**
 * Bounds on one request to a server this process does not control (a sync remote): how long it may
 * stay silent, how long the whole exchange may take, and how much of an answer is read.
 */
export interface FetchLimits {
  /**
   * Longest silence, in ms: from the request until its answer starts, and then between two pieces of
   * the answer's body.
   */
  idleMs: number;
  /**
   * The wait for the answer to start grows by one second per this many bytes of request body: fetch
   * does not show a request going out, so a large one on a slow uplink would otherwise be cut while
   * it is still being sent.
   */
  sendBytesPerSecond: number;
  /** Longest whole exchange, in ms, from the request to the last byte of its answer. */
  totalMs: number;
  /** Longest answer body, in bytes; reading stops (and the connection is closed) beyond it. */
  maxResponseBytes: number;
}

/** Codes of the failures the limits report; a retry would meet the same limit, so none is retried. */
export const limitCodes = new Set(['remote_timeout', 'response_too_large', 'remote_redirected']);

const pathOf = (input: string | URL | Request) => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
};

const mib = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${+(bytes / (1024 * 1024)).toFixed(1)} MiB` : `${bytes} bytes`;

/** The answer to `what` (`GET /v1/...`) is larger than `max` bytes: a status-0 MnemoApiError. */
export function responseTooLarge(what: string, max: number): MnemoApiError {
  return new MnemoApiError(0, {
    type: 'internal',
    code: 'response_too_large',
    message: `${what}: the answer is larger than ${mib(max)}; it was not read further`,
  });
}

function timedOut(what: string, ms: number, how: string): MnemoApiError {
  return new MnemoApiError(0, {
    type: 'internal',
    code: 'remote_timeout',
    message: `${what}: ${how} ${+(ms / 1000).toFixed(1)} s; the request was cut`,
  });
}

/**
 * The remote answered `status` (a 3xx) to `what`, pointing to `location` (resolved against the request,
 * without the user name or password it may hold; null when it named none or nothing a URL can be made
 * of): a status-0 MnemoApiError whose body carries `location`.
 */
export function redirected(
  what: string,
  status: number,
  url: string,
  location: string | null,
): MnemoApiError {
  let to: string | null = null;
  if (location !== null && URL.canParse(location, url)) {
    const u = new URL(location, url);
    u.username = '';
    u.password = '';
    to = u.href;
  }
  return new MnemoApiError(0, {
    type: 'internal',
    code: 'remote_redirected',
    message:
      `${what}: the remote answered ${status} and ${to === null ? 'points nowhere a request could go' : `points to ${to}`}; ` +
      'requests to a sync remote follow no redirect',
    location: to,
    request_url: url,
    redirect_status: status,
  });
}

const unref = (t: ReturnType<typeof setTimeout>) => {
  (t as { unref?: () => void }).unref?.();
  return t;
};

/**
 * `base` (a fetch) under `limits`. A request that breaks one is cut (its signal aborts, so the
 * connection is closed) and rejects, or its body errors, with a MnemoApiError of status 0 whose code
 * is `remote_timeout` or `response_too_large`; the client passes such an error on as it is. No
 * redirect is followed (`redirect: 'manual'`): fetch would resend a 307/308's body (Records) to
 * wherever it points, another host or plain http, and drop the key on the way, so that the remote
 * seemed to refuse it; a 3xx rejects with `remote_redirected`, naming where it points. The
 * caller's own signal still aborts as before. A `base` that reads a body whole before it resolves
 * (loopback-fetch's node:http path) should itself refuse to buffer more than maxResponseBytes
 * (createLoopbackFetch); its body then counts as part of the answer's start, within one idleMs.
 * With `redirects: 'answer'` a 3xx is still not followed but resolves, its body unread, for a caller
 * that says in its own words what a redirect means to it (the query rewrite's endpoint).
 */
export function limitedFetch(
  base: typeof fetch,
  limits: FetchLimits,
  o: { redirects?: 'refuse' | 'answer' } = {},
): typeof fetch {
  return async (input, init = {}) => {
    const what = `${init.method ?? 'GET'} ${pathOf(input)}`;
    const cut = new AbortController();
    // The caller's signal aborts this one (forwarded by hand: a signal AbortSignal.any made from a
    // long-lived one, a run's, is not released on every Node 20).
    const own = init.signal ?? undefined;
    const onAbort = () => cut.abort(own!.reason);
    if (own?.aborted) onAbort();
    else own?.addEventListener('abort', onAbort, { once: true });
    let idle: ReturnType<typeof setTimeout> | undefined;
    const total = unref(
      setTimeout(() => fail(timedOut(what, limits.totalMs, 'not done within')), limits.totalMs),
    );
    const stop = () => {
      clearTimeout(idle);
      clearTimeout(total);
      own?.removeEventListener('abort', onAbort);
    };
    const fail = (e: MnemoApiError) => {
      stop();
      if (!cut.signal.aborted) cut.abort(e);
    };
    const silentFor = (ms: number) => {
      clearTimeout(idle);
      idle = unref(setTimeout(() => fail(timedOut(what, ms, 'no answer for')), ms));
    };
    // Why a call failed: the limit that cut it, unless the caller's own signal ended it first.
    const reason = (e: unknown) => (cut.signal.aborted && !own?.aborted ? (cut.signal.reason as unknown) : e);

    const sent = typeof init.body === 'string' ? new TextEncoder().encode(init.body).byteLength : 0;
    silentFor(limits.idleMs + Math.ceil((sent / limits.sendBytesPerSecond) * 1000));
    let res: Response;
    try {
      res = await base(input, { ...init, redirect: 'manual', signal: cut.signal });
    } catch (e) {
      stop();
      throw reason(e);
    }
    if (res.status >= 300 && res.status < 400) {
      stop();
      await res.body?.cancel().catch(() => {});
      if (o.redirects === 'answer')
        return new Response(null, { status: res.status, statusText: res.statusText, headers: res.headers });
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      throw redirected(what, res.status, url, res.headers.get('location'));
    }
    const declared = Number(res.headers.get('content-length') ?? 0);
    if (declared > limits.maxResponseBytes) {
      const e = responseTooLarge(what, limits.maxResponseBytes);
      fail(e);
      await res.body?.cancel(e).catch(() => {});
      throw e;
    }
    if (!res.body) {
      stop();
      return res;
    }
    silentFor(limits.idleMs);
    const reader = res.body.getReader();
    let bytes = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        let chunk: Awaited<ReturnType<typeof reader.read>>;
        try {
          chunk = await reader.read();
        } catch (e) {
          stop();
          controller.error(reason(e));
          return;
        }
        if (chunk.done) {
          stop();
          controller.close();
          return;
        }
        bytes += chunk.value.byteLength;
        if (bytes > limits.maxResponseBytes) {
          const e = responseTooLarge(what, limits.maxResponseBytes);
          fail(e);
          void reader.cancel(e).catch(() => {});
          controller.error(e);
          return;
        }
        silentFor(limits.idleMs);
        controller.enqueue(chunk.value);
      },
      cancel(why) {
        stop();
        return reader.cancel(why);
      },
    });
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}
