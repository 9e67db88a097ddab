import type { TypedContent } from '../contract/index.ts';
import type { DerivableRecord } from '../core/derive/deriver.ts';
import type { RecordRow as StoredRecord } from '../ports/index.ts';

/** What derivation reads of a stored Record. */
export type RecordRow = Pick<
  StoredRecord,
  'n' | 'external_id' | 'id' | 'kind' | 'content' | 'text' | 'source_name' | 'occurred_at' | 'occurred_ms'
>;

/** What the Deriver reads of a stored Record. */
export function deriverInput(
  r: Pick<RecordRow, 'id' | 'content' | 'text' | 'source_name' | 'occurred_at'>,
): DerivableRecord {
  return {
    id: r.id,
    content: JSON.parse(r.content) as TypedContent,
    text: r.text,
    sourceName: r.source_name,
    occurredAt: r.occurred_at,
  };
}
