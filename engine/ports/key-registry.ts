import type { Scope } from '../contract/common.ts';

/** One API key as the registry holds it: never the key, only its hash and what it may do. */
export interface KeyRecord {
  id: string;
  hash: string;
  prefix: string;
  last4: string;
  scopes: Scope[];
  /** The one Brain the key may address, or null. */
  brain: string | null;
  label: string | null;
  /** Admin keys may manage keys over /v1/keys (the desktop UI's key). */
  admin: boolean;
  created_at: string;
  revoked_at: string | null;
}

/**
 * The API keys (today a 0600 JSON file beside the store, auth/key-registry.ts, guarded by a file lock
 * so `mnemo keys` and a running server can both write it). Lookups are by hash: a key is checked
 * without ever being stored. Every request is checked against the registry as it is then: a revoke
 * whose promise has settled refuses the key on the very next request, whichever process revoked it.
 */
export interface KeyRegistryPort {
  /** The key with this hash, revoked or not (a revoked key is refused as such, not as unknown), or null. */
  byHash(hash: string): Promise<KeyRecord | null>;
  list(): Promise<KeyRecord[]>;
  /** Mints a key; the secret is returned once and never kept. */
  create(spec: {
    env: 'test' | 'live';
    project: string;
    /** Absent: every scope. Never empty. */
    scopes?: Scope[] | undefined;
    brain?: string | undefined;
    label?: string | undefined;
    admin?: boolean | undefined;
  }): Promise<{ key: string; record: KeyRecord }>;
  /** Revokes a key by id or secret, if `visible` lets the caller see it; null when none. */
  revoke(idOrKey: string, visible?: (k: KeyRecord) => boolean): Promise<KeyRecord | null>;
}
