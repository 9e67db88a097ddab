import { createHash } from 'node:crypto';
import type { RecordCreate } from '../../engine/contract/index.ts';
import type { ImportRecord } from './import-item.ts';

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
 * With `occurredAtIsFileTime`, occurred_at stands in for a date the item does not have (its file's
 * modification time) and is left out of the hash: the same note with a newer file time has the same
 * key. The server then answers idempotency_conflict (same key, other body), which the importers count
 * as unchanged for such an item (isUnchangedConflict).
 */
export function importIdempotencyKey(
  body: RecordCreate & { source: { name: string; external_id: string } },
  opts: { occurredAtIsFileTime?: boolean } = {},
): string {
  const hashed = opts.occurredAtIsFileTime ? { ...body, occurred_at: undefined } : body;
  const content = createHash('sha256').update(stableJson(hashed)).digest('hex');
  const id = createHash('sha256')
    .update(`${body.source.name}\u0000${body.source.external_id}\u0000${content}`)
    .digest('base64url');
  return `imp_${id}`;
}

/** The key of a parsed Record, read with what its parser said about it (its parser's occurredAtIsFileTime). */
export function importItemKey(item: ImportRecord): string {
  return importIdempotencyKey(item.body, {
    occurredAtIsFileTime: item.occurredAtIsFileTime === true,
  });
}

/**
 * True when a write answered with idempotency_conflict means "already stored": the key leaves out an
 * occurred_at that is only a file time, so the one body that can differ under the same key is that
 * time. Any other item's conflict is a real failure.
 */
export function isUnchangedConflict(item: ImportRecord, code: string): boolean {
  return code === 'idempotency_conflict' && item.occurredAtIsFileTime === true;
}
