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
 * `occurredAtInKey` (ImportRecord's) is hashed in occurred_at's place when the instant depends on more
 * than the item: null leaves it out (a file's modification time, a date the item does not have), a
 * string keys the item's own date read zone-free (a note's date alone). The same item read again with
 * another instant has the same key; the server then answers idempotency_conflict (same key, other
 * body), which the importers count as unchanged for such an item (isUnchangedConflict).
 */
export function importIdempotencyKey(
  body: RecordCreate & { source: { name: string; external_id: string } },
  opts: { occurredAtInKey?: string | null; versionInKey?: string | undefined } = {},
): string {
  const dated =
    opts.occurredAtInKey === undefined ? body : { ...body, occurred_at: opts.occurredAtInKey ?? undefined };
  // Beside the body, under a name no Record field has: an item with no version keys as it always did.
  const hashed = opts.versionInKey === undefined ? dated : { ...dated, '\u0000version': opts.versionInKey };
  const content = createHash('sha256').update(stableJson(hashed)).digest('hex');
  const id = createHash('sha256')
    .update(`${body.source.name}\u0000${body.source.external_id}\u0000${content}`)
    .digest('base64url');
  return `imp_${id}`;
}

/** The key of a parsed Record, read with what its parser said about it (its occurredAtInKey). */
export function importItemKey(item: ImportRecord): string {
  return importIdempotencyKey(item.body, {
    occurredAtInKey: item.occurredAtInKey,
    versionInKey: item.versionInKey,
  });
}

/**
 * True when a write answered with idempotency_conflict means "already stored": the key hashes
 * something else in occurred_at's place (a file time left out, a date alone read zone-free), so the one
 * body that can differ under the same key is that instant. The stored Record keeps the occurred_at it
 * was first written with. Any other item's conflict is a real failure.
 */
export function isUnchangedConflict(item: ImportRecord, code: string): boolean {
  return code === 'idempotency_conflict' && item.occurredAtInKey !== undefined;
}
