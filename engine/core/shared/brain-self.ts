import type { SelfEntity } from '../../contract/index.ts';

/** Who "I" is in a Brain, from its row's self columns; null when the Brain does not say (or is gone). */
export function selfOf(
  b: { self_type: 'person' | 'org' | null; self_name: string | null } | null | undefined,
): SelfEntity | null {
  return b?.self_type && b.self_name ? { type: b.self_type, name: b.self_name } : null;
}
