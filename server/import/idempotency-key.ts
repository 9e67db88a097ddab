import { createHash } from 'node:crypto';
import type { RecordCreate } from '../../engine/contract/index.ts';

/** JSON with object keys sorted, so equal content always hashes equal. */
export function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>)
      .filter(([, x]) => x !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${stableJson(x)}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

/**
 * The Idempotency-Key of an imported item: derived from (source, external_id, content hash), so a
 * re-import replays the original Record while a changed item gets a new key and writes a new Record.
 */
export function importIdempotencyKey(
  body: RecordCreate & { source: { name: string; external_id: string } },
): string {
  const content = createHash('sha256').update(stableJson(body)).digest('hex');
  const id = createHash('sha256')
    .update(`${body.source.name}\u0000${body.source.external_id}\u0000${content}`)
    .digest('base64url');
  return `imp_${id}`;
}
