import type { RecordPage, SourceList } from '../../engine/contract/index.ts';
import { recordPages, type PageQuery } from './record-pages.ts';

/** One page of a source's Records (listRecords of the engine or of the API client). */
export type SourcePage = (q: { source: string } & PageQuery) => Promise<RecordPage>;

/**
 * Whether an item an import wrote was new to the Brain or took the place of one it held: the same
 * source and external id with other content (an edited note, a changed contact, an event moved, another
 * visibility), which the engine supersedes within that name. The import counts the one as imported and
 * the other as replaced.
 */
export interface HeldItems {
  /** After a write that was not a replay: whether RECORD_ID took the place of a Record the Brain held. */
  replaces(source: string, externalId: string, recordId: string): Promise<boolean>;
}

/**
 * HeldItems from the Brain's sources as they were before the import wrote anything (`sources`; null
 * when the caller may not read them, or the import made the Brain): a source's Records are read, page by
 * page, only once something of a source the Brain held imported Records of was written anew, once per
 * source. An unchanged re-import and a first import read nothing more. Records this import wrote before
 * that read are among them, so an item replaces another only through a Record other than its own. A
 * read that fails tells nothing: its items count as imported.
 */
export function heldItems(sources: SourceList | null, page: SourcePage): HeldItems {
  const held = new Set((sources?.data ?? []).filter((s) => s.reconciled_records > 0).map((s) => s.name));
  const bySource = new Map<string, Promise<ReadonlyMap<string, readonly string[]>>>();
  const read = async (source: string) => {
    const ids = new Map<string, string[]>();
    for await (const p of recordPages(page, { source }))
      for (const r of p?.data ?? []) {
        const id = r.source.external_id;
        if (id !== null) ids.set(id, [...(ids.get(id) ?? []), r.id]);
      }
    return ids;
  };
  return {
    async replaces(source, externalId, recordId) {
      if (!held.has(source)) return false;
      let ids = bySource.get(source);
      if (!ids) {
        ids = read(source).catch(() => new Map<string, string[]>());
        bySource.set(source, ids);
      }
      return ((await ids).get(externalId) ?? []).some((id) => id !== recordId);
    },
  };
}
