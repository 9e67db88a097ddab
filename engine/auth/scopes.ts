import { allScopes, type Scope } from '../contract/common.ts';

export { allScopes, type Scope };

export function parseScopes(list: string): Scope[] {
  const wanted = list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = wanted.filter((s) => !(allScopes as readonly string[]).includes(s));
  if (unknown.length > 0) {
    throw new Error(`unknown scope(s): ${unknown.join(', ')}; known: ${allScopes.join(', ')}`);
  }
  return [...new Set(wanted)] as Scope[];
}
