/**
 * Whether forgetRecord may erase a Record by itself. One reconciled from a named source (an import:
 * `source.name` with the item's `external_id` there) goes with its source (forgetSource), which would
 * bring it back otherwise. An `external_id` without a source name names no import that could be removed,
 * so that Record is erased as any other written through the API; refusing it would leave only
 * forgetBrain.
 */
export function isErasable(source: { name: string | null; external_id: string | null }): boolean {
  return source.external_id === null || source.name === null;
}
