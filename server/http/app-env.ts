import type { Principal as EnginePrincipal } from '../../engine/index.ts';

/** Who is calling: everything here comes from the credential, never from the request. */
export interface Principal extends EnginePrincipal {
  keyId: string | null;
  /** What the rate limiter counts by: the key's hash, never the key. */
  rateKey: string;
}

export interface AppEnv {
  Variables: {
    requestId: string;
    principal: Principal;
    docsUrlBase: () => string;
    /**
     * Counts one request of this key against its rate limit, throwing `too_many_requests` past it:
     * every endpoint a key reaches (/v1 and /mcp) counts against the same limit.
     */
    countRequest: (principal: Principal) => void;
  };
}
