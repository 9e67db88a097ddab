import { createHash } from 'node:crypto';

export interface ParsedKey {
  env: 'test' | 'live';
  project: string;
  secret: string;
  /** `sk_<env>_<project>`: what the registry keeps besides the hash and the last four characters. */
  prefix: string;
  last4: string;
}

/**
 * Parses `sk_<env>_<project>_<secret>`: exactly four `_`-separated segments, none empty, env `test` or
 * `live`. Returns null for anything else (the caller answers 401 invalid_api_key).
 */
export function parseApiKey(raw: string): ParsedKey | null {
  const parts = raw.split('_');
  if (parts.length !== 4) return null;
  const [sk, env, project, secret] = parts as [string, string, string, string];
  if (sk !== 'sk' || (env !== 'test' && env !== 'live') || !project || !secret) return null;
  if (!/^[\x21-\x7e]+$/.test(raw)) return null;
  return { env, project, secret, prefix: `sk_${env}_${project}`, last4: secret.slice(-4) };
}

/** Reads a Bearer credential from an Authorization header value; null when absent or not Bearer. */
export function bearerToken(header: string | undefined | null): string | null {
  if (!header) return null;
  const m = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  return m ? m[1]! : null;
}

/** The env of a registered key: the second segment of its `sk_<env>_<project>` prefix. */
export function envOfKey(k: { prefix: string }): string {
  return k.prefix.split('_')[1] ?? '';
}

/** The project of a registered key: the third segment of its `sk_<env>_<project>` prefix. */
export function projectOfKey(k: { prefix: string }): string {
  return k.prefix.split('_')[2] ?? '';
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}
