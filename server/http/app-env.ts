import type { Scope } from '../../engine/contract/index.ts';
import type { Tenant } from '../../engine/types.ts';

/** Who is calling: everything here comes from the credential, never from the request. */
export interface Principal {
  tenant: Tenant;
  scopes: readonly Scope[];
  /** The one Brain a bound key may address, else null. */
  brain: string | null;
  admin: boolean;
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
