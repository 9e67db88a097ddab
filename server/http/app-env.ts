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
  };
}
