import { allScopes, bearerToken, hashKey, parseApiKey, type KeyRegistryPort } from '../../engine/index.ts';
import { MnemoError } from '../../engine/errors/mnemo-error.ts';
import type { Principal } from './app-env.ts';

/**
 * Turns an Authorization header into a Principal, or throws the spec's 401/500 codes. With no registry
 * configured every well-formed key is accepted with all six scopes and nothing is revoked (spec,
 * Authentication 5); with one, the key must be in it and not revoked, as the registry says now (no
 * copy is kept here; a registry that keeps one answers for it, so a revocation refuses the key on the
 * next request).
 */
export async function authenticate(
  header: string | undefined,
  registry: KeyRegistryPort | null,
): Promise<Principal> {
  const token = bearerToken(header);
  if (!token) {
    throw new MnemoError('invalid_api_key', 'Authorization: send "Bearer sk_<env>_<project>_<secret>"');
  }
  const parsed = parseApiKey(token);
  if (!parsed) {
    throw new MnemoError(
      'invalid_api_key',
      'Authorization: the key is not of the form sk_<env>_<project>_<secret> with env test or live',
    );
  }
  const tenant = { project: parsed.project, env: parsed.env };
  if (!registry) {
    return { tenant, scopes: allScopes, brain: null, admin: false, keyId: null, rateKey: hashKey(token) };
  }
  const e = await registry.byHash(hashKey(token));
  if (!e) {
    throw new MnemoError(
      'invalid_api_key',
      "Authorization: this key was not issued by this server's key registry",
    );
  }
  if (e.revoked_at) {
    throw new MnemoError(
      'key_revoked',
      `Authorization: the key ${parsed.prefix}_…${parsed.last4} was revoked`,
    );
  }
  return { tenant, scopes: e.scopes, brain: e.brain, admin: e.admin, keyId: e.id, rateKey: e.hash };
}
