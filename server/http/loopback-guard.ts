/**
 * DNS-rebinding and cross-origin protection for a server on loopback. A page on evil.example that
 * resolves its name to 127.0.0.1 still sends `Host: evil.example`, so only loopback names with this
 * server's port are accepted; and a browser request whose Origin is not this server's own is refused.
 */
export interface LoopbackPolicy {
  /** `host:port` strings (lower case) this server answers to. */
  hosts(): Set<string>;
}

const loopbackNames = ['127.0.0.1', 'localhost', '[::1]'];

export function loopbackHosts(boundHost: string, port: number): Set<string> {
  const names = new Set(loopbackNames);
  // Bound elsewhere on purpose (`--host`): that name is also this server's own.
  if (!['127.0.0.1', 'localhost', '::1', '0.0.0.0', '::'].includes(boundHost)) {
    names.add(boundHost.includes(':') ? `[${boundHost}]` : boundHost.toLowerCase());
  }
  return new Set([...names].map((n) => `${n}:${port}`));
}

/**
 * The policy of a server bound to `boundHost`, its port read when first needed (it is known only once
 * the socket listens) and its host names built once per port, not per request.
 */
export function loopbackPolicy(boundHost: string, port: () => number): LoopbackPolicy {
  let built: { port: number; hosts: Set<string> } | null = null;
  return {
    hosts() {
      const p = port();
      if (built?.port !== p) built = { port: p, hosts: loopbackHosts(boundHost, p) };
      return built.hosts;
    },
  };
}

/** The refusal of a Host that is not this server's loopback name (listen.ts answers it, before the app). */
export const hostRefused =
  'Host: this server answers only to its loopback address (DNS-rebinding protection)';

export function hostAllowed(policy: LoopbackPolicy, host: string | undefined): boolean {
  return !!host && policy.hosts().has(host.toLowerCase());
}

/** Requests without an Origin (curl, agents, same-origin GET navigations) pass; others must be ours. */
export function originAllowed(
  policy: LoopbackPolicy,
  origin: string | undefined,
  secFetchSite: string | undefined,
): boolean {
  if (secFetchSite === 'cross-site') return false;
  if (origin === undefined) return true;
  if (origin === 'null') return false;
  try {
    const u = new URL(origin);
    return u.protocol === 'http:' && policy.hosts().has(u.host.toLowerCase());
  } catch {
    return false;
  }
}
