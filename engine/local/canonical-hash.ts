import { createHash } from 'node:crypto';
import { canonicalJson } from '../core/shared/canonical-json.ts';

/** Equal bodies hash equally whatever their key order (Idempotency-Key fingerprints). */
export function canonicalHash(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}
