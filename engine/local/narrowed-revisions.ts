import type { Visibility } from '../contract/index.ts';
import type { BrainUnitOfWork, RecordRow } from '../ports/index.ts';

/** How far a Record travels: a shareable one as it is, a redacted_summary one redacted, a local_only one not at all. */
const reach: Record<Visibility, number> = { local_only: 0, redacted_summary: 1, shareable: 2 };

/**
 * The other revisions of an item (its source name and external id) that travel further than the
 * revision just written or replayed: an import again with `--visibility local_only` keeps the item on
 * the device, which an earlier shareable revision, still held, would not. They are forgotten with the
 * write, so their tombstones take them back from a paired hub and no later pairing pushes them.
 */
export async function narrowedRevisions(
  u: BrainUnitOfWork,
  written: Pick<RecordRow, 'id' | 'source_name' | 'external_id' | 'visibility'>,
): Promise<string[]> {
  if (written.source_name === null || written.external_id === null) return [];
  if (written.visibility === 'shareable') return [];
  const ids = await u.records.idsOfSourceItems(written.source_name, [written.external_id]);
  const wider: string[] = [];
  for (const id of ids) {
    if (id === written.id) continue;
    const r = await u.records.get(id);
    if (r && reach[r.visibility] > reach[written.visibility]) wider.push(id);
  }
  return wider;
}
