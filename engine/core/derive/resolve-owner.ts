import { selfSpeakerNames, type SelfEntity } from '../../contract/index.ts';
import type { OwnerClaim } from './deriver.ts';

/**
 * Who a statement belongs to. A name resolves to `self` when it is one of the contract's
 * selfSpeakerNames or equals the Brain's self.name (case- and space-insensitive), but only when the
 * Brain has a self: without one there is nobody to attribute "me" to, so it stays `unresolved`. Any
 * other name is `other`.
 */
export function resolveOwner(name: string | undefined | null, self: SelfEntity | null): OwnerClaim {
  const n = name?.trim();
  if (!n) return { state: 'unresolved' };
  const key = n.toLowerCase().replace(/\s+/g, ' ');
  const isSelf =
    selfSpeakerNames.has(key) || (self !== null && self.name.toLowerCase().replace(/\s+/g, ' ') === key);
  if (isSelf) return self ? { state: 'self', entity: self.name } : { state: 'unresolved' };
  return { state: 'other', entity: n };
}
