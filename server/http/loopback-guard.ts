import { isIPv4, isIPv6 } from 'node:net';

/**
 * DNS-rebinding and cross-origin protection. A page on evil.example that resolves its name to this
 * machine still sends `Host: evil.example`, so only this server's own names with its port are
 * accepted; and a browser request whose Origin is not this server's own is refused.
 *
 * Bound to loopback (the default), the names are the loopback ones. Bound on purpose to a wildcard or
 * another address (`--host 0.0.0.0`), clients reach it by whatever address they see it at, so any IP
 * literal is accepted too: a rebinding attack needs a host name of the attacker's, never an address.
 * Host names other than localhost and the bound one stay refused.
 *
 * Served through a reverse proxy (`--public-url https://mnemo.example.com/v1`), the public URL's host
 * (with its port, if it names one) is this server's own name too, and its origin a page of ours.
 */
export interface LoopbackPolicy {
  /** Whether `host:port` (lower case, as in a Host header) names this server. */
  allows(hostAndPort: string): boolean;
  /** The message of the 403 for a Host it does not allow (listen.ts answers it, before the app). */
  readonly refusal: string;
  /** Origins of the public URLs (`https://mnemo.example.com`): pages of this server's own. */
  readonly publicOrigins: ReadonlySet<string>;
  /** Whether `host[:port]` is a public URL's host (a page there is ours only at the URL's origin). */
  isPublicHost(hostAndPort: string): boolean;
}

const loopbackNames = ['127.0.0.1', 'localhost', '[::1]'];

/** localhost, 127.0.0.0/8 or ::1: reachable from this machine only. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (h === 'localhost') return true;
  if (isIPv4(h)) return h.startsWith('127.');
  if (!isIPv6(h)) return false;
  try {
    const canonical = new URL(`http://[${h}]/`).hostname;
    return canonical === '[::1]' || canonical.startsWith('[::ffff:7f');
  } catch {
    return false;
  }
}

export function loopbackHosts(boundHost: string, port: number): Set<string> {
  const names = new Set(loopbackNames);
  // Bound elsewhere on purpose (`--host`): that name is also this server's own.
  if (!['127.0.0.1', 'localhost', '::1', '0.0.0.0', '::'].includes(boundHost)) {
    names.add(boundHost.includes(':') ? `[${boundHost}]` : boundHost.toLowerCase());
  }
  return new Set([...names].map((n) => `${n}:${port}`));
}

/** `1.2.3.4:PORT` or `[v6]:PORT`, spelt as a URL spells it (so `127.1` or a long IPv6 form is not). */
function isIpLiteralWithPort(hostAndPort: string, port: number): boolean {
  const m = /^(\[[^\]]+\]|[^:[\]]+):(\d+)$/.exec(hostAndPort);
  if (!m || Number(m[2]) !== port || String(port) !== m[2]) return false;
  const host = m[1]!;
  if (!(host.startsWith('[') ? isIPv6(host.slice(1, -1)) : isIPv4(host))) return false;
  try {
    return new URL(`http://${hostAndPort}/`).host === hostAndPort;
  } catch {
    return false;
  }
}

/**
 * The policy of a server bound to `boundHost`, its port read when first needed (it is known only once
 * the socket listens) and its host names built once per port, not per request.
 */
export function loopbackPolicy(
  boundHost: string,
  port: () => number,
  publicUrls: readonly URL[] = [],
): LoopbackPolicy {
  const anyAddress = !isLoopbackHost(boundHost);
  let built: { port: number; hosts: Set<string> } | null = null;
  // As a Host header names them: without a port when the URL gives its scheme's default, and with that
  // default written out too, which is the same authority (RFC 9110 4.2.3) and some proxies send.
  const publicHosts = new Set(
    publicUrls.flatMap((u) => {
      const host = u.host.toLowerCase();
      return u.port === ''
        ? [host, `${u.hostname.toLowerCase()}:${u.protocol === 'https:' ? 443 : 80}`]
        : [host];
    }),
  );
  const names = publicUrls.length > 0 ? ', its public URL' : '';
  // Behind a reverse proxy, the first request refused is the first sign the public URL was not given.
  const why =
    publicUrls.length > 0
      ? 'DNS-rebinding protection'
      : 'DNS-rebinding protection; behind a reverse proxy, give its address with --public-url';
  return {
    refusal: anyAddress
      ? `Host: this server answers only to an IP address or to its own name${names} (${why})`
      : `Host: this server answers only to its loopback address${names} (${why})`,
    publicOrigins: new Set(publicUrls.map((u) => u.origin.toLowerCase())),
    isPublicHost: (hostAndPort) => publicHosts.has(hostAndPort),
    allows(hostAndPort) {
      if (publicHosts.has(hostAndPort)) return true;
      const p = port();
      if (built?.port !== p) built = { port: p, hosts: loopbackHosts(boundHost, p) };
      return built.hosts.has(hostAndPort) || (anyAddress && isIpLiteralWithPort(hostAndPort, p));
    },
  };
}

/** Why `value` is no public URL as `--public-url` takes it (absolute http(s), no user, query or fragment), or null. */
export function publicUrlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute http:// or https:// URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return 'must be an absolute http:// or https:// URL';
  if (url.username || url.password || url.search || url.hash) return 'must have no user, query or fragment';
  return null;
}

/** A public URL as `--public-url` takes it; a RangeError naming the value and why otherwise. */
export function parsePublicUrl(value: string): URL {
  const problem = publicUrlProblem(value);
  if (problem !== null) throw new RangeError(`public URL ${JSON.stringify(value)}: ${problem}`);
  return new URL(value);
}

/**
 * Where the docs pages are under a public URL: beside /v1 at the server's root
 * (`https://mnemo.example.com/v1` -> `https://mnemo.example.com/docs`).
 */
export const publicDocsBase = (url: URL): string => `${serverRoot(url)}/docs`;

/**
 * A public URL as the API's base clients are told (`https://mnemo.example.com/v1`): a URL given without
 * /v1 names the server's root, as it does for the docs, and the API is under it.
 */
export const publicApiBase = (url: URL): string => `${serverRoot(url)}/v1`;

/** The server's root under a public URL: the URL without trailing slashes and without its /v1. */
function serverRoot(url: URL): string {
  let path = url.pathname;
  while (path.endsWith('/')) path = path.slice(0, -1);
  if (path.endsWith('/v1')) path = path.slice(0, -3);
  return `${url.origin}${path}`;
}

/**
 * A request target in absolute form (`GET http://host:port/v1/... HTTP/1.1`, what clients send to a
 * proxy): its authority, and the rest as a path (origin form). RFC 9112 3.2.2: the server takes the
 * authority as the request's host and ignores the Host header, so it is the authority the Host check
 * must read, or `http://evil.example/...` with a loopback Host would pass it.
 */
export function absoluteTarget(target: string): { authority: string; path: string } | null {
  const scheme = /^https?:\/\//i.exec(target);
  if (!scheme) return null;
  const afterScheme = target.slice(scheme[0].length);
  const end = afterScheme.search(/[/?#]/);
  if (end === -1) return { authority: afterScheme, path: '/' };
  const rest = afterScheme.slice(end);
  return { authority: afterScheme.slice(0, end), path: rest.startsWith('/') ? rest : `/${rest}` };
}

export function hostAllowed(policy: LoopbackPolicy, host: string | undefined): boolean {
  return !!host && policy.allows(host.toLowerCase());
}

/**
 * Requests without an Origin (curl, agents, same-origin GET navigations) pass; others must be ours: a
 * name this server answers to and, when the request's Host is given, that very name. Bound beyond
 * loopback the server answers to any IP literal, and a page served from another machine's address on
 * the same port is another origin.
 */
export function originAllowed(
  policy: LoopbackPolicy,
  origin: string | undefined,
  secFetchSite: string | undefined,
  host?: string,
): boolean {
  if (secFetchSite === 'cross-site') return false;
  if (origin === undefined) return true;
  if (origin === 'null') return false;
  try {
    const u = new URL(origin);
    // A page served at the public URL is ours, whatever Host the proxy passes on.
    if (policy.publicOrigins.has(u.origin.toLowerCase())) return true;
    const name = u.host.toLowerCase();
    if (policy.isPublicHost(name)) return false;
    if (host !== undefined && name !== host.toLowerCase()) return false;
    return u.protocol === 'http:' && policy.allows(name);
  } catch {
    return false;
  }
}
