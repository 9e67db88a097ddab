import type { KeyInfo } from '../../engine/contract/index.ts';

/**
 * Whether a listed key is the one this window is signed in with. The registry keeps only the
 * `sk_<env>_<project>` prefix and the last four characters besides a hash the renderer cannot
 * compute, so this is the same pair the server itself narrows by before it compares hashes: two keys
 * sharing both are possible but rare, and then both are marked, which errs on the side of a warning.
 */
export function isOwnKey(k: Pick<KeyInfo, 'prefix' | 'last4' | 'revoked_at'>, apiKey: string): boolean {
  if (k.revoked_at) return false;
  const parts = apiKey.split('_');
  if (parts.length !== 4 || !parts[3]) return false;
  return k.prefix === parts.slice(0, 3).join('_') && k.last4 === parts[3].slice(-4);
}
